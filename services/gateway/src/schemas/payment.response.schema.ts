import { PAYMENT_STATUSES, REFUND_SOURCES, REFUND_STATUSES } from '@orquestra/contracts';
import { PaymentMethodSchema } from './create-payment.schema';
import { z } from './zod-openapi';

// Response schemas: they document the answers, and the mappers are typed by them
// (`z.infer`), so a mapper that drifts from the document fails to compile.

/**
 * `schema | null` for a named (referenced) schema. zod-to-openapi drops `.nullable()` on a `$ref`;
 * a union renders as `anyOf: [$ref, {type: null}]`, which is what OpenAPI 3.1 means.
 */
export function nullableRef<T extends z.ZodTypeAny>(schema: T) {
  return z.union([schema, z.null()]);
}

export const PaymentStatusSchema = z.enum(PAYMENT_STATUSES).openapi('PaymentStatus', {
  description: 'Entregue o produto só em succeeded; pare de consultar em failed ou canceled (canceled inclui expirado).',
});

export const NEXT_ACTION_TYPES = ['pix_qr', 'boleto', 'redirect', 'none'] as const;

export const NextActionSchema = z
  .object({
    type: z.enum(NEXT_ACTION_TYPES),
    qr_code: z.string().nullable().openapi({ description: 'Pix copia e cola.' }),
    qr_code_base64: z.string().nullable().openapi({ description: 'Imagem do QR (PNG em base64), quando a conta fornece.' }),
    qr_code_url: z.string().nullable().openapi({ description: 'URL pública da imagem do QR enquanto o Pix está aberto.' }),
    digitable_line: z.string().nullable().openapi({ description: 'Linha digitável do boleto.' }),
    url: z.string().nullable().openapi({ description: 'Link do boleto ou de redirecionamento.' }),
  })
  .openapi('NextAction');

export const AddressOutputSchema = z
  .object({
    street: z.string().nullable(),
    number: z.string().nullable(),
    neighborhood: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    zip: z.string().nullable(),
    complement: z.string().nullable(),
  })
  .openapi('AddressOutput');

