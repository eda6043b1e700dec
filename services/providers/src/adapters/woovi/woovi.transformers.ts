/**
 * Woovi (OpenPix) wire types and pure conversions: our charge input → `POST /api/v1/charge` body,
 * a Woovi charge → ProviderCharge (exhaustive status map), and an error answer → ProviderError (one
 * table). Webhook verification and parsing live in woovi.webhook.ts. No I/O here.
 *
 * Money: Woovi's `value` and `fee` are integer cents (developers.woovi.com "Como usar a API para
 * criar uma cobrança": "O valor em centavos"), our unit too — no conversion, only integer checks.
 *
 * Over 300 lines: Woovi's wire types, the charge body, the exhaustive status map and the one error
 * table, all pure and reading the same types.
 */
import { assertNever, numericTaxId } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import { rule, type ErrorRule } from '../error-rule';
import {
  ProviderError,
  type ChargeSplitInput,
  type CreateChargeInput,
  type CustomerInput,
  type ProviderCharge,
  type ProviderChargeStatus,
} from '../provider-adapter';

// ---------------------------------------------------------------------------------------------
// Wire types (developers.woovi.com/api, `charge` tag)
// ---------------------------------------------------------------------------------------------

export type WooviChargeStatus = 'ACTIVE' | 'COMPLETED' | 'EXPIRED';

export interface WooviTaxId {
  taxID: string;
  type: string;
}

export interface WooviCustomerRequest {
  name: string;
  taxID?: string;
  email?: string;
  phone?: string;
}

export interface WooviChargeRequest {
  correlationID: string;
  value: number;
  comment?: string;
  expiresIn: number;
  customer?: WooviCustomerRequest;
  additionalInfo?: { key: string; value: string }[];
  splits?: WooviSplit[];
}

/** One part of a split (developers.woovi.com "Split de pagamento para subcontas"): cents to a subaccount's Pix key. */
export interface WooviSplit {
  value: number;
  pixKey: string;
  splitType: 'SPLIT_SUB_ACCOUNT';
}

export interface WooviCharge {
  status: WooviChargeStatus;
  value: number;
  correlationID: string;
  transactionID?: string;
  globalID?: string;
  brCode?: string;
  qrCodeImage?: string;
  paymentLinkUrl?: string;
  expiresIn?: number;
  expiresDate?: string;
  createdAt?: string;
  updatedAt?: string;
  paidAt?: string;
  comment?: string;
  fee?: number;
  customer?: { name?: string; taxID?: WooviTaxId; email?: string; phone?: string } | null;
  additionalInfo?: { key: string; value: string }[];
  /** Echoed by the charge when it carries a split (unconfirmed at Woovi: compared only when present). */
  splits?: { value?: unknown; pixKey?: unknown }[] | null;
}

/** `POST /api/v1/charge` answers `{charge, correlationID, brCode}`; `GET /charge/{id}` `{charge}`. */
export interface WooviChargeResponse {
  charge: WooviCharge;
  correlationID?: string;
  brCode?: string;
}

export interface WooviErrorBody {
  error: string;
}

// ---------------------------------------------------------------------------------------------
// Charge request
// ---------------------------------------------------------------------------------------------

/** Keys made only of these characters are used verbatim as correlationID (readable in Woovi's dashboard). */
const VERBATIM_CORRELATION_ID = /^[A-Za-z0-9._:-]{1,100}$/;

/**
 * The correlationID for an idempotency key. Woovi makes it the idempotency key of charge creation
 * ("garante que uma cobrança … seja criada uma única vez", docs "Correlation ID"), so the same key
 * always names the same charge. Keys with characters that are awkward in a URL path segment, or
 * longer than 100, become `h-` + 40 hex of SHA-256 (still deterministic).
 */
export function correlationIdFor(idempotencyKey: string): string {
  if (VERBATIM_CORRELATION_ID.test(idempotencyKey)) return idempotencyKey;
  return `h-${createHash('sha256').update(`orquestra:woovi:charge:${idempotencyKey}`).digest('hex').slice(0, 40)}`;
}

/**
 * Woovi needs no customer for a Pix charge. One is sent only with a name and at least one field
 * Woovi identifies customers by (taxID, email, phone), each sent only when well-formed: a bad
 * document would make Woovi refuse the whole charge, and a charge without customer beats no charge.
 */
export function customerFor(customer: CustomerInput): WooviCustomerRequest | undefined {
  const name = customer.name.trim();
  if (!name) return undefined;
  const taxID = numericTaxId(customer.document)?.value;
  const email = customer.email?.trim() ?? '';
  const phoneDigits = (customer.phone ?? '').replace(/\D/g, '');
  const out: WooviCustomerRequest = { name: truncate(name, 200) };
  if (taxID) out.taxID = taxID;
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) out.email = email;
  // Brazilian numbers with country code (12–13 digits) or without (10–11): Woovi writes `+55…`.
  if (/^\d{10,13}$/.test(phoneDigits)) out.phone = `+${phoneDigits.length <= 11 ? `55${phoneDigits}` : phoneDigits}`;
  return out.taxID || out.email || out.phone ? out : undefined;
}

