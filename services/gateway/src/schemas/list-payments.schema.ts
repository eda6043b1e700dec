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
    ...paginationShape,
  })
  .strict();

export type ListPaymentsQuery = z.output<typeof ListPaymentsQuerySchema>;
