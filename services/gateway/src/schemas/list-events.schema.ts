import { paginationShape } from './pagination.schema';
import { z } from './zod-openapi';

/** Query of GET /v1/events (the spec leaves it open; we take a type filter and pagination). */
export const ListEventsQuerySchema = z
  .object({
    type: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Só eventos deste tipo.', example: 'payment.succeeded' }),
    ...paginationShape,
  })
  .strict();

export type ListEventsQuery = z.output<typeof ListEventsQuerySchema>;
