import { z } from './zod-openapi';

// The public subaccount (spec §2 Subaccount) as `toPublicSubaccount` (@orquestra/contracts) builds
// it, plus the onboarding link and the balance of §4 "Subaccounts".

export const SUBACCOUNT_STATUSES = ['pending', 'active', 'refused', 'blocked', 'inactive'] as const;
export const SUBACCOUNT_TYPES = ['individual', 'company'] as const;

export const SubaccountStatusSchema = z.enum(SUBACCOUNT_STATUSES).openapi('SubaccountStatus', {
  description: 'pending enquanto o provedor analisa o cadastro; active recebe divisões e saca; refused, blocked e inactive não.',
});

export const SubaccountSchema = z
  .object({
    id: z.string().openapi({ example: 'sub_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('subaccount'),
    mode: z.enum(['test', 'live']),
    status: SubaccountStatusSchema,
    status_detail: z.string().nullable().openapi({ description: 'Explicação do status, em português, quando há uma.' }),
    provider: z.string().openapi({ example: 'pagarme' }),
    provider_account_id: z.string().openapi({ description: 'A conta conectada que guarda a subconta.', example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    provider_subaccount_id: z
      .string()
      .nullable()
      .openapi({ description: 'O id no provedor (recebedor, conta ou chave Pix, conforme o provedor); null até o provedor responder.', example: 're_cm1x2y3z' }),
    type: z.enum(SUBACCOUNT_TYPES),
    name: z.string().openapi({ example: 'Ana Souza' }),
    document: z.string().openapi({ description: 'CPF ou CNPJ sem pontuação (CNPJ alfanumérico em maiúsculas).', example: '52998224725' }),
    email: z.string().nullable().openapi({ example: 'ana@loja.com.br' }),
    details: z
      .record(z.string(), z.string())
      .openapi({ description: 'Dados mascarados: conta bancária, e-mail de acesso, id da carteira. Credenciais emitidas para a subconta nunca aparecem.' }),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string().openapi({ description: 'ISO 8601.', example: '2026-12-01T12:00:00.000Z' }),
    updated_at: z.string(),
  })
  .openapi('Subaccount');

export const SubaccountSplitTotalsSchema = z
  .object({
    payments: z.number().int().openapi({ description: 'Pagamentos com uma divisão para a subconta, em qualquer status.', example: 12 }),
    paid_payments: z.number().int().openapi({ description: 'Deles, os pagos (inclusive os depois reembolsados).', example: 9 }),
    paid_amount: z.number().int().openapi({ description: 'Centavos das partes da subconta nos pagamentos pagos.', example: 45000 }),
    pending_amount: z.number().int().openapi({ description: 'Centavos das partes em pagamentos ainda não pagos.', example: 5000 }),
  })
  .openapi('SubaccountSplitTotals');

export const SubaccountSplitPaymentSchema = z
  .object({
    payment_id: z.string().openapi({ example: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    status: z.string().openapi({ example: 'succeeded' }),
    method: z.string().nullable().openapi({ example: 'pix' }),
    payment_amount: z.number().int().openapi({ description: 'Valor bruto do pagamento, em centavos.', example: 10000 }),
    amount: z.number().int().openapi({ description: 'A parte da subconta, em centavos.', example: 2500 }),
    created_at: z.string(),
  })
  .openapi('SubaccountSplitPayment');

/** GET /subaccounts/{id}: the subaccount with its split totals and recent split payments (spec §2). */
export const SubaccountDetailSchema = SubaccountSchema.extend({
  totals: SubaccountSplitTotalsSchema,
  recent_split_payments: z.array(SubaccountSplitPaymentSchema).openapi({ description: 'Os 10 pagamentos mais recentes com divisão para a subconta, do mais novo ao mais antigo.' }),
}).openapi('SubaccountDetail');

export const SubaccountListSchema = z
  .object({ object: z.literal('list'), data: z.array(SubaccountSchema), has_more: z.boolean() })
  .openapi('SubaccountList');

export const SubaccountOnboardingLinkSchema = z
  .object({
    url: z.string().openapi({ description: 'Onde o titular da subconta completa a verificação de identidade no provedor.', example: 'https://onboarding.exemplo.com/abc' }),
    expires_at: z.string().openapi({ description: 'ISO 8601; depois disso, peça outro link.' }),
    qr_code_base64: z.string().nullable().openapi({ description: 'QR do mesmo link em PNG base64, quando o provedor o dá; senão null.' }),
  })
  .openapi('SubaccountOnboardingLink');

export const SubaccountBalanceSchema = z
  .object({
    object: z.literal('balance'),
    available: z.number().int().openapi({ description: 'Centavos disponíveis para saque agora.', example: 125000 }),
    pending: z.number().int().nullable().openapi({ description: 'Centavos ainda a liberar, quando o provedor informa; senão null.', example: 30000 }),
    currency: z.literal('BRL'),
    as_of: z.string().openapi({ description: 'Quando o provedor calculou o saldo (ISO 8601).' }),
  })
  .openapi('SubaccountBalance');

export type SubaccountJson = z.infer<typeof SubaccountSchema>;
export type SubaccountListJson = z.infer<typeof SubaccountListSchema>;
export type SubaccountDetailJson = z.infer<typeof SubaccountDetailSchema>;
export type SubaccountOnboardingLinkJson = z.infer<typeof SubaccountOnboardingLinkSchema>;
export type SubaccountBalanceJson = z.infer<typeof SubaccountBalanceSchema>;
