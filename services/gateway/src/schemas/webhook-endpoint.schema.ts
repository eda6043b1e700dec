import { paginationShape } from './pagination.schema';
import { z } from './zod-openapi';

/** Limits of a webhook endpoint. */
export const WEBHOOK_LIMITS = { maxUrlLength: 2048, maxEvents: 50, maxDescriptionLength: 500 } as const;

const UrlSchema = z
  .string()
  .min(1)
  .max(WEBHOOK_LIMITS.maxUrlLength)
  .openapi({
    description: 'Para onde enviar. https; no modo de teste também http para localhost, 127.0.0.1 ou [::1].',
    example: 'https://loja.com.br/webhooks/orquestra',
  });

const EventsSchema = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(WEBHOOK_LIMITS.maxEvents)
  .openapi({
    description: 'Tipos assinados: um tipo do catálogo (payment.succeeded), um prefixo (payment.*) ou * para todos.',
    example: ['payment.succeeded', 'refund.*'],
  });

const OnlySourceSchema = z
  .string()
  .max(80)
  .openapi({ description: 'key:<id da chave>: só eventos de pagamentos criados por essa chave.', example: 'key:key_01j9z0k3x7m2q8r4t6v8w0y2a4' });

const DescriptionSchema = z.string().max(WEBHOOK_LIMITS.maxDescriptionLength).openapi({ example: 'Bot de vendas' });

export const CreateWebhookEndpointSchema = z
  .object({ url: UrlSchema, events: EventsSchema, only_source: OnlySourceSchema.optional(), description: DescriptionSchema.optional() })
  .strict()
  .openapi('CreateWebhookEndpoint');

export const UpdateWebhookEndpointSchema = z
  .object({
    url: UrlSchema.optional(),
    events: EventsSchema.optional(),
    only_source: OnlySourceSchema.nullable().optional().openapi({ description: 'null remove a restrição.' }),
    description: DescriptionSchema.optional(),
    enabled: z.boolean().optional().openapi({ description: 'false desativa (nada é enviado); true reativa.' }),
  })
  .strict()
  .openapi('UpdateWebhookEndpoint');

export const ListWebhookDeliveriesQuerySchema = z
  .object({
    status: z.enum(['pending', 'delivered', 'failed', 'canceled']).optional(),
    event_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/).optional(),
    ...paginationShape,
  })
  .strict();

export const ListWebhookEndpointsQuerySchema = z.object({ ...paginationShape }).strict();

export type CreateWebhookEndpointInput = z.output<typeof CreateWebhookEndpointSchema>;
export type UpdateWebhookEndpointInput = z.output<typeof UpdateWebhookEndpointSchema>;
