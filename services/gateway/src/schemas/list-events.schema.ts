import { paginationShape } from './pagination.schema';
import { z } from './zod-openapi';

const unixSeconds = (description: string) =>
  z
    .string()
    .regex(/^\d{1,12}$/, 'Use segundos desde 1970 (Unix), por exemplo 1790000000.')
    .transform(Number)
    .optional()
    .openapi({ description, example: '1790000000' });

const ID = /^[A-Za-z0-9_-]{1,100}$/;

/** Query of GET /v1/events (docs/events.md "Reading the log"). */
export const ListEventsQuerySchema = z
  .object({
    type: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .openapi({ description: 'Um tipo (payment.succeeded), um prefixo (payment.*) ou * para todos.', example: 'payment.*' }),
    'created[gte]': unixSeconds('Só eventos criados a partir deste instante (Unix, segundos, inclusive).'),
    'created[lte]': unixSeconds('Só eventos criados até este instante (Unix, segundos, inclusive).'),
    payment_id: z
      .string()
      .regex(ID)
      .optional()
      .openapi({ description: 'Só eventos deste pagamento (dele, de seus reembolsos e disputas).', example: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    resource_id: z
      .string()
      .regex(ID)
      .optional()
      .openapi({ description: 'Só eventos cujo data.object tem este id.', example: 're_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    ...paginationShape,
  })
  .strict();

export type ListEventsQuery = z.output<typeof ListEventsQuerySchema>;