export const CustomerOutputSchema = z
  .object({
    id: z.string().nullable().openapi({ description: 'O registro do cliente (cus_…), quando o documento foi informado.', example: 'cus_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    name: z.string().nullable(),
    email: z.string().nullable(),
    document: z.string().nullable(),
    phone: z.string().nullable(),
    address: nullableRef(AddressOutputSchema),
  })
  .openapi('Customer');

export const SplitOutputSchema = z.object({ subaccount_id: z.string(), amount: z.number().int() }).openapi('Split');

/** A Pix payment waiting for the buyer (the reference's sample of a Payment). */
export const PAYMENT_EXAMPLE = {
  id: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4',
  object: 'payment' as const,
  mode: 'test' as const,
  method: 'pix' as const,
  status: 'pending' as const,
  amount: 1990,
  amount_refunded: 0,
  currency: 'BRL' as const,
  fee: 0,
  net: 1990,
  provider: 'efi',
  provider_account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4',
  provider_payment_id: 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6',
  next_action: {
    type: 'pix_qr' as const,
    qr_code: '00020126570014br.gov.bcb.pix2535pix.example.com/qr/v2/cobv/a1b2c3d45204000053039865802BR5909ORQUESTRA6009SAO PAULO62070503***63045B2F',
    qr_code_base64: null,
    qr_code_url: 'http://localhost:8080/qr/pay_01j9z0k3x7m2q8r4t6v8w0y2a4.png',
    digitable_line: null,
    url: null,
  },
  metadata: { order_id: '10293' },
  failure_reason: null,
  failure_code: null,
  end_to_end_id: null,
  subscription_id: null,
  splits: [],
  payment_url: 'http://localhost:8080/pay/pay_01j9z0k3x7m2q8r4t6v8w0y2a4',
  expires_at: '2026-10-01T12:30:00.000Z',
  tracking: {},
  customer: { id: 'cus_01j9z0k3x7m2q8r4t6v8w0y2a4', name: 'Maria da Silva', email: 'maria@exemplo.com.br', document: '52998224725', phone: null, address: null },
  description: 'Plano mensal',
  created_at: '2026-10-01T12:00:00.000Z',
  updated_at: '2026-10-01T12:00:00.000Z',
};

export const PaymentSchema = z
  .object({
    id: z.string().openapi({ example: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('payment'),
    mode: z.enum(['test', 'live']),
    method: nullableRef(PaymentMethodSchema),
    status: PaymentStatusSchema,
    amount: z.number().int().openapi({ example: 1990 }),
    amount_refunded: z.number().int(),
    currency: z.literal('BRL'),
    fee: z.number().int(),
    net: z.number().int(),
    provider: z.string().nullable().openapi({ example: 'efi' }),
    provider_account_id: z.string().nullable(),
    provider_payment_id: z.string().nullable(),
    next_action: nullableRef(NextActionSchema),
    metadata: z.record(z.string(), z.string()),
    failure_reason: z.string().nullable(),
    failure_code: z.string().nullable(),
    end_to_end_id: z.string().nullable(),
    subscription_id: z.string().nullable(),
    splits: z.array(SplitOutputSchema),
    payment_url: z.string().nullable(),
    expires_at: z.string().nullable().openapi({ description: 'Até quando o Pix vale (ISO 8601).' }),
    tracking: z.record(z.string(), z.string()),
    customer: nullableRef(CustomerOutputSchema),
    description: z.string().nullable(),
    created_at: z.string().openapi({ description: 'ISO 8601.', example: '2026-10-01T12:00:00.000Z' }),
    updated_at: z.string().nullable(),
  })
  .openapi('Payment', { example: PAYMENT_EXAMPLE });

export const PaymentAttemptSchema = z
  .object({
    id: z.string(),
    object: z.literal('payment_attempt'),
    provider_account_id: z.string().nullable(),
    provider: z.string().nullable(),
    outcome: z.string().openapi({ description: 'succeeded, declined, failed ou uncertain.' }),
    failure_code: z.string().nullable(),
    failure_reason: z.string().nullable(),
    latency_ms: z.number().int(),
    created_at: z.string(),
  })
  .openapi('PaymentAttempt');

export const PaymentEventRefSchema = z
  .object({ id: z.string(), type: z.string(), created: z.number().int() })
  .openapi('PaymentEventRef');

export const RefundSchema = z
  .object({
    id: z.string().openapi({ example: 're_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('refund'),
    payment_id: z.string(),
    amount: z.number().int().openapi({ description: 'Centavos.', example: 500 }),
    status: z.enum(REFUND_STATUSES).openapi({ description: 'pending até o provedor confirmar a devolução; succeeded ou failed depois.' }),
    reason: z.string().nullable(),
    source: z.enum(REFUND_SOURCES).openapi({ description: 'service: pedido por esta API; provider: feito no painel do provedor.' }),
    provider_refund_id: z.string().nullable(),
    failure_code: z.string().nullable(),
    failure_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Refund');

/** One payment as GET /v1/payments/{id} answers it: with attempts, refunds and events. */
export const PaymentDetailSchema = PaymentSchema.extend({
  attempts: z.array(PaymentAttemptSchema),
  refunds: z.array(RefundSchema),
  events: z.array(PaymentEventRefSchema),
}).openapi('PaymentDetail', {
  example: {
    ...PAYMENT_EXAMPLE,
    attempts: [
      {
        id: 'att_01j9z0k3x7m2q8r4t6v8w0y2a4',
        object: 'payment_attempt',
        provider_account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4',
        provider: 'efi',
        outcome: 'succeeded',
        failure_code: null,
        failure_reason: null,
        latency_ms: 184,
        created_at: '2026-10-01T12:00:00.000Z',
      },
    ],
    refunds: [],
    events: [{ id: 'evt_01j9z0k3x7m2q8r4t6v8w0y2a4', type: 'payment.created', created: 1790000000 }],
  },
});

/** POST /v1/payments/{id}/refund answers the refund and the payment as it is after. */
export const RefundResultSchema = z
  .object({ refund: RefundSchema, payment: PaymentSchema })
  .openapi('RefundResult');

export const PaymentListSchema = z
  .object({ object: z.literal('list'), data: z.array(PaymentSchema), has_more: z.boolean() })
  .openapi('PaymentList');

export type PaymentJson = z.infer<typeof PaymentSchema>;
export type PaymentDetailJson = z.infer<typeof PaymentDetailSchema>;
export type PaymentListJson = z.infer<typeof PaymentListSchema>;
export type RefundJson = z.infer<typeof RefundSchema>;
export type RefundResultJson = z.infer<typeof RefundResultSchema>;
export type NextActionJson = z.infer<typeof NextActionSchema>;
export type CustomerJson = z.infer<typeof CustomerOutputSchema>;
