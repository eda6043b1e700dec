import type { ErrorCode } from '@orquestra/platform';

/**
 * What to do after one provider account failed to create a charge (ARCHITECTURE.md "Failover").
 * - `next`: the provider certainly did not charge: try the next account.
 * - `uncertain`: the provider may have created the charge (a timeout); resolve it before anything else.
 * - `stop`: the answer is about the payment, not the account; another account would answer the same.
 */
export type FailoverDecision = 'next' | 'uncertain' | 'stop';

const DECISIONS: Partial<Record<ErrorCode, FailoverDecision>> = {
  provider_unavailable: 'next', // connection refused, breaker open, account disabled
  provider_rate_limited: 'next', // 429: refused before any work
  provider_error: 'next', // 5xx on create: the APIs we speak are transactional, nothing was created
  provider_rejected: 'next', // this provider refused the request's shape; another may accept it
  service_unavailable: 'next', // the providers service was unreachable before the call
  invalid_credentials: 'next', // the account's credentials stopped working
  not_found: 'next', // the account vanished between routing and the call
  method_not_available: 'next',
  provider_timeout: 'uncertain',
  card_declined: 'stop',
};

export function failoverDecision(code: ErrorCode, grpcDeadlineExceeded: boolean): FailoverDecision {
  // Our own deadline on the providers call expiring is as ambiguous as a provider timeout.
  if (grpcDeadlineExceeded) return 'uncertain';
  return DECISIONS[code] ?? 'stop';
}

/**
 * After an uncertain create, whether the walk may try the next account without knowing. Only for
 * Pix: a QR code nobody was shown cannot be paid, so the possible charge is removed in the
 * background. A boleto or a card may be paid (or is charged already) the moment it exists, so it
 * is resolved at its account first and never charged a second time elsewhere.
 */
export function uncertainChargeMayMoveOn(method: string): boolean {
  return method === 'pix';
}
