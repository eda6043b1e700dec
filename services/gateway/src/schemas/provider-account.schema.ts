import type { FieldHints } from '../validation/field-hints.pt-br';
import { MAX_AMOUNT, PaymentMethodSchema } from './create-payment.schema';
import { z } from './zod-openapi';

/** Limits of a connect body. A PEM bundle (certificate + private key) is a few KB; 20,000 is ample. */
export const CREDENTIALS_LIMITS = { maxFields: 20, maxNameLength: 64, maxValueLength: 20_000 } as const;
export const PRIORITY_LIMITS = { min: 1, max: 1000, default: 10 } as const;

/**
 * True when `percentage` has at most two decimals, judged on the basis points it becomes, so that
 * float noise (0.29 × 100 = 28.999999999999996) is not mistaken for a third decimal while 1.005
 * (100.49999999999999 bps) is refused.
 */
export function hasAtMostTwoDecimals(percentage: number): boolean {
  const bps = percentage * 100;
  return Math.abs(bps - Math.round(bps)) < 1e-9;
}

/** The proto's basis points (1/100 of a percent) for a percentage with at most two decimals: 0.99 → 99. */
export function percentageToBps(percentage: number): number {
  return Math.round(percentage * 100);
}

/** The public percentage for basis points: 99 → 0.99. */
export function bpsToPercentage(bps: number): number {
  return Math.round(bps) / 100;
}

export const FeeInputSchema = z
  .object({
    method: PaymentMethodSchema,
    percentage: z
      .number()
      .min(0)
      .max(100)
      .refine(hasAtMostTwoDecimals, {
        message: 'A porcentagem da taxa aceita no máximo duas casas decimais, por exemplo 0.99 para 0,99%.',
      })
      .openapi({ description: 'Porcentagem cobrada pelo provedor, até duas casas (0.99 = 0,99%).', multipleOf: 0.01, example: 0.99 }),
    fixed: z
      .number()
      .int()
      .min(0)
      .max(MAX_AMOUNT)
      .default(0)
      .openapi({ description: 'Parte fixa em centavos por pagamento.', example: 0 }),
  })
  .strict()
  .openapi('FeeInput', { description: 'Taxa da conta para um método: percentage% do valor + fixed centavos.' });

/** One fee per method: two for the same method would make the fee of a payment ambiguous. */
const FeesSchema = z
  .array(FeeInputSchema)
  .max(3)
  .superRefine((fees, ctx) => {
    const seen = new Set<string>();
    fees.forEach((fee, index) => {
      if (seen.has(fee.method)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'method'],
          message: `O método ${fee.method} aparece mais de uma vez em fees. Informe uma taxa por método.`,
        });
      }
      seen.add(fee.method);
    });
  })
  .openapi({ description: 'Taxas por método (uma por método), usadas para calcular fee e net quando o provedor não informa a taxa.' });

const NameSchema = z.string().trim().min(1).max(100).openapi({ description: 'Nome para reconhecer a conta.', example: 'Efí principal' });
const PrioritySchema = z
  .number()
  .int()
  .min(PRIORITY_LIMITS.min)
  .max(PRIORITY_LIMITS.max)
  .openapi({ description: 'Ordem de tentativa: número menor é tentado primeiro.', example: 10 });
const EnabledSchema = z.boolean().openapi({ description: 'Conta desativada não recebe pagamentos.', example: true });

