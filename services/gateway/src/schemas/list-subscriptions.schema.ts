import { paginationShape } from './pagination.schema';
import { SubscriptionStatusSchema } from './subscription.response.schema';
import { z } from './zod-openapi';

/** Query of GET /v1/subscriptions. Unknown parameters are refused so a typo never means "no filter". */
export const ListSubscriptionsQuerySchema = z
  .object({
    status: SubscriptionStatusSchema.optional(),
    ...paginationShape,
  })
  .strict();

export type ListSubscriptionsQuery = z.output<typeof ListSubscriptionsQuerySchema>;
