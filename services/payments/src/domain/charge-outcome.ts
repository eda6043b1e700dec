import type { ProviderChargeStatus } from '@orquestra/contracts';
import { assertNever } from '@orquestra/platform';
import type { PaymentStatus } from './payment-status';

/** How one try at one account ended, as recorded on the payment's attempts. */
export type AttemptOutcome = 'succeeded' | 'declined' | 'failed' | 'uncertain';

/** A payment's status right after the charge that creates it (created with a method, or chosen on the payment page). */
export type CreatedStatus = Extract<PaymentStatus, 'pending' | 'succeeded' | 'failed'>;

/**
 * The payment's status once a provider created its charge in `state`. A card approved in the
 * create call itself is paid at once (no webhook needed to learn it); a decline is final.
 */
export function statusAtCreation(state: ProviderChargeStatus): CreatedStatus {
  switch (state) {
    case 'paid':
      return 'succeeded';
    case 'failed':
      return 'failed';
    case 'pending':
      return 'pending';
    case 'canceled':
      // No provider cancels a charge in the call that creates it; if one ever answered so, the
      // payment waits as pending and the provider's next report (webhook, sync, expiry) ends it.
      return 'pending';
    default:
      return assertNever(state);
  }
}

/** What a created charge counts as among the attempts: a decline is an answer, not a failure of the account. */
export function attemptOutcomeOf(state: ProviderChargeStatus): Extract<AttemptOutcome, 'succeeded' | 'declined'> {
  switch (state) {
    case 'failed':
      return 'declined';
    case 'pending':
    case 'paid':
    case 'canceled':
      return 'succeeded';
    default:
      return assertNever(state);
  }
}

/** The events a payment is stored with, by its status at creation. */
export function creationEvents(status: CreatedStatus): string[] {
  switch (status) {
    case 'failed':
      return ['payment.created', 'payment.failed'];
    case 'succeeded':
      return ['payment.created', 'payment.succeeded'];
    case 'pending':
      return ['payment.created'];
    default:
      return assertNever(status);
  }
}
