import { z } from '../schemas/zod-openapi';

// Bodies, queries and answers of /dashboard/api (docs/dashboard.md), validated with the same
// Portuguese messages and `param` as /v1.

const Email = z.string().max(254);
const Password = z.string().max(200);

export const SignUpBodySchema = z
  .object({ merchant_name: z.string().max(100), email: Email, password: Password })
  .strict()
  .openapi('DashboardSignUp');

export const SignInBodySchema = z
  .object({ email: Email, password: Password, totp_code: z.string().max(10).optional() })
  .strict()
  .openapi('DashboardSignIn');

export const TotpCodeBodySchema = z.object({ code: z.string().max(10) }).strict().openapi('DashboardTotpCode');

export const ModeSchema = z.enum(['test', 'live']);

export const CreateKeyBodySchema = z
  .object({ name: z.string().min(1).max(60), mode: ModeSchema, restricted: z.boolean() })
  .strict()
  .openapi('DashboardCreateApiKey');

export const KeyIdParamsSchema = z.object({ id: z.string().regex(/^key_[0-9a-z]{1,40}$/) });

export const AuditQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).optional(),
  starting_after: z.string().regex(/^aud_[0-9a-z]{1,40}$/).optional(),
});

export const PayoutSettingsBodySchema = z
  .object({ payouts_api_enabled: z.boolean().optional(), daily_limit: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional() })
  .strict()
  .openapi('DashboardPayoutSettingsUpdate');

export const PayoutDestinationBodySchema = z
  .object({ pix_key_type: z.enum(['cpf', 'cnpj', 'email', 'phone', 'evp']), pix_key: z.string().min(1).max(100), name: z.string().min(1).max(60) })
  .strict()
  .openapi('DashboardPayoutDestinationCreate');

export const OwnerSchema = z.object({ id: z.string(), email: z.string(), totp_enabled: z.boolean() });
export const MerchantSchema = z.object({ id: z.string(), name: z.string() });

export const SessionAnswerSchema = z.object({ owner: OwnerSchema, merchant: MerchantSchema }).openapi('DashboardSession');
export const MeAnswerSchema = z.object({ owner: OwnerSchema, merchant: MerchantSchema, csrf_token: z.string() }).openapi('DashboardMe');
export const TotpSetupAnswerSchema = z.object({ secret: z.string(), otpauth_url: z.string() }).openapi('DashboardTotpSetup');

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: ModeSchema,
    restricted: z.boolean(),
    last4: z.string(),
    created_by: z.string().nullable(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .openapi('DashboardApiKey');
export const ApiKeyListSchema = z.object({ data: z.array(ApiKeySchema) }).openapi('DashboardApiKeyList');
export const CreatedKeySchema = z.object({ key: ApiKeySchema, secret: z.string() }).openapi('DashboardCreatedApiKey');
export const RevokedKeySchema = z.object({ key: ApiKeySchema }).openapi('DashboardRevokedApiKey');

export const AuditEntrySchema = z
  .object({ id: z.string(), actor: z.string(), action: z.string(), target: z.string(), mode: ModeSchema.nullable(), created_at: z.string(), ip: z.string() })
  .openapi('DashboardAuditEntry');
export const AuditListSchema = z.object({ data: z.array(AuditEntrySchema), has_more: z.boolean() }).openapi('DashboardAuditList');

export const PayoutSettingsSchema = z
  .object({ payouts_api_enabled: z.boolean(), daily_limit: z.number().int(), updated_at: z.string().nullable() })
  .openapi('DashboardPayoutSettings');
export const PayoutDestinationSchema = z
  .object({ id: z.string(), mode: ModeSchema, pix_key_type: z.string(), pix_key: z.string(), name: z.string(), created_at: z.string() })
  .openapi('DashboardPayoutDestination');
export const PayoutDestinationListSchema = z.object({ data: z.array(PayoutDestinationSchema) }).openapi('DashboardPayoutDestinationList');

export const DASHBOARD_FIELD_HINTS = {
  merchant_name: 'Informe o nome da empresa (até 100 caracteres).',
  email: 'Informe o e-mail do dono da conta.',
  password: 'Informe a senha (de 10 a 200 caracteres).',
  totp_code: 'Informe o código de 6 dígitos do aplicativo autenticador.',
  code: 'Informe o código de 6 dígitos do aplicativo autenticador.',
  name: 'Informe um nome (até 60 caracteres).',
  mode: 'Use test ou live.',
  restricted: 'Use true (chave restrita: só cria e consulta os próprios pagamentos) ou false (chave completa).',
  payouts_api_enabled: 'Use true para ligar ou false para desligar os repasses pela API.',
  daily_limit: 'Informe o limite diário em centavos (inteiro maior ou igual a 1).',
  pix_key_type: 'Use cpf, cnpj, email, phone ou evp.',
  pix_key: 'Informe a chave Pix.',
} as const;
