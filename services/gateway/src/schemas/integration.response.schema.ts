import { INTEGRATION_KINDS, INTEGRATION_SALES } from './integration.schema';
import { z } from './zod-openapi';

/** What a delivery sends: an order status (attribution tool) or the purchase (Meta, TikTok). */
export const DELIVERY_EVENTS = ['waiting_payment', 'paid', 'refused', 'refunded', 'chargedback', 'purchase'] as const;
export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed', 'not_sent', 'superseded'] as const;

export const IntegrationFieldSchema = z
  .object({
    name: z.string().openapi({ description: 'Nome do campo em credentials ou options.', example: 'access_token' }),
    label: z.string().openapi({ description: 'Rótulo para telas.', example: 'Token de acesso' }),
    required: z.boolean(),
    description: z.string().nullable().openapi({ description: 'Onde encontrar o valor e para que serve.' }),
  })
  .openapi('IntegrationField');

const KIND_EXAMPLE = {
  id: 'meta' as const,
  object: 'integration_kind' as const,
  name: 'Meta (API de Conversões)',
  description: 'Envia uma compra (Purchase) quando a venda é aprovada, com o id do pagamento como event_id e e-mail e telefone em SHA-256.',
  credentials: [{ name: 'access_token', label: 'Token de acesso', required: true, description: 'Gerado no Gerenciador de Eventos, em Configurações do pixel.' }],
  options: [
    { name: 'pixel_id', label: 'Id do pixel', required: true, description: null },
    { name: 'test_event_code', label: 'Código de teste', required: false, description: 'Sem ele, vendas de teste não são enviadas.' },
  ],
  sends: ['purchase' as const],
};

export const IntegrationKindSchema = z
  .object({
    id: z.enum(INTEGRATION_KINDS).openapi({ description: 'O valor de kind ao criar uma integração.' }),
    object: z.literal('integration_kind'),
    name: z.string(),
    description: z.string(),
    credentials: z.array(IntegrationFieldSchema).openapi({ description: 'Credenciais (guardadas cifradas; só os 4 últimos caracteres são mostrados).' }),
    options: z.array(IntegrationFieldSchema).openapi({ description: 'Opções em texto (mostradas como foram enviadas).' }),
    sends: z.array(z.enum(DELIVERY_EVENTS)).openapi({ description: 'Os eventos enviados à ferramenta: os valores de event dos seus envios (GET /v1/integrations/{id}/deliveries).' }),
  })
  .openapi('IntegrationKind', { example: KIND_EXAMPLE });

export const IntegrationKindListSchema = z
  .object({ object: z.literal('list'), data: z.array(IntegrationKindSchema), has_more: z.literal(false) })
  .openapi('IntegrationKindList', { example: { object: 'list', data: [KIND_EXAMPLE], has_more: false } });

const INTEGRATION_EXAMPLE = {
  id: 'itg_01j9z0k3x7m2q8r4t6v8w0y2a4',
  object: 'integration',
  kind: 'meta',
  name: 'Pixel da loja',
  enabled: true,
  sales: 'both',
  options: { pixel_id: '1234567890', test_event_code: 'TEST12345' },
  credentials_last4: { access_token: 'sBA9' },
  created_at: '2026-11-01T12:00:00.000Z',
  updated_at: '2026-11-01T12:00:00.000Z',
} as const;

