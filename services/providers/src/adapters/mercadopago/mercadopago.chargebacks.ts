/**
 * Mercado Pago card chargebacks: the wire type of `GET /v1/chargebacks/{id}`, the exhaustive status
 * map and reading one as our dispute. Sources: psp-apis.md §2 (`GET /v1/chargebacks/{id}`, evidence
 * `POST /v1/chargebacks/{id}/documentation` multipart); Mercado Pago developers "Manage chargebacks"
 * and the API reference of the chargeback (fields `id, payments[], currency, amount (reais), reason,
 * coverage_applied, coverage_elegible, documentation_required, documentation_status
 * pending|review_pending|valid|invalid|not_supplied|not_applicable, date_documentation_deadline,
 * date_created`), and "Configure chargeback notifications" (the `chargebacks` topic, sent when a
 * chargeback is created and on each change of its status).
 *
 * The notification names the chargeback only (`data.id`, covered by the signature); the body is
 * never the report: the adapter reads the chargeback back (`readDispute`) and that read is what we
 * report. The decision is `coverage_applied`: true = decided for the seller (the money comes back),
 * false = against. Before it, the documentation status says whether Mercado Pago is reviewing.
 *
 * Evidence: Mercado Pago takes a defense only as uploaded files (.jpg, .png, .pdf); ours (text plus
 * links) goes as one PDF holding exactly them (mercadopago.evidence.ts). It is taken while the
 * chargeback is undecided and no documents were sent yet (`documentation_status: pending`).
 */
import { assertNever } from '@orquestra/platform';
import type { ProviderDispute, ProviderDisputeStatus } from '../provider-disputes';
import { reaisToCents, type MercadoPagoAmount } from './mercadopago.transformers';

/** The notification topics (the `type` of a Webhooks-format body) that announce a chargeback. */
export const CHARGEBACK_TOPICS = ['chargebacks', 'topic_chargebacks_wh'] as const;

/** Every documented `documentation_status`. */
export const DOCUMENTATION_STATUSES = ['pending', 'review_pending', 'valid', 'invalid', 'not_supplied', 'not_applicable'] as const;
export type MercadoPagoDocumentationStatus = (typeof DOCUMENTATION_STATUSES)[number];

export interface MercadoPagoChargeback {
  id: string | number;
  payments: Array<number | string>;
  currency?: string;
  amount: MercadoPagoAmount;
  reason?: string | null;
  coverage_applied: boolean | null;
  coverage_elegible?: boolean | null;
  documentation_required?: boolean | null;
  documentation_status: MercadoPagoDocumentationStatus;
  date_documentation_deadline?: string | null;
  date_created?: string | null;
  date_last_updated?: string | null;
  live_mode?: boolean;
}

/**
 * Before a decision, every documentation status; a new one fails to compile here. `pending` (no
 * documentation received yet) is open; the others are in Mercado Pago's hands (documents being
 * reviewed, judged, not supplied in time, not needed): under_review.
 */
export function mapDocumentationStatus(status: MercadoPagoDocumentationStatus): ProviderDisputeStatus {
  switch (status) {
    case 'pending':
      return 'open';
    case 'review_pending':
    case 'valid':
    case 'invalid':
    case 'not_supplied':
    case 'not_applicable':
      return 'under_review';
    default:
      return assertNever(status);
  }
}

/** `coverage_applied` decides; null means not decided yet, and the documentation status says where it is. */
export function mapChargebackStatus(chargeback: Pick<MercadoPagoChargeback, 'coverage_applied' | 'documentation_status'>): ProviderDisputeStatus {
  if (chargeback.coverage_applied === true) return 'won';
  if (chargeback.coverage_applied === false) return 'lost';
  return mapDocumentationStatus(chargeback.documentation_status);
}

/** The provider status word we keep for support: the decision when there is one, else the documentation status. */
function providerStatusOf(chargeback: MercadoPagoChargeback): string {
  if (chargeback.coverage_applied === true) return 'coverage_applied';
  if (chargeback.coverage_applied === false) return 'coverage_not_applied';
  return chargeback.documentation_status;
}

const isDocumentationStatus = (value: unknown): value is MercadoPagoDocumentationStatus => (DOCUMENTATION_STATUSES as readonly unknown[]).includes(value);

/** Mercado Pago's chargeback ids are long digit strings; numbers in a body are read as such. */
export const CHARGEBACK_ID = /^\d{1,24}$/;

export type ChargebackRead = { ok: true; chargeback: MercadoPagoChargeback } | { ok: false; reason: 'malformed' | 'unknown_status'; status?: string };

/** A read's body as a chargeback, or why not. An unknown documentation status is never guessed. */
export function chargebackOf(value: unknown): ChargebackRead {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'malformed' };
  const c = value as Record<string, unknown>;
  const id = c['id'];
  if (!((typeof id === 'string' && CHARGEBACK_ID.test(id)) || (typeof id === 'number' && Number.isSafeInteger(id) && id > 0))) return { ok: false, reason: 'malformed' };
  if (!Array.isArray(c['payments'])) return { ok: false, reason: 'malformed' };
  if (typeof c['amount'] !== 'number' && typeof c['amount'] !== 'string') return { ok: false, reason: 'malformed' };
  const coverage = c['coverage_applied'];
  if (coverage !== null && coverage !== undefined && typeof coverage !== 'boolean') return { ok: false, reason: 'malformed' };
  const status = c['documentation_status'];
  if (typeof status !== 'string') return { ok: false, reason: 'malformed' };
  if (!isDocumentationStatus(status)) return { ok: false, reason: 'unknown_status', status };
  try {
    reaisToCents(c['amount'] as MercadoPagoAmount);
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  return { ok: true, chargeback: { ...(value as MercadoPagoChargeback), coverage_applied: (coverage as boolean | null | undefined) ?? null } };
}

const dateOf = (value: string | null | undefined): Date | undefined => {
  const ms = Date.parse(value ?? '');
  return Number.isFinite(ms) ? new Date(ms) : undefined;
};

/**
 * Our dispute. The chargeback names its payments; ours is one card payment per chargeback (the
 * first listed). Mercado Pago's deadline for documents is its own: reported, no local rule on it.
 */
export function toProviderDispute(chargeback: MercadoPagoChargeback): ProviderDispute {
  const payment = chargeback.payments.find((p) => /^\d{1,19}$/.test(String(p)));
  const amount = reaisToCents(chargeback.amount);
  const openedAt = dateOf(chargeback.date_created);
  const dueAt = dateOf(chargeback.date_documentation_deadline);
  const reason = typeof chargeback.reason === 'string' && chargeback.reason.length > 0 ? chargeback.reason : undefined;
  return {
    providerDisputeId: String(chargeback.id),
    kind: 'chargeback',
    status: mapChargebackStatus(chargeback),
    providerStatus: providerStatusOf(chargeback),
    ...(payment !== undefined ? { providerPaymentId: String(payment) } : {}),
    ...(amount > 0 ? { amount } : {}),
    ...(reason ? { reason } : {}),
    ...(openedAt ? { openedAt } : {}),
    ...(dueAt ? { answerDueAt: dueAt } : {}),
    acceptsEvidence: chargeback.coverage_applied === null && chargeback.documentation_status === 'pending',
  };
}
