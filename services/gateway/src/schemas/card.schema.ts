import { CustomerSchema } from './customer.schema';
import { MetadataSchema } from './metadata.schema';
import { paginationShape } from './pagination.schema';
import { z } from './zod-openapi';

// Saved cards and the card fields' configuration (spec §2 Saved card, §4 Saved cards). Shapes only:
// whether a token is valid, used or of another merchant, and whether an origin may show the card
// fields, is the vault's answer.

const ID_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;

export const CardIdParamsSchema = z.object({
  id: z.string().regex(ID_SHAPE).openapi({ description: 'Id do cartão salvo.', example: 'card_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
});

export const CARD_BRANDS = ['visa', 'mastercard', 'elo', 'hipercard', 'american-express', 'diners-club', 'discover', 'jcb'] as const;

export const CardBrandSchema = z.enum(CARD_BRANDS).openapi('CardBrand', { description: 'Bandeira, pelo BIN do número.' });

/** `scheme://host[:port]`, nothing after it: what a browser sends as Origin. */
const ORIGIN_SHAPE = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;

export const OriginSchema = z
  .string()
  .trim()
  .max(200)
  .regex(ORIGIN_SHAPE, { message: 'Cada origem deve ser esquema e host, com porta quando houver, sem caminho nem barra final: https://loja.com.br ou http://localhost:3000.' })
  .transform((value) => value.toLowerCase())
  .openapi({ example: 'https://loja.com.br' });

export const UpdateCardsConfigSchema = z
  .object({
    allowed_origins: z
      .array(OriginSchema)
      .max(20)
      .openapi({ description: 'Sites que podem mostrar os campos de cartão (até 20). Lista vazia: qualquer site.' }),
  })
  .strict()
  .openapi('UpdateCardsConfig', { example: { allowed_origins: ['https://loja.com.br'] } });

export const SaveCardCustomerSchema = CustomerSchema.superRefine((customer, ctx) => {
  if (!customer.document) {
    ctx.addIssue({
      code: 'custom',
      path: ['document'],
      params: { code: 'parameter_missing' },
      message: 'Informe customer.document (CPF ou CNPJ): o cartão fica com o cliente deste documento, criado agora ou já existente.',
    });
  }
}).openapi('SaveCardCustomerInput', {
  description: 'O dono do cartão: nome e documento obrigatórios. Um cliente com o mesmo CPF/CNPJ neste modo é reaproveitado (e atualizado); senão é criado.',
});

export const SaveCardSchema = z
  .object({
    vault_token: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .regex(/^tok_[A-Za-z0-9_-]+$/, { message: 'O campo vault_token deve ser o tok_… devolvido por tokenize() dos campos de cartão.' })
      .openapi({ description: 'O tok_… de tokenize() dos campos de cartão (vale 24 horas e uma vez).', example: 'tok_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    holder_name: z.string().trim().min(1).max(100).openapi({ description: 'Nome impresso no cartão.', example: 'MARIA DA SILVA' }),
    customer: SaveCardCustomerSchema.optional(),
    customer_id: z
      .string()
      .trim()
      .regex(ID_SHAPE)
      .optional()
      .openapi({ description: 'Um cliente existente (cus_…), no lugar de customer.', example: 'cus_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    metadata: MetadataSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.customer && body.customer_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['customer_id'],
        message: 'Envie customer ou customer_id, não os dois: customer cria (ou reaproveita pelo CPF/CNPJ) o cliente; customer_id aponta um existente.',
      });
    } else if (!body.customer && !body.customer_id) {
      ctx.addIssue({
        code: 'custom',
        path: ['customer'],
        params: { code: 'parameter_missing' },
        message: 'Informe o dono do cartão: customer (com name e document) ou customer_id (cus_…).',
      });
    }
  })
  .openapi('SaveCard', {
    example: {
      vault_token: 'tok_01j9z0k3x7m2q8r4t6v8w0y2a4',
      holder_name: 'MARIA DA SILVA',
      customer: { name: 'Maria da Silva', document: '529.982.247-25', email: 'maria@exemplo.com.br' },
      metadata: { pedido: '1234' },
    },
  });

export type SaveCardInput = z.output<typeof SaveCardSchema>;

export const ListCardsQuerySchema = z
  .object({
    customer_id: z.string().trim().regex(ID_SHAPE).optional().openapi({ description: 'Só os cartões deste cliente (cus_…).' }),
    ...paginationShape,
  })
  .strict();

/**
 * Body of POST /v1/cards/tokenize, sent only by the card fields' iframe. `origin` is the page
 * showing the fields, as the iframe saw it in the postMessage event. Checked here for shape only,
 * with messages that never repeat what was typed; Luhn, brand, expiry and code length are the vault's.
 */
export const TokenizeCardSchema = z
  .object({
    publishable_key: z.string().trim().regex(/^pk_(test|live)_[A-Za-z0-9_-]{1,100}$/, { message: 'Chave publicável inválida: use a publishable_key de GET /v1/cards/config.' }),
    origin: z.string().trim().regex(ORIGIN_SHAPE, { message: 'Origem da página inválida.' }),
    number: z
      .string()
      .transform((value) => value.replace(/[\s-]/g, ''))
      .refine((value) => /^\d{12,19}$/.test(value), { message: 'Número do cartão incompleto ou inválido.' }),
    exp_month: z.coerce.number().int().min(1).max(12),
    exp_year: z.coerce
      .number()
      .int()
      .transform((year) => (year < 100 ? 2000 + year : year))
      .refine((year) => year >= 2000 && year <= 2100, { message: 'Ano de validade inválido.' }),
    cvc: z.string().trim().regex(/^\d{3,4}$/, { message: 'Código de segurança deve ter 3 ou 4 dígitos.' }),
  })
  .strict()
  .openapi('TokenizeCard', {
    // A test card number (Luhn-valid; the Asaas emulator approves it): never a real card in a sample.
    example: { publishable_key: 'pk_test_01j9z0k3x7m2q8r4t6v8w0y2a4', origin: 'https://loja.com.br', number: '4111111111111111', exp_month: 12, exp_year: 2030, cvc: '123' },
  });

/** Messages of TokenizeCardSchema's fields, fixed text: a zod message could echo the value typed. */
export const TOKENIZE_FIELD_MESSAGES: Record<string, string> = {
  publishable_key: 'Chave publicável inválida: use a publishable_key de GET /v1/cards/config.',
  origin: 'Origem da página inválida.',
  number: 'Número do cartão incompleto ou inválido.',
  exp_month: 'Mês de validade inválido (1 a 12).',
  exp_year: 'Ano de validade inválido.',
  cvc: 'Código de segurança deve ter 3 ou 4 dígitos.',
};

export const CARD_FIELD_HINTS = {
  vault_token: 'Informe o tok_… devolvido por tokenize() dos campos de cartão (vale 24 horas e uma vez).',
  holder_name: 'Informe o nome impresso no cartão (até 100 caracteres).',
  customer: 'Informe customer como objeto com name e document (CPF ou CNPJ), ou customer_id.',
  customer_id: 'Informe o id de um cliente existente (cus_…), de GET /v1/customers.',
  allowed_origins: 'Informe allowed_origins como lista de origens (https://loja.com.br); lista vazia libera qualquer site.',
} as const;

// Responses.

export const CardSchema = z
  .object({
    id: z.string().openapi({ example: 'card_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('card'),
    mode: z.enum(['test', 'live']),
    brand: CardBrandSchema,
    last4: z.string().openapi({ example: '4242' }),
    exp_month: z.number().int().openapi({ example: 12 }),
    exp_year: z.number().int().openapi({ example: 2030 }),
    holder_name: z.string().openapi({ example: 'MARIA DA SILVA' }),
    fingerprint: z.string().openapi({ description: 'O mesmo para o mesmo número neste lojista: mostra cartões repetidos.', example: 'fp_3f9a1c…' }),
    customer: z.string().openapi({ description: 'Id do cliente dono do cartão.', example: 'cus_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    cvc_available_until: z.string().nullable().openapi({
      description: 'Até quando o código de segurança ainda existe; null depois da primeira aprovação ou de 1 hora.',
      example: '2026-12-01T13:00:00.000Z',
    }),
    metadata: z.record(z.string(), z.string()),
    created_at: z.string().openapi({ description: 'ISO 8601.', example: '2026-12-01T12:00:00.000Z' }),
  })
  .openapi('Card', { description: 'Cartão salvo. Nunca traz o número nem o código de segurança.' });

export type CardJson = z.infer<typeof CardSchema>;

export const CardListSchema = z.object({ object: z.literal('list'), data: z.array(CardSchema), has_more: z.boolean() }).openapi('CardList');

export type CardListJson = z.infer<typeof CardListSchema>;

export const CardsConfigSchema = z
  .object({
    object: z.literal('cards_config'),
    mode: z.enum(['test', 'live']),
    script: z.string().openapi({ description: 'Endereço do script dos campos de cartão.', example: 'https://api.orquestra.dev/v1/cards/fields.js' }),
    publishable_key: z.string().openapi({ description: 'Identifica o lojista e o modo aos campos de cartão; não é segredo.', example: 'pk_test_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    allowed_origins: z.array(z.string()).openapi({ description: 'Sites que podem mostrar os campos; vazia: qualquer site.' }),
    enabled: z.boolean().openapi({ description: 'O cofre está ligado neste modo (desligado: salvar e cobrar cartões responde account_not_enabled).' }),
  })
  .openapi('CardsConfig');

export type CardsConfigJson = z.infer<typeof CardsConfigSchema>;

export const TokenizeResultSchema = z
  .object({
    object: z.literal('card_token'),
    token: z.string().openapi({ example: 'tok_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    expires_at: z.string(),
    brand: CardBrandSchema,
    last4: z.string(),
    exp_month: z.number().int(),
    exp_year: z.number().int(),
  })
  .openapi('CardToken');

export type TokenizeResultJson = z.infer<typeof TokenizeResultSchema>;

export const DeletedCardSchema = CardSchema.extend({ deleted: z.literal(true) }).openapi('DeletedCard', {
  description: 'O cartão apagado (também do cofre: número e código de segurança não existem mais).',
});
