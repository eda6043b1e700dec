import { z } from './zod-openapi';

/** GET /v1/customers query. */
export const ListCustomersQuerySchema = z
  .object({
    document: z
      .string()
      .trim()
      .regex(/^[\d.\-/ ]{11,18}$/, 'Informe um CPF ou CNPJ (com ou sem pontuação).')
      .optional()
      .openapi({ description: 'CPF ou CNPJ, com ou sem pontuação.', example: '529.982.247-25' }),
    email: z.string().trim().email().max(320).optional().openapi({ example: 'maria@example.com' }),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    starting_after: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/).optional(),
  })
  .strict();

export const CustomerRecordSchema = z
  .object({
    id: z.string().openapi({ example: 'cus_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('customer'),
    name: z.string(),
    email: z.string().nullable(),
    document: z.string().openapi({ description: 'Somente dígitos.', example: '52998224725' }),
    phone: z.string().nullable(),
    mode: z.enum(['test', 'live']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('CustomerRecord');

export const CustomerListSchema = z
  .object({ object: z.literal('list'), data: z.array(CustomerRecordSchema), has_more: z.boolean() })
  .openapi('CustomerList');
