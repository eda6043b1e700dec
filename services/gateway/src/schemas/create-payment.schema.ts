import { CustomerSchema } from './customer.schema';
import { MetadataSchema } from './metadata.schema';
import { TrackingSchema } from './tracking.schema';
import { z } from './zod-openapi';

export const PAYMENT_METHODS = ['pix', 'card', 'boleto'] as const;
export const PaymentMethodSchema = z.enum(PAYMENT_METHODS).openapi('PaymentMethod');

/** Largest amount accepted: R$ 1 bilhão, far below int64 and JS safe-integer limits. */
export const MAX_AMOUNT = 100_000_000_000;

export const CardInputSchema = z
  .object({
    token: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .openapi({ description: 'Token do formulário de cartão da conta (exige provider_account_id). Sem token, o comprador digita o cartão no checkout hospedado do provedor (next_action.type = redirect).' }),
    id: z.string().min(1).max(100).optional().openapi({ description: 'Cartão salvo (card_…); exige chave completa.' }),
    installments: z.number().int().min(1).max(12).optional().openapi({ example: 1 }),
    brand: z.string().min(1).max(30).optional().openapi({ example: 'visa' }),
  })
  .strict()
  // Neither is allowed too: the card is then typed on the provider's hosted checkout.
  .refine((card) => card.token === undefined || card.id === undefined, {
    message: 'Informe no máximo um entre card.token e card.id.',
  })
  .openapi('CardInput');

export const SplitInputSchema = z
  .object({
    subaccount_id: z.string().min(1).max(100).openapi({ example: 'sub_01j9z0k3x7m2' }),
    amount: z.number().int().min(1).optional().openapi({ description: 'Centavos do valor bruto.' }),
    percentage: z
      .number()
      .gt(0)
      .max(100)
      .multipleOf(0.01)
      .optional()
      .openapi({ description: 'Porcentagem do valor bruto, até duas casas.' }),
  })
  .strict()
  .refine((split) => (split.amount === undefined) !== (split.percentage === undefined), {
    message: 'Cada divisão (splits) deve ter exatamente um entre amount e percentage.',
  })
  .openapi('SplitInput');

export const CreatePaymentSchema = z
  .object({
    // Omitted: status requires_method, and the buyer chooses among the available methods at payment_url.
    method: PaymentMethodSchema.optional(),
    amount: z.number().int().min(1).max(MAX_AMOUNT).openapi({ description: 'Valor em centavos.', example: 1990 }),
    currency: z.literal('BRL').optional(),
    description: z.string().max(500).optional().openapi({ example: 'Plano mensal' }),
    customer: CustomerSchema,
    card: CardInputSchema.optional(),
    expires_in_minutes: z
      .number()
      .int()
      .min(1)
      .max(43_200)
      .optional()
      .openapi({
        description: 'Validade do Pix em minutos (até 30 dias; padrão 60). Sem method: o tempo que o comprador tem para escolher a forma de pagamento (padrão 60).',
        example: 30,
      }),
    metadata: MetadataSchema.optional(),
    tracking: TrackingSchema.optional(),
    provider_account_id: z.string().min(1).max(100).optional().openapi({ description: 'Força uma conta (pa_…).' }),
    splits: z.array(SplitInputSchema).min(1).max(20).optional(),
  })
  .strict()
  .openapi('CreatePayment', {
    example: {
      method: 'pix',
      amount: 1990,
      description: 'Plano mensal',
      customer: { name: 'Maria da Silva', email: 'maria@exemplo.com.br', document: '52998224725' },
      expires_in_minutes: 30,
      metadata: { order_id: '10293' },
      tracking: { utm_source: 'facebook' },
    },
  });

export type CreatePaymentInput = z.output<typeof CreatePaymentSchema>;

/** `Idempotency-Key`: optional, printable ASCII, at most 255 characters. */
export const IdempotencyHeadersSchema = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7E]+$/)
    .optional()
    .openapi({ description: 'Repetir a mesma chave com o mesmo corpo devolve o mesmo pagamento.', example: 'pedido-10293' }),
});
