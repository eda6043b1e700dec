/**
 * The one table "what happened on the wire → ProviderError", for every provider. An adapter's own
 * error table reads the provider's answers (4xx bodies, decline codes); everything the wire itself
 * says — no connection, no answer, 429, 5xx — is classified here, by operation and payment method.
 *
 * What the kinds mean to the caller (payments reads only the normalized code, failover-policy.ts):
 * - `provider_unavailable` / `provider_rate_limited`: the provider certainly did nothing; the
 *   payment may go to the next account, a refund is released.
 * - `provider_timeout`: the provider may have acted. A create is resolved at the same account by
 *   repeating it with the same key (every adapter's create is idempotent: a key the provider
 *   honours, a deterministic id, or a search by reference) before anything else is tried; a
 *   refund stays pending until a webhook or sync settles it.
 * - `provider_error`: an answered failure; on a create "nothing usable was created", on a write
 *   "may have happened" (a refund stays pending).
 *
 * Why Pix differs from card and boleto: an unpaid Pix charge can only be paid by someone holding
 * its code, and the code reaches a payer only through our answer (no provider we speak sends it
 * to the payer: Asaas customers are created with notifications disabled). So a Pix charge hidden
 * by a lost answer expires unpaid, and a repeat with the same key answers it rather than making a
 * second one: moving on is safe. A card charge is final the moment the provider accepts it, and a
 * registered boleto reaches the payer's bank app by CPF (DDA) without anyone showing it: for both,
 * a charge that may exist must be resolved before another account is tried.
 */
import { assertNever } from '@orquestra/platform';
import type { ChargeMethod } from '../provider-adapter';
import { ProviderError } from '../provider-adapter';

/**
 * What a request was:
 * - `prepare`: a step before a create that makes nothing chargeable (a token, a customer lookup
 *   or upsert);
 * - `create`: the request that creates a charge, with its payment method; `pix_automatico` is a
 *   Pix Automático cycle charge (`cobr`, an Asaas cycle): a debit the payer authorised in advance,
 *   which the payer's bank schedules and makes on its date with nobody showing a code, so a lost
 *   answer may hide a charge that will be paid, like a card charge (a recurrence itself is created
 *   as `pix`: it is approved only by scanning the QR code our answer carries);
 * - `read`: changes nothing;
 * - `write`: changes something that exists (cancel, refund, webhook registration, defense).
 */
export type RequestPurpose =
  | { operation: 'prepare' }
  | { operation: 'create'; method: ChargeMethod | 'pix_automatico' }
  | { operation: 'read' }
  | { operation: 'write' };

/**
 * What the wire said:
 * - `not_sent`: the request never left (refused, DNS, TLS, connect timeout, a socket lost before
 *   the request was written);
 * - `reset_after_send`: the connection broke after the request was written, before an answer;
 * - `timeout`: the request was written and no answer came in time;
 * - `rate_limited`: HTTP 429; `unavailable`: HTTP 503; `server_error`: any other 5xx.
 */
export type WireOutcome = 'not_sent' | 'reset_after_send' | 'timeout' | 'rate_limited' | 'unavailable' | 'server_error';

export interface Classification {
  kind: ProviderError['kind'];
  code: ProviderError['normalizedCode'];
}

const CERTAINLY_NOTHING: Classification = { kind: 'not_created', code: 'provider_unavailable' };
const MAY_HAVE_ACTED: Classification = { kind: 'ambiguous', code: 'provider_timeout' };

/** The table. One row per (outcome, operation[, method]); the reason of each row beside it. */
export function classifyWireOutcome(outcome: WireOutcome, purpose: RequestPurpose): Classification {
  const { operation } = purpose;
  const pix = operation === 'create' && purpose.method === 'pix';
  switch (outcome) {
    case 'not_sent':
      // Nothing reached the provider, whatever the request was.
      return CERTAINLY_NOTHING;
    case 'reset_after_send':
      // A prepare or read creates nothing chargeable; a Pix nobody has the code of expires unpaid.
      if (operation === 'prepare' || operation === 'read' || pix) return CERTAINLY_NOTHING;
      // A card charge, boleto or Pix Automático debit may exist; a write (a refund) may have been made.
      return MAY_HAVE_ACTED;
    case 'timeout':
      // The provider may still be working on it; for a read or prepare that changes nothing.
      if (operation === 'prepare' || operation === 'read') return { kind: 'not_created', code: 'provider_timeout' };
      // Even a Pix is reported as possibly created: payments moves on at once but cancels the
      // charge a repeat of the create finds (its orphan clean-up), so no open QR is left behind.
      return MAY_HAVE_ACTED;
    case 'rate_limited':
      // A 429 is answered before any work.
      return { kind: 'not_created', code: 'provider_rate_limited' };
    case 'unavailable':
    case 'server_error': {
      const code = outcome === 'unavailable' ? 'provider_unavailable' : 'provider_error';
      // Reads and prepares change nothing; a Pix created behind a 5xx is as harmless as above.
      if (operation === 'prepare' || operation === 'read' || pix) return { kind: 'not_created', code };
      // No provider we speak documents that a 5xx undid the work (Stripe says to treat a 500 as
      // indeterminate): a card charge, boleto or debit is resolved at this account first.
      if (operation === 'create') return MAY_HAVE_ACTED;
      // A write answered 5xx may have happened: kept pending (refunds), never counted as undone.
      return { kind: 'ambiguous', code: 'provider_error' };
    }
    default:
      return assertNever(outcome);
  }
}

/** The HTTP statuses the table owns; any other answer is read by the adapter's own table. */
export function wireOutcomeOfStatus(status: number): WireOutcome | undefined {
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'unavailable';
  if (status >= 500 && status <= 599) return 'server_error';
  return undefined;
}

const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The error code of an undici/Node failure (undici nests the socket's error in `cause`). */
export function transportCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; errors?: { code?: unknown }[] } | undefined;
  const code = e?.code ?? e?.cause?.code ?? e?.errors?.[0]?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

/**
 * A failure without an answer → its outcome. `sent` says whether the request was written to the
 * socket (the pool tracks it, provider-http.ts): without that, a refused connection and a reset
 * after a card charge was accepted look alike.
 */
export function wireOutcomeOfFailure(err: unknown, sent: boolean): WireOutcome {
  if (!sent) return 'not_sent';
  return TIMEOUT_CODES.has(transportCode(err)) ? 'timeout' : 'reset_after_send';
}

/** The ProviderError for one wire outcome; `what` names the provider and request for the logs. */
export function providerErrorForWire(outcome: WireOutcome, purpose: RequestPurpose, what: string, httpStatus?: number): ProviderError {
  const { kind, code } = classifyWireOutcome(outcome, purpose);
  return new ProviderError(kind, code, `${what}: ${outcome}${httpStatus ? ` (HTTP ${httpStatus})` : ''}`, httpStatus);
}
