import { PaymentMethodSchema } from './create-payment.schema';
import { paginationShape } from './pagination.schema';
import { PaymentStatusSchema } from './payment.response.schema';
import { z } from './zod-openapi';

/** Query of GET /v1/payments. Unknown parameters are refused so a typo never means "no filter". */
export const ListPaymentsQuerySchema = z
  .object({
    status: PaymentStatusSchema.optional(),
    method: PaymentMethodSchema.optional(),
    provider: z.string().min(1).max(50).optional().openapi({ example: 'efi' }),
    q: z.string().trim().min(1).max(200).optional().openapi({
      description: 'Busca por id do pagamento, ou e-mail, nome (parte dele) ou documento (CPF/CNPJ, com ou sem pontuação) do cliente.',
      example: 'maria@example.com',
    }),
    ...paginationShape,
  })
  .strict();

export type ListPaymentsQuery = z.output<typeof ListPaymentsQuerySchema>;
