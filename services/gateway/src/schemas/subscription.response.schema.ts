import { SubscriptionFrequencySchema } from './create-subscription.schema';
import { nullableRef, PaymentSchema } from './payment.response.schema';
import { z } from './zod-openapi';

/** A subscription's status (spec §2 Subscription); the transitions are the subscriptions service's. */
export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'canceled', 'refused', 'expired'] as const;

export const SubscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES).openapi('SubscriptionStatus', {
  description: 'pending até o pagador aprovar; active enquanto os ciclos são cobrados; canceled, refused e expired são finais.',
});

export const SubscriptionApprovalSchema = z
  .object({
    qr_code: z.string().openapi({ description: 'Pix copia e cola que o pagador usa para aprovar (e pagar o primeiro ciclo).' }),
    qr_code_base64: z.string().nullable().openapi({ description: 'Imagem do QR (PNG em base64), quando a conta fornece.' }),
    url: z.string().nullable().openapi({ description: 'Link de aprovação, quando a conta fornece.' }),
  })
  .openapi('SubscriptionApproval', { description: 'Presente só enquanto status é pending; null depois.' });

export const SubscriptionCustomerOutputSchema = z
  .object({
    id: z.string().openapi({ description: 'O registro do cliente (cus_…), encontrado pelo documento ou criado com a assinatura: o mesmo de GET /v1/customers e dos pagamentos dos ciclos.', example: 'cus_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    name: z.string(),
    document: z.string().openapi({ description: 'CPF ou CNPJ, só dígitos.' }),
  })
  .openapi('SubscriptionCustomer');

const date = (description: string) => z.string().openapi({ description, format: 'date', example: '2026-12-01' });

export const SubscriptionSchema = z
  .object({
    id: z.string().openapi({ example: 'sub_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('subscription'),
    mode: z.enum(['test', 'live']),
    status: SubscriptionStatusSchema,
    amount: z.number().int().nullable().openapi({ description: 'Centavos por ciclo; null para valor variável.', example: 2990 }),
    first_amount: z.number().int().openapi({ description: 'Centavos do primeiro ciclo.', example: 2990 }),
    currency: z.literal('BRL'),
    frequency: SubscriptionFrequencySchema,
    start_date: date('Data do primeiro ciclo (AAAA-MM-DD).'),
    end_date: date('Último dia em que um ciclo pode cair; null sem fim.').nullable(),
    next_charge_date: date('Vencimento do próximo ciclo ainda não cobrado; null quando não resta ciclo.').nullable(),
    description: z.string(),
    retry: z.boolean(),
    provider: z.string().openapi({ example: 'efi' }),
    provider_account_id: z.string(),
    approval: nullableRef(SubscriptionApprovalSchema),
    customer: SubscriptionCustomerOutputSchema,
    metadata: z.record(z.string(), z.string()),
    tracking: z.record(z.string(), z.string()),
    created_at: z.string().openapi({ description: 'ISO 8601.', example: '2026-10-01T12:00:00.000Z' }),
    updated_at: z.string(),
  })
  .openapi('Subscription');

/** One subscription as GET /v1/subscriptions/{id} answers it: with its cycles, newest first. */
export const SubscriptionDetailSchema = SubscriptionSchema.extend({
  payments: z.array(PaymentSchema).openapi({ description: 'Os ciclos cobrados (cada um um pagamento), mais novos primeiro.' }),
}).openapi('SubscriptionDetail');

export const SubscriptionListSchema = z
  .object({ object: z.literal('list'), data: z.array(SubscriptionSchema), has_more: z.boolean() })
  .openapi('SubscriptionList');

export type SubscriptionJson = z.infer<typeof SubscriptionSchema>;
export type SubscriptionDetailJson = z.infer<typeof SubscriptionDetailSchema>;
export type SubscriptionListJson = z.infer<typeof SubscriptionListSchema>;
