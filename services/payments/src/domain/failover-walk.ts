import type { ProviderChargeStatus } from '@orquestra/contracts';
import type { ErrorCode } from '@orquestra/platform';
import { attemptOutcomeOf, type AttemptOutcome } from './charge-outcome';
import { failoverDecision, uncertainChargeMayMoveOn } from './failover-policy';

/** One try at one account, kept on the payment (or on its failed creation) and reported to routing. */
export interface Attempt {
  id: string;
  provider_account_id: string;
  provider: string;
  outcome: AttemptOutcome;
  failure_code: string;
  failure_reason: string;
  latency_ms: number;
  provider_payment_id: string;
  created_at: Date;
}

/** What the walk needs of a routing candidate. */
export interface WalkCandidate {
  account_id: string;
  provider: string;
}

/** The provider's answer to one create: a charge exists (pending, paid or declined), or the account refused. */
export type ChargeAnswer<Charge> =
  | { kind: 'created'; charge: Charge; state: ProviderChargeStatus; providerPaymentId: string; failureCode: string; failureReason: string }
  | { kind: 'refused'; code: ErrorCode; message: string; param?: string; /** Our own deadline on the call expired. */ deadlineExceeded: boolean };

export interface WalkPorts<C extends WalkCandidate, Charge> {
  /**
   * Asks `candidate`'s account to create the charge. Must be idempotent per candidate (the same
   * provider idempotency key every time): the walk asks again to resolve an uncertain answer.
   * Throws only on a bug; every provider failure is a `refused` answer.
   */
  tryCharge(candidate: C): Promise<ChargeAnswer<Charge>>;
  /** Keeps a possibly created charge for removal in the background (due work). */
  recordOrphan(candidate: C): Promise<void>;
  newAttemptId(): string;
  now(): number;
}

/** How a walk ended: the account that took the charge, or every attempt of a walk that charged nowhere. */
export type WalkResult<C, Charge> =
  | { charged: { candidate: C; charge: Charge; state: ProviderChargeStatus }; attempts: Attempt[] }
  | {
      charged: null;
      attempts: Attempt[];
      /** provider_timeout: a charge may exist (its resolution runs in the background); all_providers_failed: certainly none. */
      errorCode: 'provider_timeout' | 'all_providers_failed';
      /** The request itself was refused (e.g. a card token another account minted): answered as it is. */
      inputError?: { code: ErrorCode; message: string; param: string };
    };

export interface WalkOptions {
  /**
   * A create resumed under its Idempotency-Key (its first owner died, or ended uncertain): the
   * account that owner was asking when it stopped, the one account where its charge may exist (a
   * walk stops at the first account that charges; accounts it passed refused, or hold an orphan
   * already recorded). It is asked first, whatever order routing gives now (its breaker may have
   * opened since), with the same provider key, which finds that charge; and a refusal there is
   * uncertain, not `next`: it does not say the earlier charge is absent.
   */
  earlierAccount?: string;
  /**
   * Called before the walk asks an account, and the account is asked only once it resolved: the
   * create's Idempotency-Key record names the account (IdempotencyGuard.noteTry).
   */
  beforeTry?: (candidate: WalkCandidate) => Promise<void>;
}

/** The candidates in the order a resumed walk takes: the earlier owner's account first (if still a candidate), then routing's order. */
export function earlierFirst<C extends WalkCandidate>(candidates: readonly C[], earlierAccount: string | undefined): C[] {
  const earlier = earlierAccount ? candidates.find((candidate) => candidate.account_id === earlierAccount) : undefined;
  return earlier ? [earlier, ...candidates.filter((candidate) => candidate !== earlier)] : [...candidates];
}

/**
 * The failover walk (ARCHITECTURE.md "Failover"), pure over its ports: tries the candidates in
 * order until one account creates the charge. A charge the provider declined ends the walk too:
 * the buyer's bank would answer the same elsewhere. The rules:
 * - an account that certainly did not charge (failover-policy `next`) hands over to the next one;
 * - an answer about the payment (`stop`) ends the walk; a refused field of the request (a card
 *   token bound to the account that minted it) is answered as that field's error;
 * - an uncertain answer (timeout) is asked again at the same account with the same key: an
 *   existing charge is taken; otherwise the possible charge is kept as an orphan to remove, and
 *   only a method whose unseen charge cannot be paid (Pix) moves on; any other stops, so a card is
 *   never charged twice.
 */
