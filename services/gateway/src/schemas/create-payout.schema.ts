import { MetadataSchema } from './metadata.schema';
import { z } from './zod-openapi';

/** The payouts service's own ceiling of one payout (R$ 10 milhões), checked here first. */
export const MAX_PAYOUT_AMOUNT = 1_000_000_000;
export const PAYOUT_DESCRIPTION_MAX = 140;

// Shapes and types only: whether the account pays out, the saved key exists, the owner turned
// payouts on, the day's limit and the balance are the payouts service's, answered with the same body.

export const PayoutDestinationInputSchema = z
  .discriminatedUnion('type', [
    z
      .object({ type: z.literal('account').openapi({ description: 'A conta bancária cadastrada no provedor.' }) })
      .strict()
      .openapi('PayoutDestinationAccountInput'),
    z
      .object({
        type: z.literal('pix_key').openapi({ description: 'Uma chave Pix salva pelo dono da conta.' }),
        destination_id: z
          .string()
          .min(1)
          .max(100)
          .openapi({ description: 'Id da chave salva (pdest_…), de GET /v1/payout-destinations.', example: 'pdest_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
      })
      .strict()
      .openapi('PayoutDestinationPixKeyInput'),
  ])
  .openapi('PayoutDestinationInput', {
    description: 'Para onde vai o dinheiro: a conta cadastrada no provedor (account) ou uma chave Pix salva (pix_key com destination_id).',
  });

export const CreatePayoutSchema = z
  .object({
    provider_account_id: z
      .string()
      .min(1)
      .max(100)
      .openapi({ description: 'A conta de provedor de onde sai o dinheiro (pa_…); veja GET /v1/balances.', example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    amount: z.number().int().min(1).max(MAX_PAYOUT_AMOUNT).openapi({ description: 'Centavos.', example: 15000 }),
    destination: PayoutDestinationInputSchema,
    description: z
      .string()
      .max(PAYOUT_DESCRIPTION_MAX)
      .optional()
      .openapi({ description: 'Texto livre do repasse (até 140 caracteres).', example: 'Retirada semanal' }),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .openapi('CreatePayout', {
    example: {
      provider_account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4',
      amount: 15000,
      destination: { type: 'pix_key', destination_id: 'pdest_01j9z0k3x7m2q8r4t6v8w0y2a4' },
      description: 'Retirada semanal',
    },
  });

export type CreatePayoutInput = z.output<typeof CreatePayoutSchema>;

/** What to do about this operation's fields (they win over the payment hints of the same name). */
export const PAYOUT_FIELD_HINTS = {
  provider_account_id: 'Informe a conta de provedor de onde sai o repasse (pa_…); as contas e seus saldos estão em GET /v1/balances.',
  amount: 'Informe o valor do repasse em centavos como número inteiro, a partir de 1 (15000 para R$ 150,00).',
  destination: 'Informe destination como objeto: {"type": "account"} ou {"type": "pix_key", "destination_id": "pdest_…"}.',
  'destination.type': 'Use account (a conta cadastrada no provedor) ou pix_key (uma chave Pix salva).',
  'destination.destination_id': 'Informe o id de uma chave Pix salva (pdest_…), listada em GET /v1/payout-destinations.',
  description: 'Informe um texto de até 140 caracteres.',
  status: 'Use um destes status: pending, processing, paid, failed ou canceled.',
  'Idempotency-Key': 'Envie uma chave de até 255 caracteres visíveis, única por repasse (por exemplo um UUID): sem ela um repasse repetido poderia sair duas vezes.',
} as const;

/** `Idempotency-Key` of a payout: REQUIRED (a retried payout must never pay twice), printable ASCII, ≤ 255. */
export const PayoutIdempotencyHeadersSchema = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7E]+$/)
    .openapi({ description: 'Obrigatório. Repetir a mesma chave com o mesmo corpo devolve o mesmo repasse, nunca um segundo.', example: 'repasse-2026-12-01' }),
});
