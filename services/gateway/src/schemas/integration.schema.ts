import { INTEGRATION_KINDS } from '@orquestra/contracts';
import type { FieldHints } from '../validation/field-hints.pt-br';
import { paginationShape } from './pagination.schema';
import { z } from './zod-openapi';

// Shapes and types only: which options and credentials a kind needs (and their formats) are the
// tracking service's check (GET /v1/integration-kinds lists them), answered with the same body.

export { INTEGRATION_KINDS } from '@orquestra/contracts';
/** Which sales an integration receives. */
export const INTEGRATION_SALES = ['live', 'test', 'both'] as const;

/** Limits of an integration's free-form maps (spec §8: text values up to 500 characters, as metadata). */
export const INTEGRATION_LIMITS = { maxFields: 20, maxNameLength: 64, maxValueLength: 500, maxCredentialLength: 2048, maxDisplayNameLength: 100 } as const;

/** `itg_` + opaque text: anything else cannot exist, so it is a 404 without a downstream call. */
export const IntegrationIdPathSchema = z
  .string()
  .regex(/^itg_[A-Za-z0-9_-]{1,96}$/)
  .openapi({ description: 'Id da integração.', example: 'itg_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const IntegrationIdParamsSchema = z.object({ id: IntegrationIdPathSchema });

const FIELD_NAME = /^[a-z0-9_]+$/;

/**
 * A map of text fields named as GET /v1/integration-kinds lists them. `what` names the map in the
 * messages; `minValue` 1 refuses empty credentials (an empty option removes it on update).
 */
function fieldMap(what: 'options' | 'credentials', minValue: 0 | 1) {
  // Access tokens (Meta's especially) run past the 500 characters an option may have.
  const maxValue = what === 'credentials' ? INTEGRATION_LIMITS.maxCredentialLength : INTEGRATION_LIMITS.maxValueLength;
  return z
    .record(z.string(), z.string().min(minValue).max(maxValue))
    .superRefine((map, ctx) => {
      const names = Object.keys(map);
      if (names.length > INTEGRATION_LIMITS.maxFields) {
        ctx.addIssue({
          code: 'custom',
          message: `O campo ${what} aceita no máximo ${INTEGRATION_LIMITS.maxFields} campos. Envie só os campos listados em GET /v1/integration-kinds.`,
        });
        return;
      }
      for (const name of names) {
        if (!FIELD_NAME.test(name) || name.length > INTEGRATION_LIMITS.maxNameLength) {
          ctx.addIssue({
            code: 'custom',
            path: [name],
            message: `O campo ${what}.${name.slice(0, 64)} não existe. Use os nomes listados em GET /v1/integration-kinds (${what}).`,
          });
          return;
        }
      }
    });
}

const KindSchema = z.enum(INTEGRATION_KINDS).openapi('IntegrationKindId', {
  description: 'utmify (ferramenta de atribuição: o pedido com UTMs, valor, taxa e líquido), meta (API de Conversões) ou tiktok (Events API).',
  example: 'utmify',
});

const NameSchema = z
  .string()
  .trim()
  .min(1)
  .max(INTEGRATION_LIMITS.maxDisplayNameLength)
  .openapi({ description: 'Nome para reconhecer a integração.', example: 'Utmify da loja' });

const SalesSchema = z.enum(INTEGRATION_SALES).openapi({
  description: 'Quais vendas a integração recebe: live (reais), test (de teste) ou both. Omitido na criação: o modo da chave usada. Uma chave de teste só vê e configura integrações com sales test (live ou both exigem uma chave live).',
  example: 'live',
});

const EnabledSchema = z.boolean().openapi({ description: 'Integração desativada não recebe vendas.', example: true });

const OptionsSchema = fieldMap('options', 0).openapi({
  description: 'Opções do tipo (options de GET /v1/integration-kinds), em texto. Na alteração são mescladas às atuais; um valor vazio remove a opção.',
  example: { pixel_id: '1234567890', test_event_code: 'TEST12345' },
});

const CredentialsSchema = fieldMap('credentials', 1).openapi({
  description:
    'Credenciais do tipo (credentials de GET /v1/integration-kinds), em texto. Guardadas cifradas; nunca são devolvidas, só os 4 últimos caracteres ' +
    '(credentials_last4). Na alteração, cada credencial enviada substitui a anterior.',
  example: { access_token: 'EAAGm0PX4ZCpsBA…' },
});

export const CreateIntegrationSchema = z
  .object({
    kind: KindSchema,
    name: NameSchema.optional(),
    sales: SalesSchema.optional(),
    options: OptionsSchema.optional(),
    credentials: CredentialsSchema,
    enabled: EnabledSchema.optional().openapi({ description: 'Omitido: true.' }),
  })
  .strict()
  .openapi('CreateIntegration', {
    example: {
      kind: 'meta',
      name: 'Pixel da loja',
      sales: 'both',
      options: { pixel_id: '1234567890', test_event_code: 'TEST12345' },
      credentials: { access_token: 'EAAGm0PX4ZCpsBA…' },
    },
  });

export type CreateIntegrationInput = z.output<typeof CreateIntegrationSchema>;

const UPDATABLE = ['name', 'enabled', 'sales', 'options', 'credentials'] as const;

export const UpdateIntegrationSchema = z
  .object({
    name: NameSchema.optional(),
    enabled: EnabledSchema.optional(),
    sales: SalesSchema.optional(),
    options: OptionsSchema.optional(),
    credentials: CredentialsSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (UPDATABLE.every((field) => body[field] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        params: { code: 'parameter_missing' },
        message: 'Informe ao menos um campo para alterar: name, enabled, sales, options ou credentials.',
      });
    }
  })
  .openapi('UpdateIntegration', { example: { enabled: false } });

export type UpdateIntegrationInput = z.output<typeof UpdateIntegrationSchema>;

export const ListIntegrationDeliveriesQuerySchema = z
  .object({
    payment_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,100}$/)
      .optional()
      .openapi({ description: 'Só os envios deste pagamento.', example: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    ...paginationShape,
    starting_after: paginationShape.starting_after.openapi({ example: 'dlv_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
  })
  .strict();

/** What to do about each field of the integration bodies and queries (they win over the payment hints). */
export const INTEGRATION_FIELD_HINTS: FieldHints = {
  kind: 'Use utmify, meta ou tiktok (os tipos de GET /v1/integration-kinds).',
  name: `Informe um nome de 1 a ${INTEGRATION_LIMITS.maxDisplayNameLength} caracteres para reconhecer a integração.`,
  sales: 'Use live (vendas reais), test (vendas de teste) ou both (as duas).',
  enabled: 'Use true ou false.',
  options: 'Informe as opções como objeto de textos, com os nomes de options em GET /v1/integration-kinds.',
  'options.*': `Informe cada opção como texto de até ${INTEGRATION_LIMITS.maxValueLength} caracteres (vazio remove a opção na alteração).`,
  credentials: 'Informe as credenciais como objeto de textos, com os nomes de credentials em GET /v1/integration-kinds.',
  'credentials.*': `Informe cada credencial como texto de 1 a ${INTEGRATION_LIMITS.maxCredentialLength} caracteres, exatamente como aparece no painel da ferramenta.`,
  payment_id: 'Informe o id de um pagamento (pay_…).',
  starting_after: 'Informe o id do último envio da página anterior (dlv_…).',
};
