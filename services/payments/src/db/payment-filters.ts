import type { FilterQuery } from 'mongoose';
import { searchFilter } from '../domain/payment-search';
import type { PaymentStatus } from '../domain/payment-status';
import type { PaymentDoc } from './payment.model';

/** Whose payments a caller may see: the merchant and mode of its key; a restricted key only the payments it created. */
export interface CallerScope {
  merchantId: string;
  mode: 'test' | 'live';
  restrictedKeyId?: string;
}

/** Filters of a payment list (GET /payments), all optional. */
export interface PaymentListQuery {
  status?: PaymentStatus;
  method?: string;
  provider?: string;
  /** Cursor: the last id of the previous page. */
  startingAfter?: string;
  /** Free-text search (domain/payment-search.ts). */
  q?: string;
  /** Only the cycle payments of this subscription. */
  subscriptionId?: string;
}

/** The caller's payments matching `query` (merchant scoping is here, nowhere else). */
export function listFilter(scope: CallerScope, query: PaymentListQuery): FilterQuery<PaymentDoc> {
  const filter: FilterQuery<PaymentDoc> = { merchant_id: scope.merchantId, mode: scope.mode };
  if (scope.restrictedKeyId) filter.source_key_id = scope.restrictedKeyId;
  if (query.status) filter.status = query.status;
  if (query.method) filter.method = query.method;
  if (query.provider) filter.provider = query.provider;
  if (query.subscriptionId) filter.subscription_id = query.subscriptionId;
  if (query.startingAfter) filter._id = { $lt: query.startingAfter };
  // Search (q) narrows the same page: ids sort by creation, so the cursor stays correct.
  return query.q ? ({ $and: [filter, searchFilter(query.q)] } as FilterQuery<PaymentDoc>) : filter;
}

/** What else must hold for a payment write (PaymentStore.transition's guard). */
export type PaymentGuard = FilterQuery<PaymentDoc>;

/** Guard of a write allowed only while no method choice is being charged (none claimed, or its holder's claim ran out). */
export function noMethodChoice(now: Date): PaymentGuard {
  return { $or: [{ method_choice: null }, { 'method_choice.until': { $lte: now } }] };
}

/** Guard of a write allowed only to the holder of method choice `choiceId`. */
export function methodChoiceHeldBy(choiceId: string): PaymentGuard {
  return { 'method_choice.id': choiceId };
}