export const CredentialsSchema = z
  .record(z.string(), z.string().max(CREDENTIALS_LIMITS.maxValueLength))
  .superRefine((credentials, ctx) => {
    const names = Object.keys(credentials);
    if (names.length === 0) {
      ctx.addIssue({
        code: 'custom',
        params: { code: 'parameter_missing' },
        message: 'O campo credentials está vazio. Informe as credenciais da conta com os campos listados em GET /v1/providers (credential_fields).',
      });
      return;
    }
    if (names.length > CREDENTIALS_LIMITS.maxFields) {
      ctx.addIssue({
        code: 'custom',
        message: `O campo credentials aceita no máximo ${CREDENTIALS_LIMITS.maxFields} campos. Envie só os campos listados em GET /v1/providers.`,
      });
      return;
    }
    for (const name of names) {
      if (!/^[a-z0-9_]+$/.test(name) || name.length > CREDENTIALS_LIMITS.maxNameLength) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: `O campo credentials.${name.slice(0, 64)} não existe. Use os nomes listados em GET /v1/providers (credential_fields).`,
        });
        return;
      }
    }
  })
  .openapi({
    description:
      'Credenciais da conta no provedor, com os nomes de credential_fields de GET /v1/providers. Guardadas cifradas; nunca são devolvidas (só os 4 últimos caracteres).',
    example: { client_id: 'Client_Id_abc123', client_secret: 'Client_Secret_xyz789', certificate: '-----BEGIN CERTIFICATE-----…', pix_key: 'pix@exemplo.com.br' },
  });

export const ConnectProviderAccountSchema = z
  .object({
    provider: z.string().min(1).max(50).openapi({ description: 'Código do provedor (code de GET /v1/providers).', example: 'efi' }),
    credentials: CredentialsSchema,
    name: NameSchema.optional(),
    priority: PrioritySchema.default(PRIORITY_LIMITS.default),
    enabled: EnabledSchema.default(true),
    fees: FeesSchema.optional(),
  })
  .strict()
  .openapi('ConnectProviderAccount', {
    example: {
      provider: 'efi',
      credentials: { client_id: 'Client_Id_abc123', client_secret: 'Client_Secret_xyz789', certificate: '-----BEGIN CERTIFICATE-----…', pix_key: 'pix@exemplo.com.br' },
      name: 'Efí principal',
      priority: 10,
      fees: [{ method: 'pix', percentage: 0.99, fixed: 0 }],
    },
  });

export type ConnectProviderAccountInput = z.output<typeof ConnectProviderAccountSchema>;

const UPDATABLE = ['name', 'priority', 'enabled', 'fees'] as const;

export const UpdateProviderAccountSchema = z
  .object({
    name: NameSchema.optional(),
    priority: PrioritySchema.optional(),
    enabled: EnabledSchema.optional(),
    fees: FeesSchema.optional().openapi({ description: 'Substitui todas as taxas da conta; uma lista vazia remove as taxas.' }),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (UPDATABLE.every((field) => body[field] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        params: { code: 'parameter_missing' },
        message:
          'Informe ao menos um campo para alterar: name, priority, enabled ou fees. Credenciais não se alteram aqui: conecte a conta de novo com POST /v1/provider-accounts.',
      });
    }
  })
  .openapi('UpdateProviderAccount', { example: { priority: 5, fees: [{ method: 'pix', percentage: 0.99, fixed: 10 }] } });

export type UpdateProviderAccountInput = z.output<typeof UpdateProviderAccountSchema>;

/** What to do about each field of the provider-account bodies. */
export const PROVIDER_ACCOUNT_HINTS: FieldHints = {
  provider: 'Informe o código do provedor (code de GET /v1/providers), por exemplo efi.',
  credentials: 'Informe as credenciais como objeto de textos, com os campos de credential_fields em GET /v1/providers.',
  'credentials.*': 'Informe cada credencial como texto, exatamente como aparece no painel do provedor.',
  name: 'Informe um nome de 1 a 100 caracteres para reconhecer a conta.',
  priority: `Informe um número inteiro de ${PRIORITY_LIMITS.min} a ${PRIORITY_LIMITS.max}; número menor é tentado primeiro.`,
  enabled: 'Use true ou false.',
  fees: 'Informe uma lista com no máximo uma taxa por método: [{"method": "pix", "percentage": 0.99, "fixed": 0}].',
  'fees[]': 'Cada taxa é um objeto com method, percentage e fixed.',
  'fees[].method': 'Use pix, card ou boleto.',
  'fees[].percentage': 'Informe a porcentagem de 0 a 100 com até duas casas decimais, por exemplo 0.99 para 0,99%.',
  'fees[].fixed': 'Informe a parte fixa em centavos como número inteiro maior ou igual a 0, por exemplo 10 para R$ 0,10.',
};
