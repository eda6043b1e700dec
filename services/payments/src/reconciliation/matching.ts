/**
 * The matching rules of a reconciliation run (docs/reconciliation.md), pure: which of our payments a
 * listed charge is, whether a provider status agrees with a payment status, and the differences
 * between our payment and the provider's charge, each with both sides' values as text.
 */
import { createHash } from 'node:crypto';
import type { ProviderChargeStatus } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import type { PaymentStatus } from '../domain/payment-status';

export const FINDING_KINDS = ['missing_at_provider', 'unknown_to_orquestra', 'status_difference', 'amount_difference', 'fee_difference', 'refund_difference'] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** Our side of a comparison: the fields of a payment a run compares. */
export interface OurPayment {
  status: PaymentStatus;
  amount: number;
  amount_refunded: number;
  fee: number;
}

/** The provider's side: one charge as its list (or GetCharge) reports it. */
export interface TheirCharge {
  provider_payment_id: string;
  status: string;
  amount: number;
  amount_refunded: number;
  /** null: the provider does not report it (then fees are not compared). */
  fee: number | null;
}

export interface Difference {
  kind: Exclude<FindingKind, 'missing_at_provider' | 'unknown_to_orquestra'>;
  ours: Record<string, string>;
  theirs: Record<string, string>;
}

/**
 * The payment statuses that agree with a provider charge status, as ChargeStateApplier applies a
 * provider's report: paid → succeeded (and its refunded successors: refunds are compared apart, by
 * amount); pending → pending or processing; canceled and failed both end a charge without money,
 * and providers name that end differently (an expired Pix is canceled at one, failed at another),
 * so either agrees with either.
 */
export function agreeingStatuses(status: string): readonly PaymentStatus[] {
  switch (status as ProviderChargeStatus) {
    case 'paid':
      return ['succeeded', 'partially_refunded', 'refunded'];
    case 'pending':
      return ['pending', 'processing'];
    case 'canceled':
    case 'failed':
      return ['canceled', 'failed'];
    default:
      // A status outside the contract never agrees: it is reported, not guessed.
      return [];
  }
}

export function statusesAgree(ours: PaymentStatus, theirs: string): boolean {
  return agreeingStatuses(theirs).includes(ours);
}

/** Every difference between our payment and the provider's charge (empty: matched). */
export function differences(ours: OurPayment, theirs: TheirCharge): Difference[] {
  const found: Difference[] = [];
  if (!statusesAgree(ours.status, theirs.status)) found.push({ kind: 'status_difference', ours: { status: ours.status }, theirs: { status: theirs.status } });
  if (ours.amount !== theirs.amount) found.push({ kind: 'amount_difference', ours: { amount: String(ours.amount) }, theirs: { amount: String(theirs.amount) } });
  if (theirs.fee !== null && ours.fee !== theirs.fee) found.push({ kind: 'fee_difference', ours: { fee: String(ours.fee) }, theirs: { fee: String(theirs.fee) } });
  if (ours.amount_refunded !== theirs.amount_refunded) {
    found.push({ kind: 'refund_difference', ours: { amount_refunded: String(ours.amount_refunded) }, theirs: { amount_refunded: String(theirs.amount_refunded) } });
  }
  return found;
}

const PAYMENT_ID = /^pay_[0-9a-z]{26}/;

/**
 * Our payment id carried by a charge's reference, when it carries one: the id itself (Mercado
 * Pago's external_reference) or an idempotency key that starts with it (Asaas's
 * `<payment id>:<account id>…`). Other references (a digest of the key) name no payment.
 */
export function paymentIdOf(reference: string): string | null {
  return PAYMENT_ID.exec(reference)?.[0] ?? null;
}

/**
 * A finding's id, the same every time the same difference is found in the same run, so a page
 * processed again (after a crash) finds the finding already stored instead of adding another.
 */
export function findingId(runId: string, providerAccountId: string, providerPaymentId: string, kind: FindingKind): string {
  const digest = createHash('sha256').update(`${runId}\n${providerAccountId}\n${providerPaymentId}\n${kind}`).digest('hex');
  return `rcf_${digest.slice(0, 26)}`;
}

/** The id of the marker that a run saw a charge at an account (one per charge, whatever the pages). */
export function seenId(runId: string, providerAccountId: string, providerPaymentId: string): string {
  return `${runId}:${providerAccountId}:${providerPaymentId}`;
}

/** The provider's values as a finding shows them. */
export function theirValues(charge: TheirCharge & { method?: string; created_at?: string; reference?: string }): Record<string, string> {
  return {
    status: charge.status,
    amount: String(charge.amount),
    amount_refunded: String(charge.amount_refunded),
    ...(charge.fee !== null ? { fee: String(charge.fee) } : {}),
    ...(charge.method ? { method: charge.method } : {}),
    ...(charge.created_at ? { created_at: charge.created_at } : {}),
    ...(charge.reference ? { reference: charge.reference } : {}),
  };
}

/** Our values as a finding shows them. */
export function ourValues(payment: OurPayment & { created_at?: Date }): Record<string, string> {
  return {
    status: payment.status,
    amount: String(payment.amount),
    amount_refunded: String(payment.amount_refunded),
    fee: String(payment.fee),
    ...(payment.created_at ? { created_at: payment.created_at.toISOString() } : {}),
  };
}

/** The longest period one run covers (a quarter): longer periods are split into several runs. */
export const MAX_PERIOD_DAYS = 93;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

function instant(value: string, param: 'start' | 'end'): Date {
  if (!value) throw new AppError('parameter_missing', { param, message: `Informe ${param}: uma data e hora RFC 3339, por exemplo 2026-11-01T00:00:00-03:00.` });
  const date = new Date(value);
  if (!RFC3339.test(value) || Number.isNaN(date.getTime())) {
    throw new AppError('parameter_invalid', { param, message: `${param} deve ser uma data e hora RFC 3339 com fuso, por exemplo 2026-11-01T00:00:00-03:00.` });
  }
  return date;
}

/** A run's period [start, end), checked (CreateRun): the errors name the field, in Portuguese. */
export function runPeriod(start: string, end: string, now: Date): { start: Date; end: Date } {
  const period = { start: instant(start, 'start'), end: instant(end, 'end') };
  if (period.start.getTime() >= period.end.getTime()) throw new AppError('parameter_invalid', { param: 'start', message: 'start deve ser anterior a end.' });
  if (period.end.getTime() > now.getTime()) throw new AppError('parameter_invalid', { param: 'end', message: 'end não pode estar no futuro: concilie apenas períodos já encerrados.' });
  if (period.end.getTime() - period.start.getTime() > MAX_PERIOD_DAYS * 86_400_000) {
    throw new AppError('parameter_invalid', { param: 'end', message: `O período pode ter no máximo ${MAX_PERIOD_DAYS} dias: divida-o em mais de uma conciliação.` });
  }
  return period;
}
