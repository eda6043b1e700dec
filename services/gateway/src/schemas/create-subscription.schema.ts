import { IdempotencyHeadersSchema, MAX_AMOUNT } from './create-payment.schema';
import { CustomerSchema } from './customer.schema';
import { MetadataSchema } from './metadata.schema';
import { TrackingSchema } from './tracking.schema';
import { z } from './zod-openapi';

// Shapes and types only: the subscription's own rules (a CPF's check digits, start_date not in the
// past, end_date after start_date, first_amount required for a variable amount) are the
// subscriptions service's, which answers them with the same error body.

export const SUBSCRIPTION_FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'semiannually', 'annually'] as const;
export const SubscriptionFrequencySchema = z.enum(SUBSCRIPTION_FREQUENCIES).openapi('SubscriptionFrequency');

/** Banco Central's `devedor.nome` and `vinculo.objeto` (the text the payer's bank app shows). */
export const SUBSCRIPTION_CUSTOMER_NAME_MAX = 140;
export const SUBSCRIPTION_DESCRIPTION_MAX = 35;

const cents = (description: string) => z.number().int().min(1).max(MAX_AMOUNT).openapi({ description, example: 2990 });

const calendarDate = (description: string, example: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .openapi({ description, example, format: 'date' });

/** The payer: name and CPF/CNPJ required (Pix Automático names the payer); the address for the provider that asks it. */
export const SubscriptionCustomerSchema = CustomerSchema.omit({ ip: true })
  .extend({
    name: z.string().trim().min(1).max(SUBSCRIPTION_CUSTOMER_NAME_MAX).openapi({ example: 'Maria da Silva' }),
    document: CustomerSchema.shape.document
      .unwrap()
      .openapi({
        description:
          'CPF (11 dígitos) ou CNPJ (14 dígitos), conferido pelos dígitos verificadores; pontuação aceita e removida. ' +
          'O CNPJ alfanumérico ainda não é aceito no Pix Automático.',
        example: '529.982.247-25',
      }),
  })
  .openapi('SubscriptionCustomerInput', { description: 'O pagador: nome e CPF/CNPJ obrigatórios; o endereço completo quando a conta o exige.' });

export const CreateSubscriptionSchema = z
  .object({
    customer: SubscriptionCustomerSchema,
    frequency: SubscriptionFrequencySchema,
    amount: cents('Centavos por ciclo; omitido (ou null) para valor variável, definido a cada cobrança.').nullable().optional(),
    first_amount: cents('Centavos do primeiro ciclo, pago na aprovação; padrão: amount. Obrigatório sem amount.').optional(),
    description: z
      .string()
      .max(SUBSCRIPTION_DESCRIPTION_MAX)
      .optional()
      .openapi({ description: 'Texto que o banco do pagador mostra (até 35 caracteres).', example: 'Plano mensal' }),
    start_date: calendarDate('Data do primeiro ciclo (AAAA-MM-DD, hoje ou depois); padrão: hoje.', '2026-12-01').optional(),
    end_date: calendarDate('Último dia em que um ciclo pode cair (AAAA-MM-DD, depois de start_date); omitido: sem fim.', '2027-11-30').optional(),
    retry: z.boolean().optional().openapi({ description: 'O banco tenta de novo até 3 vezes em 7 dias quando um ciclo falha; padrão true.' }),
    metadata: MetadataSchema.optional(),
    tracking: TrackingSchema.optional(),
    provider_account_id: z.string().min(1).max(100).optional().openapi({ description: 'Força uma conta (pa_…).' }),
  })
  .strict()
  .openapi('CreateSubscription', {
    example: {
      customer: { name: 'Maria da Silva', document: '52998224725' },
      frequency: 'monthly',
      amount: 2990,
      description: 'Plano mensal',
      start_date: '2026-12-01',
      metadata: { plan: 'pro' },
    },
  });

export type CreateSubscriptionInput = z.output<typeof CreateSubscriptionSchema>;

/** What to do about this operation's fields (they win over the payment hints of the same name). */
export const SUBSCRIPTION_FIELD_HINTS = {
  customer: 'Informe o pagador como objeto, com customer.name e customer.document (CPF ou CNPJ).',
  'customer.name': 'Informe o nome do pagador (até 140 caracteres).',
  frequency: `Use um destes valores: ${SUBSCRIPTION_FREQUENCIES.join(', ')}.`,
  amount: 'Informe o valor de cada ciclo em centavos como número inteiro (2990 para R$ 29,90), ou omita-o para valor variável.',
  first_amount: 'Informe o valor do primeiro ciclo em centavos como número inteiro, ou omita-o para usar amount.',
  description: 'Informe um texto de até 35 caracteres: é o que o banco do pagador mostra.',
  start_date: 'Informe a data no formato AAAA-MM-DD, hoje ou depois, ou omita-a para começar hoje.',
  end_date: 'Informe a data no formato AAAA-MM-DD, depois de start_date, ou omita-a para uma assinatura sem fim.',
  retry: 'Informe true (o banco tenta de novo um ciclo que falhou) ou false.',
  status: 'Use um destes status: pending, active, canceled, refused ou expired.',
  'Idempotency-Key': 'Envie uma chave de até 255 caracteres visíveis, única por assinatura (por exemplo um UUID).',
} as const;

/** `Idempotency-Key`: as on POST /v1/payments (optional, printable ASCII, at most 255 characters). */
export const SubscriptionIdempotencyHeadersSchema = z.object({
  'Idempotency-Key': IdempotencyHeadersSchema.shape['Idempotency-Key'].openapi({
    description: 'Repetir a mesma chave com o mesmo corpo devolve a mesma assinatura.',
    example: 'assinatura-10293',
  }),
});
