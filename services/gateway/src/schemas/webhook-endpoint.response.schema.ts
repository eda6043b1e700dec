import { z } from './zod-openapi';

export const WebhookEndpointSchema = z
  .object({
    id: z.string().openapi({ example: 'we_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('webhook_endpoint'),
    url: z.string(),
    events: z.array(z.string()),
    only_source: z.string().nullable(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(['by_request', 'gone', 'failing'])
      .nullable()
      .openapi({ description: 'by_request (PATCH enabled false), gone (o receptor respondeu 410), failing (5 dias só com falhas).' }),
    mode: z.enum(['test', 'live']),
    failing_since: z.string().nullable().openapi({ description: 'Desde quando toda entrega falha; null se a última deu certo.' }),
    previous_secret_expires_at: z.string().nullable().openapi({ description: 'Após uma rotação, até quando o segredo anterior ainda assina.' }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('WebhookEndpoint');

export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({
  secret: z.string().openapi({ description: 'Segredo de assinatura. Mostrado só nesta resposta: guarde-o agora.', example: 'whsec_3q2+7w…' }),
}).openapi('WebhookEndpointWithSecret');

export const WebhookEndpointListSchema = z
  .object({ object: z.literal('list'), data: z.array(WebhookEndpointSchema), has_more: z.boolean() })
  .openapi('WebhookEndpointList');

export const DeletedWebhookEndpointSchema = z
  .object({ id: z.string(), object: z.literal('webhook_endpoint'), deleted: z.literal(true) })
  .openapi('DeletedWebhookEndpoint');

export const WebhookAttemptSchema = z
  .object({
    number: z.number().int(),
    at: z.string(),
    status_code: z.number().int().nullable().openapi({ description: 'Status HTTP da resposta; null sem resposta (tempo esgotado, conexão recusada).' }),
    latency_ms: z.number().int(),
    error: z.string().nullable(),
    manual: z.boolean().openapi({ description: 'Reenvio pedido por POST /v1/webhook-deliveries/{id}/resend.' }),
  })
  .openapi('WebhookAttempt');

export const WebhookDeliverySchema = z
  .object({
    id: z.string().openapi({ example: 'whd_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('webhook_delivery'),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: z.enum(['pending', 'delivered', 'failed', 'canceled']),
    attempts: z.array(WebhookAttemptSchema),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('WebhookDelivery');

export const WebhookDeliveryListSchema = z
  .object({ object: z.literal('list'), data: z.array(WebhookDeliverySchema), has_more: z.boolean() })
  .openapi('WebhookDeliveryList');

export type WebhookEndpointJson = z.infer<typeof WebhookEndpointSchema>;
export type WebhookDeliveryJson = z.infer<typeof WebhookDeliverySchema>;
