import { MAX_AMOUNT } from './create-payment.schema';
import { z } from './zod-openapi';

/** POST /v1/subscriptions/{id}/charge body: the charge of one cycle (Pix Automático). */
export const ChargeSubscriptionSchema = z
  .object({
    amount: z
      .number()
      .int()
      .min(1)
      .max(MAX_AMOUNT)
      .optional()
      .openapi({
        description: 'Centavos deste ciclo: obrigatório quando a assinatura tem valor variável; nas de valor fixo, omita ou envie o mesmo valor.',
        example: 4990,
      }),
    due_date: z
      .string()
      .optional()
      .openapi({
        description:
          'AAAA-MM-DD, dia útil entre 2 e 10 dias úteis à frente (feriados nacionais contam como não úteis). Omitido: a próxima data de cobrança, se estiver nessa janela. ' +
          'Cada ciclo aceita uma cobrança: a do ciclo em que a data cai.',
        example: '2026-12-10',
      }),
  })
  .strict()
  .openapi('ChargeSubscription', { example: { amount: 4990, due_date: '2026-12-10' } });

export type ChargeSubscriptionInput = z.output<typeof ChargeSubscriptionSchema>;

export const CHARGE_FIELD_HINTS = {
  amount: 'O campo amount deve ser um inteiro em centavos (por exemplo 4990 para R$ 49,90).',
  due_date: 'O campo due_date deve ser uma data AAAA-MM-DD entre 2 e 10 dias úteis à frente.',
} as const;
