/**
 * What a chaos run checks once the load stopped (pure functions over what was recorded, so each
 * rule is unit-tested): charges at the emulator against the payments, events emitted against the
 * event log and the merchant's receiver, and per fault the failed tries and the time to recover.
 */
import { createHash } from 'node:crypto';

/** One HTTP try the SDK made (its fetch, wrapped): a retry is a try of its own. */
export interface TryRecord {
  start: number;
  end: number;
  /** A 2xx/4xx answer; false for 5xx, 429 and no answer at all. */
  ok: boolean;
  /** The HTTP status, or the transport error's code. */
  outcome: string;
  /** The create it belongs to (its Idempotency-Key). */
  request: string;
}

/** One `payments.create` as the merchant's code saw it, after the SDK's retries. */
export interface RequestRecord {
  start: number;
  end: number;
  ok: boolean;
  tries: number;
  idempotencyKey: string;
  paymentId?: string;
  error?: string;
}

/** A fault in turn: injected at `at`, repaired (replica restarted, fault cleared) at `repairedAt`, watched until `until` (the next fault's injection, or the end of the load). */
export interface FaultWindow {
  name: string;
  at: number;
  repairedAt: number;
  until: number;
}

export interface FaultFigures {
  name: string;
  /** Tries that failed, started in the window. */
  failedTries: number;
  /** Of those, tries started after the fault was injected + `inFlightGraceMs` (not in flight on the killed process). */
  failedTriesStartedAfter: number;
  /** Requests the merchant's code saw fail (after every retry), started in the window. */
  clientErrors: number;
  /** Requests started in the window. */
  requests: number;
  /** From the injection to the end of the last failed try of the window (0: nothing failed). */
  recoveryMs: number;
}

/**
 * Which fault each failed try belongs to: a create's failed tries all belong to the last fault
 * injected before its first failure ended (a repeat that waits behind the first, maybe for long,
 * is the same fault's doing). Returns the fault index per failed try (-1: before any fault).
 */
export function blame(faults: FaultWindow[], tries: TryRecord[]): Map<TryRecord, number> {
  const firstFailureEnd = new Map<string, number>();
  for (const t of tries) if (!t.ok && !firstFailureEnd.has(t.request)) firstFailureEnd.set(t.request, t.end);
  const owner = new Map<TryRecord, number>();
  for (const t of tries) {
    if (t.ok) continue;
    const first = firstFailureEnd.get(t.request) ?? t.end;
    let index = -1;
    faults.forEach((fault, i) => {
      if (fault.at <= first) index = i;
    });
    owner.set(t, index);
  }
  return owner;
}

/**
 * The figures of one fault (`index` in `faults`). `inFlightGraceMs`: a try sent just before the
 * fault that reached the process as it died counts as in flight (the client's clock and the kill
 * are a few ms apart). Requests count in the window where they ended.
 */
export function faultFigures(faults: FaultWindow[], index: number, tries: TryRecord[], requests: RequestRecord[], inFlightGraceMs = 50): FaultFigures {
  const fault = faults[index];
  if (!fault) throw new Error(`no fault ${index}`);
  const owner = blame(faults, tries);
  const failed = tries.filter((t) => owner.get(t) === index);
  const lastFailure = failed.reduce((last, t) => Math.max(last, t.end), fault.at);
  const windowRequests = requests.filter((r) => r.end >= fault.at && r.end < fault.until);
  return {
    name: fault.name,
    failedTries: failed.length,
    failedTriesStartedAfter: failed.filter((t) => t.start > fault.at + inFlightGraceMs).length,
    clientErrors: windowRequests.filter((r) => !r.ok).length,
    requests: windowRequests.length,
    recoveryMs: failed.length === 0 ? 0 : lastFailure - fault.at,
  };
}

/** The Efí txid of a payment's charge at one account (efi.transformers.ts derives it from the attempt's idempotency key). */
export function efiTxid(paymentId: string, accountId: string): string {
  return createHash('sha256').update(`orquestra:efi:cob:${paymentId}:${accountId}`).digest('hex').slice(0, 32);
}

/** A charge as the Efí emulator's control port lists it. */
export interface EmulatorCharge {
  txid: string;
  status: string;
}

/** Statuses of a charge nobody can pay any more. */
const GONE = new Set(['REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP']);

export interface ChargeAudit {
  payments: number;
  /** Payments with more than one payable charge at the emulators (the target: none). */
  doubleCharged: string[];
  /** Payments whose own charge (provider_payment_id) the emulator does not hold. */
  missingCharge: string[];
  /** Charges of no known payment (a create whose answer the client never got): still payable, and removed. */
  unknownLive: number;
  unknownRemoved: number;
}

/**
 * Every charge the emulator holds for the run's accounts against the payments the merchant knows:
 * a payment's charge at account X has the txid derived from (payment, X), so two payable charges
 * of one payment, at one account or at two, are a double charge.
 */
export function chargeAudit(payments: Array<{ id: string; provider_payment_id: string }>, accountIds: string[], charges: EmulatorCharge[]): ChargeAudit {
  const owner = new Map<string, string>();
  for (const payment of payments) for (const account of accountIds) owner.set(efiTxid(payment.id, account), payment.id);
  const payable = new Map<string, number>();
  const held = new Set<string>();
  let unknownLive = 0;
  let unknownRemoved = 0;
  for (const charge of charges) {
    held.add(charge.txid);
    const paymentId = owner.get(charge.txid);
    const live = !GONE.has(charge.status);
    if (!paymentId) {
      if (live) unknownLive += 1;
      else unknownRemoved += 1;
      continue;
    }
    if (live) payable.set(paymentId, (payable.get(paymentId) ?? 0) + 1);
  }
  return {
    payments: payments.length,
    doubleCharged: [...payable.entries()].filter(([, n]) => n > 1).map(([id]) => id),
    missingCharge: payments.filter((p) => !held.has(p.provider_payment_id)).map((p) => p.id),
    unknownLive,
    unknownRemoved,
  };
}

export interface EventAudit {
  emitted: number;
  /** Emitted (in a payment's own list) but not in the event log. */
  missingFromLog: string[];
  /** Emitted but never delivered to the receiver. */
  undelivered: string[];
  /** Events delivered more than once, and the extra copies in all. */
  duplicated: number;
  extraCopies: number;
  /** Deliveries of events nobody emitted (the target: none). */
  invented: number;
}

/**
 * Events: what each payment says it emitted is the truth; every one must be in the log and
 * reach the receiver at least once. Copies are allowed by at-least-once delivery and counted.
 */
export function eventAudit(emitted: Set<string>, logged: Set<string>, delivered: string[]): EventAudit {
  const copies = new Map<string, number>();
  for (const id of delivered) copies.set(id, (copies.get(id) ?? 0) + 1);
  const repeated = [...copies.entries()].filter(([id, n]) => n > 1 && emitted.has(id));
  return {
    emitted: emitted.size,
    missingFromLog: [...emitted].filter((id) => !logged.has(id)),
    undelivered: [...emitted].filter((id) => !copies.has(id)),
    duplicated: repeated.length,
    extraCopies: repeated.reduce((sum, [, n]) => sum + n - 1, 0),
    invented: [...copies.keys()].filter((id) => !emitted.has(id)).length,
  };
}
