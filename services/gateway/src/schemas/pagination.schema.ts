import { z } from './zod-openapi';

/** Shared list parameters (§4): `limit` 1..100 (default 10) and the `starting_after` cursor. */
export const paginationShape = {
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .openapi({ description: 'Itens por página (1 a 100).', example: 10 }),
  starting_after: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: 'Id do último item da página anterior.', example: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
};