/** Woovi's `comment` limit (140, docs and OpenAPI); additionalInfo limits are ours (undocumented). */
const COMMENT_MAX = 140;
const ADDITIONAL_INFO_MAX = { items: 50, key: 50, value: 200 };

/** Cuts a string to `max` characters without splitting a surrogate pair. */
function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

/** Checks an amount Woovi can carry: a positive safe integer of cents. */
export function checkedValue(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents <= 0) throw new RangeError(`amount must be a positive integer of cents, got ${cents}`);
  return cents;
}

export function buildChargeRequest(input: CreateChargeInput): WooviChargeRequest {
  const customer = customerFor(input.customer);
  const comment = input.description?.trim();
  const additionalInfo = Object.entries(input.metadata)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, ADDITIONAL_INFO_MAX.items)
    .map(([key, value]) => ({ key: truncate(key, ADDITIONAL_INFO_MAX.key), value: truncate(value, ADDITIONAL_INFO_MAX.value) }));
  if (!Number.isSafeInteger(input.expiresInSeconds) || input.expiresInSeconds <= 0) {
    throw new RangeError(`expiresInSeconds must be a positive integer, got ${input.expiresInSeconds}`);
  }
  return {
    correlationID: correlationIdFor(input.idempotencyKey),
    value: checkedValue(input.amount),
    ...(comment ? { comment: truncate(comment, COMMENT_MAX) } : {}),
    expiresIn: input.expiresInSeconds,
    ...(customer ? { customer } : {}),
    ...(additionalInfo.length > 0 ? { additionalInfo } : {}),
    ...(input.splits && input.splits.length > 0 ? { splits: buildSplits(input.splits) } : {}),
  };
}

/**
 * Our parts → Woovi's `splits[]`: the same integer cents (Woovi's unit), to the subaccount's Pix
 * key (its splitTarget), as `SPLIT_SUB_ACCOUNT`. Throws RangeError for a part that is not a
 * positive integer of cents.
 */
export function buildSplits(splits: readonly ChargeSplitInput[]): WooviSplit[] {
  return splits.map((part) => ({ value: checkedValue(part.amount), pixKey: part.splitTarget, splitType: 'SPLIT_SUB_ACCOUNT' }));
}

/**
 * False only when Woovi answers a charge whose split differs from the parts asked for (a repeated
 * correlationID with another split). A charge answer without `splits` is not evidence either way
 * unless parts were asked for and Woovi answered an explicitly empty list.
 */
export function sameSplits(charge: Pick<WooviCharge, 'splits'>, input: Pick<CreateChargeInput, 'splits'>): boolean {
  if (!Array.isArray(charge.splits)) return true;
  const held = charge.splits.map((part) => `${String(part.pixKey)}:${String(part.value)}`).sort();
  const asked = (input.splits ?? []).map((part) => `${part.splitTarget}:${part.amount}`).sort();
  return held.length === asked.length && held.every((k, i) => k === asked[i]);
}

// ---------------------------------------------------------------------------------------------
// Charge response
// ---------------------------------------------------------------------------------------------

interface StatusMapping {
  status: ProviderChargeStatus;
  failureCode?: string;
  failureReason?: string;
}

/** Every Woovi charge status; a new one fails to compile here. */
export function mapChargeStatus(status: WooviChargeStatus): StatusMapping {
  switch (status) {
    case 'ACTIVE':
      return { status: 'pending' };
    case 'COMPLETED':
      return { status: 'paid' };
    case 'EXPIRED':
      // No longer payable, and nobody declined it.
      return { status: 'canceled', failureCode: 'expired', failureReason: 'Cobrança expirada' };
    default:
      return assertNever(status);
  }
}

const STATUSES: ReadonlySet<string> = new Set<WooviChargeStatus>(['ACTIVE', 'COMPLETED', 'EXPIRED']);

/** The charge of a response body, checked enough to convert safely; undefined when it is not one. */
export function chargeOf(body: unknown): WooviCharge | undefined {
  const charge = (body as { charge?: unknown } | undefined)?.charge as Partial<WooviCharge> | undefined;
  if (typeof charge !== 'object' || charge === null) return undefined;
  if (typeof charge.status !== 'string' || !STATUSES.has(charge.status)) return undefined;
  if (!Number.isSafeInteger(charge.value) || typeof charge.correlationID !== 'string') return undefined;
  if (charge.fee !== undefined && charge.fee !== null && !Number.isSafeInteger(charge.fee)) return undefined;
  return charge as WooviCharge;
}

