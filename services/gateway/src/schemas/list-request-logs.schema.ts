import { paginationShape } from './pagination.schema';
import { z } from './zod-openapi';

/** Query of GET /v1/request-logs (docs/cli.md "Request logs"). */
export const ListRequestLogsQuerySchema = z
  .object({
    status: z
      .string()
      .regex(/^[1-5](xx|\d\d)$/, 'Use uma classe de status (2xx, 4xx, 5xx) ou um status (404).')
      .optional()
      .openapi({ description: 'Só chamadas desta classe de status (2xx, 4xx, 5xx) ou deste status (404).', example: '4xx' }),
    ...paginationShape,
  })
  .strict();

/** Hints of this query's fields (status here is an HTTP status, not a payment's). */
export const REQUEST_LOG_FIELD_HINTS = {
  status: 'Use uma classe de status (2xx, 4xx, 5xx) ou um status (404).',
} as const;

export type ListRequestLogsQuery = z.output<typeof ListRequestLogsQuerySchema>;