export async function walkCandidates<C extends WalkCandidate, Charge>(
  candidates: readonly C[],
  method: string,
  ports: WalkPorts<C, Charge>,
  options: WalkOptions = {},
): Promise<WalkResult<C, Charge>> {
  const attempts: Attempt[] = [];
  // The earlier owner's account is no longer a candidate (disabled, its rule changed): its charge
  // cannot be looked for now, so a method whose unseen charge may be paid is not charged elsewhere.
  const earlierGone = options.earlierAccount !== undefined && options.earlierAccount !== '' && !candidates.some((candidate) => candidate.account_id === options.earlierAccount);
  if (earlierGone && !uncertainChargeMayMoveOn(method)) return { charged: null, attempts, errorCode: 'provider_timeout' };
  for (const candidate of earlierFirst(candidates, options.earlierAccount)) {
    const started = ports.now();
    const attempt = (fields: Pick<Attempt, 'outcome'> & Partial<Attempt>): Attempt => {
      const recorded: Attempt = {
        id: ports.newAttemptId(),
        provider_account_id: candidate.account_id,
        provider: candidate.provider,
        failure_code: '',
        failure_reason: '',
        latency_ms: ports.now() - started,
        provider_payment_id: '',
        created_at: new Date(started),
        ...fields,
      };
      attempts.push(recorded);
      return recorded;
    };
    await options.beforeTry?.(candidate);
    const answer = await ports.tryCharge(candidate);
    if (answer.kind === 'created') {
      const declined = answer.state === 'failed';
      attempt({
        outcome: attemptOutcomeOf(answer.state),
        provider_payment_id: answer.providerPaymentId,
        ...(declined ? { failure_code: answer.failureCode, failure_reason: answer.failureReason } : {}),
      });
      return { charged: { candidate, charge: answer.charge, state: answer.state }, attempts };
    }
    let decision = failoverDecision(answer.code, answer.deadlineExceeded);
    // An earlier owner may have charged this account under the same key: a refusal now (breaker
    // open, 5xx) does not say its charge is absent, so it is as uncertain as a timeout.
    if (decision === 'next' && candidate.account_id === options.earlierAccount) decision = 'uncertain';
    if (decision === 'uncertain') {
      if (!uncertainChargeMayMoveOn(method)) {
        // A card may have been charged: resolve it at this account before any second charge.
        const again = await ports.tryCharge(candidate).catch(() => undefined);
        if (again?.kind === 'created' && again.state !== 'failed') {
          attempt({ outcome: 'succeeded', provider_payment_id: again.providerPaymentId, failure_code: 'resolved_after_timeout' });
          return { charged: { candidate, charge: again.charge, state: again.state }, attempts };
        }
        await ports.recordOrphan(candidate);
        attempt({ outcome: 'uncertain', failure_code: answer.code, failure_reason: answer.message });
        // Not "nothing was charged": the charge may exist and is being resolved in the background.
        return { charged: null, attempts, errorCode: 'provider_timeout' };
      }
      // A Pix charge nobody was shown cannot be paid: move on now, and remove whatever this
      // attempt may have created in the background (due work).
      await ports.recordOrphan(candidate);
      attempt({ outcome: 'uncertain', failure_code: answer.code, failure_reason: answer.message });
      continue;
    }
    attempt({ outcome: 'failed', failure_code: answer.code, failure_reason: answer.message });
    // The account refused one field of the payment (e.g. a card token it did not mint): say which.
    if (answer.code === 'parameter_invalid' && answer.param) {
      return { charged: null, attempts, errorCode: 'all_providers_failed', inputError: { code: answer.code, message: answer.message, param: answer.param } };
    }
    if (decision === 'stop') break;
  }
  return { charged: null, attempts, errorCode: 'all_providers_failed' };
}
