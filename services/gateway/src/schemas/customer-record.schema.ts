import { parseTaxId } from '@orquestra/platform';
import { TAX_ID_INVALID } from './customer.schema';
import { z } from './zod-openapi';

/** GET /v1/customers query. */
export const ListCustomersQuerySchema = z
  .object({
    document: z
      .string()
      .trim()
      .max(20)
      .transform((value, ctx) => {
        const taxId = parseTaxId(value);
        if (taxId) return taxId.value;
        ctx.addIssue({ code: 'custom', message: TAX_ID_INVALID('document') });
        return z.NEVER;
      })
      .optional()
      .openapi({
        description: 'CPF ou CNPJ (inclusive o alfanumérico) com dígitos verificadores válidos, com ou sem pontuação.',
        example: '529.982.247-25',
      }),
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
    document: z.string().openapi({ description: 'CPF ou CNPJ sem pontuação (CNPJ alfanumérico em maiúsculas).', example: '52998224725' }),
    phone: z.string().nullable(),
    mode: z.enum(['test', 'live']),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi('CustomerRecord');

export const CustomerListSchema = z
  .object({ object: z.literal('list'), data: z.array(CustomerRecordSchema), has_more: z.boolean() })
  .openapi('CustomerList');