export const IntegrationSchema = z
  .object({
    id: z.string().openapi({ example: 'itg_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('integration'),
    kind: z.enum(INTEGRATION_KINDS),
    name: z.string().nullable(),
    enabled: z.boolean(),
    sales: z.enum(INTEGRATION_SALES).openapi({ description: 'Quais vendas recebe: live (reais), test (de teste) ou both.' }),
    options: z.record(z.string(), z.string()).openapi({ description: 'As opções, como foram enviadas.' }),
    credentials_last4: z.record(z.string(), z.string()).openapi({
      description: 'Os 4 últimos caracteres de cada credencial, pelo nome da credencial (vazio se a credencial tem menos de 8 caracteres). As credenciais nunca são devolvidas.',
      example: { access_token: 'sBA9' },
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('Integration', { example: INTEGRATION_EXAMPLE });

export const IntegrationListSchema = z
  .object({ object: z.literal('list'), data: z.array(IntegrationSchema), has_more: z.literal(false) })
  .openapi('IntegrationList', { example: { object: 'list', data: [INTEGRATION_EXAMPLE], has_more: false } });

export const DeletedIntegrationSchema = IntegrationSchema.extend({ deleted: z.literal(true) }).openapi('DeletedIntegration', {
  description: 'A integração apagada, como estava; envios pendentes foram descartados.',
  example: { ...INTEGRATION_EXAMPLE, deleted: true },
});

const DELIVERY_EXAMPLE = {
  id: 'dlv_01j9z0k3x7m2q8r4t6v8w0y2a4',
  object: 'integration_delivery',
  integration_id: 'itg_01j9z0k3x7m2q8r4t6v8w0y2a4',
  payment_id: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4',
  event: 'purchase',
  test: false,
  status: 'delivered',
  reason: null,
  reason_text: null,
  attempts: 1,
  next_attempt_at: null,
  request: { event_name: 'Purchase', event_id: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4', value: 19.9, currency: 'BRL' },
  response: { status: 200, body: '{"events_received":1}' },
  created_at: '2026-11-01T12:00:00.000Z',
  updated_at: '2026-11-01T12:00:01.000Z',
  delivered_at: '2026-11-01T12:00:01.000Z',
} as const;

export const IntegrationDeliveryResponseSchema = z
  .object({
    status: z.number().int().nullable().openapi({ description: 'Status HTTP da resposta; null sem resposta (tempo esgotado, conexão recusada).' }),
    body: z.string().nullable().openapi({ description: 'Corpo da resposta (ou o erro de conexão), truncado.' }),
  })
  .openapi('IntegrationDeliveryResponse');

export const IntegrationDeliverySchema = z
  .object({
    id: z.string().openapi({ example: 'dlv_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('integration_delivery'),
    integration_id: z.string(),
    payment_id: z.string(),
    event: z.enum(DELIVERY_EVENTS).openapi({
      description: 'O que é enviado: um status do pedido (waiting_payment, paid, refused, refunded, chargedback) à ferramenta de atribuição; purchase à Meta e ao TikTok.',
    }),
    test: z.boolean().openapi({ description: 'true: venda de teste, ou envio por POST /v1/integrations/{id}/test.' }),
    status: z.enum(DELIVERY_STATUSES).openapi({
      description:
        'pending (será enviado ou tentado de novo), delivered, failed (recusado com 4xx, ou as tentativas acabaram), ' +
        'not_sent (não cabe nas regras da ferramenta: veja reason), superseded (um status posterior do mesmo pedido foi enviado no lugar).',
    }),
    reason: z.string().nullable().openapi({
      description: 'Em not_sent e failed: missing_email, too_old, missing_test_code, not_for_tool, tool_refused ou retries_exhausted.',
      example: 'missing_test_code',
    }),
    reason_text: z.string().nullable().openapi({ description: 'A explicação de reason, em português.' }),
    attempts: z.number().int().openapi({ description: 'Quantas vezes foi enviado.' }),
    next_attempt_at: z.string().nullable().openapi({ description: 'Próxima tentativa (após 1, 5 e 30 minutos, depois 2, 6, 12 e 24 horas); null se não haverá.' }),
    request: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: 'Resumo do que foi enviado: sem credenciais, sem e-mail ou telefone em claro. null se nada foi enviado.' }),
    response: IntegrationDeliveryResponseSchema.nullable().openapi({ description: 'A última resposta da ferramenta; null se ainda não foi enviado.' }),
    created_at: z.string(),
    updated_at: z.string(),
    delivered_at: z.string().nullable(),
  })
  .openapi('IntegrationDelivery', { example: DELIVERY_EXAMPLE });

export const IntegrationDeliveryListSchema = z
  .object({ object: z.literal('list'), data: z.array(IntegrationDeliverySchema), has_more: z.boolean() })
  .openapi('IntegrationDeliveryList', { example: { object: 'list', data: [DELIVERY_EXAMPLE], has_more: false } });

export type IntegrationKindJson = z.infer<typeof IntegrationKindSchema>;
export type IntegrationJson = z.infer<typeof IntegrationSchema>;
export type IntegrationDeliveryJson = z.infer<typeof IntegrationDeliverySchema>;
