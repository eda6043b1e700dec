import { paginationShape } from './pagination.schema';
import { SubaccountStatusSchema } from './subaccount.response.schema';
import { z } from './zod-openapi';

/** Query of GET /v1/subaccounts. Unknown parameters are refused so a typo never means "no filter". */
export const ListSubaccountsQuerySchema = z
  .object({
    status: SubaccountStatusSchema.optional(),
    provider_account_id: z.string().min(1).max(100).optional().openapi({ description: 'Só as subcontas desta conta conectada (pa_…).' }),
    q: z.string().trim().min(1).max(100).optional().openapi({ description: 'Trecho do nome, do documento ou do e-mail.', example: 'Ana' }),
    ...paginationShape,
  })
  .strict();

export type ListSubaccountsQuery = z.output<typeof ListSubaccountsQuerySchema>;
