import { MAX_AMOUNT } from './create-payment.schema';
import { z } from './zod-openapi';

/** POST /v1/payments/{id}/refund body. Both fields optional: `{}` refunds everything still refundable. */
export const RefundPaymentSchema = z
  .object({
    amount: z
      .number()
      .int()
      .min(1)
      .max(MAX_AMOUNT)
      .optional()
      .openapi({
        description:
          'Centavos a reembolsar. Omitido: todo o valor que ainda pode ser reembolsado (o valor pago menos os reembolsos concluídos e em processamento).',
        example: 500,
      }),
    reason: z.string().max(500).optional().openapi({ description: 'Motivo do reembolso (até 500 caracteres).', example: 'Produto devolvido' }),
  })
  .strict()
  .openapi('RefundPayment', { example: { amount: 500, reason: 'Produto devolvido' } });

export type RefundPaymentInput = z.output<typeof RefundPaymentSchema>;

/** `Idempotency-Key` of a refund: same rules as on POST /v1/payments. */
export const RefundIdempotencyHeadersSchema = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7E]+$/)
    .optional()
    .openapi({ description: 'Repetir a mesma chave com o mesmo corpo devolve o mesmo reembolso, nunca um segundo.', example: 'reembolso-10293-1' }),
});
