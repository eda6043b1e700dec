import { MAX_PAYOUT_AMOUNT, PAYOUT_DESCRIPTION_MAX } from './create-payout.schema';
import { MetadataSchema } from './metadata.schema';
import { paginationShape } from './pagination.schema';
import { z } from './zod-openapi';

// Shapes and types only: whether the subaccount exists here and is active, and whether the owner
// turned payouts on, are the payouts service's answers. The destination is never the caller's:
// a withdrawal goes to the subaccount's own (spec §4).

export const CreateWithdrawalSchema = z
  .object({
    amount: z
      .number()
      .int()
      .min(1)
      .max(MAX_PAYOUT_AMOUNT)
      .openapi({ description: 'Centavos. Num provedor que retira o saldo inteiro, o valor que sai pode ser outro (veja whole_balance).', example: 15000 }),
    description: z
      .string()
      .max(PAYOUT_DESCRIPTION_MAX)
      .optional()
      .openapi({ description: 'Texto livre do saque (até 140 caracteres).', example: 'Saque semanal do vendedor' }),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .openapi('CreateWithdrawal', { example: { amount: 15000, description: 'Saque semanal do vendedor' } });

export type CreateWithdrawalInput = z.output<typeof CreateWithdrawalSchema>;

/** Query of GET /v1/subaccounts/{id}/withdrawals. Unknown parameters are refused. */
export const ListWithdrawalsQuerySchema = z.object({ ...paginationShape }).strict();

/** What to do about this operation's fields. */
export const WITHDRAWAL_FIELD_HINTS = {
  amount: 'Informe o valor do saque em centavos como número inteiro, a partir de 1 (15000 para R$ 150,00).',
  description: 'Informe um texto de até 140 caracteres.',
  'Idempotency-Key': 'Envie uma chave de até 255 caracteres visíveis, única por saque (por exemplo um UUID): sem ela um saque repetido poderia sair duas vezes.',
} as const;
