import { z } from './zod-openapi';

export const EventSchema = z
  .object({
    id: z.string().openapi({ example: 'evt_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('event'),
    type: z.string().openapi({ example: 'payment.succeeded' }),
    created: z.number().int().openapi({ description: 'Segundos desde 1970 (Unix).', example: 1790000000 }),
    data: z.object({
      object: z
        .record(z.string(), z.unknown())
        .nullable()
        .openapi({ description: 'O recurso do evento, como a API o mostra (por exemplo um Payment).' }),
    }),
  })
  .openapi('Event');

export const EventListSchema = z
  .object({ object: z.literal('list'), data: z.array(EventSchema), has_more: z.boolean() })
  .openapi('EventList');

export type EventJson = z.infer<typeof EventSchema>;
export type EventListJson = z.infer<typeof EventListSchema>;