function dateOf(text: string | undefined): Date | undefined {
  const ms = text ? Date.parse(text) : NaN;
  return Number.isFinite(ms) ? new Date(ms) : undefined;
}

/**
 * providerPaymentId is the correlationID: Woovi's GET/DELETE /charge/{id} take it, it is derived
 * from our idempotency key (so known even when a create timed out), and every webhook carries it.
 */
export function toProviderCharge(charge: WooviCharge): ProviderCharge {
  const mapping = mapChargeStatus(charge.status);
  const expiresAt = dateOf(charge.expiresDate);
  const paidAt = mapping.status === 'paid' ? dateOf(charge.paidAt ?? charge.updatedAt) : undefined;
  return {
    providerPaymentId: charge.correlationID,
    status: mapping.status,
    amount: charge.value,
    amountPaid: mapping.status === 'paid' ? charge.value : 0,
    nextAction:
      mapping.status === 'pending' && charge.brCode
        ? { type: 'pix_qr', qrCode: charge.brCode, ...(charge.paymentLinkUrl ? { url: charge.paymentLinkUrl } : {}) }
        : { type: 'none' },
    ...(expiresAt ? { expiresAt } : {}),
    ...(paidAt ? { paidAt } : {}),
    ...(typeof charge.fee === 'number' ? { providerFee: charge.fee } : {}),
    ...(mapping.failureCode ? { failureCode: mapping.failureCode } : {}),
    ...(mapping.failureReason ? { failureReason: mapping.failureReason } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Errors: one table from Woovi's answer to our normalized code and the failover decision
// ---------------------------------------------------------------------------------------------

/**
 * Woovi answers every error as `{"error": "<message>"}` (OpenAPI `woovi.json`), mostly with 400 —
 * an unknown charge included — and has no machine-readable codes, so the table matches messages.
 * Message patterns are checked before the status.
 */
export const WOOVI_MESSAGE_RULES: readonly { pattern: RegExp; rule: ErrorRule; name: string }[] = [
  { name: 'not_found', pattern: /n[ãa]o encontrad|not found/i, rule: rule('not_found', 'not_found', false) },
  { name: 'correlation_id_in_use', pattern: /correlationID/i, rule: rule('rejected', 'provider_rejected', false) },
  { name: 'invalid_app_id', pattern: /appID|app id/i, rule: rule('invalid_credentials', 'invalid_credentials', true) },
  { name: 'feature_disabled', pattern: /not enabled for your company/i, rule: rule('invalid_credentials', 'invalid_credentials', true) },
];

/** The message of a Woovi error body. */
export function errorMessage(body: unknown): string | undefined {
  const error = (body as Partial<WooviErrorBody> | undefined)?.error;
  return typeof error === 'string' ? error : undefined;
}

/**
 * A create refused for its split (a Pix key that is no subaccount of the account, parts above the
 * charge): about our request, so `rejected` naming `splits`, whatever the message's wording would
 * otherwise map to ("não encontrada" reads as not_found elsewhere). Undefined for other refusals.
 */
export function splitRefusal(status: number, body: unknown, withSplits: boolean): ProviderError | undefined {
  const message = errorMessage(body) ?? '';
  if (!withSplits || status !== 400 || !/subconta|split/i.test(message)) return undefined;
  return new ProviderError('rejected', 'provider_rejected', `woovi create charge: HTTP ${status}: ${message}`, status, { name: 'splits', publicMessage: `A Woovi recusou a divisão do pagamento: ${message}.` });
}

/** Whether a create was refused because the correlationID already names a charge of this account. */
export function isCorrelationIdInUse(status: number, body: unknown): boolean {
  return status === 400 && /correlationID/i.test(errorMessage(body) ?? '') && /j[áa] existe|already|em uso|in use/i.test(errorMessage(body) ?? '');
}

/**
 * The rule for an HTTP error answer. 429 and 5xx never reach
 * this table: the wire table (http/transport-errors.ts) classifies them by operation and method.
 */
export function ruleForHttpError(status: number, body: unknown): ErrorRule {
  if (status === 401) return rule('invalid_credentials', 'invalid_credentials', true);
  const message = errorMessage(body) ?? '';
  const known = WOOVI_MESSAGE_RULES.find((r) => r.pattern.test(message));
  if (known) return known.rule;
  // 403: the AppID lacks the scope or the feature ("This feature is not enabled for your company").
  if (status === 403) return rule('invalid_credentials', 'invalid_credentials', true);
  if (status === 404) return rule('not_found', 'not_found', false);
  return rule('rejected', 'provider_rejected', false);
}

export function providerErrorFor(status: number, body: unknown, operation: string): ProviderError {
  const { kind, code } = ruleForHttpError(status, body);
  const message = errorMessage(body);
  return new ProviderError(kind, code, `woovi ${operation}: HTTP ${status}${message ? `: ${message}` : ''}`, status);
}
