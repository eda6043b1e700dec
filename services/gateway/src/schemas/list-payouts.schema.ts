import { paginationShape } from './pagination.schema';
import { PayoutStatusSchema } from './payout.response.schema';
import { z } from './zod-openapi';

/** Query of GET /v1/payouts. Unknown parameters are refused so a typo never means "no filter". */
export const ListPayoutsQuerySchema = z
  .object({
    status: PayoutStatusSchema.optional(),
    provider_account_id: z.string().min(1).max(100).optional().openapi({ description: 'Só os repasses desta conta (pa_…).' }),
    ...paginationShape,
  })
  .strict();

export type ListPayoutsQuery = z.output<typeof ListPayoutsQuerySchema>;
