/**
 * Card chargebacks, as Mercado Pago reports them (`GET /v1/chargebacks/{id}`): one per card payment
 * here, opened and decided through the control port (the cardholder's bank and Mercado Pago's
 * review do this in reality), each change announced by a `chargebacks` notification naming the
 * chargeback id only. Fields follow the API reference of the chargeback: `id` (digit string),
 * `payments[]`, `currency`, `amount` (reais), `reason`, `coverage_applied` (null until decided; true =
 * decided for the seller), `coverage_elegible`, `documentation_required`, `documentation_status`
 * (pending|review_pending|valid|invalid|not_supplied|not_applicable), `documentation[]`,
 * `date_documentation_deadline`, `date_created`, `date_last_updated`, `live_mode`.
 * Simplification: the payment's own status is left as it is (Mercado Pago may show it
 * `charged_back` or `in_mediation`; psp-apis.md does not say when).
 */
import { randomInt } from 'node:crypto';
import type { StoredPayment } from './emulator-state';
import { MpApiError } from './mp-errors';
import { centsToReais, mpDate } from './mp-format';

export type DocumentationStatus = 'pending' | 'review_pending' | 'valid' | 'invalid' | 'not_supplied' | 'not_applicable';

export interface StoredChargeback {
  id: string;
  paymentId: number;
  amountCents: number;
  reason: string;
  coverageApplied: boolean | null;
  documentationStatus: DocumentationStatus;
  createdAt: Date;
  updatedAt: Date;
  deadline: Date;
  /** What the seller uploaded (`POST /v1/chargebacks/{id}/documentation`). */
  documents?: StoredDocument[];
}

/** Mercado Pago's answer window for documents in the emulator: 10 days. */
const DOCUMENTATION_DAYS = 10;

/** An 18-digit id like Mercado Pago's (`234000062890459000`). */
export function newChargebackId(): string {
  return `2340000${String(randomInt(10 ** 11)).padStart(11, '0')}`;
}

/**
 * Opens the chargeback of an approved card payment: the whole amount unless `amountCents` says
 * less. One per payment; another is a conflict (the caller answers 409).
 */
export function openChargeback(payment: StoredPayment, options: { amountCents?: number; reason?: string }, now: Date): StoredChargeback {
  if ((payment.request.kind ?? 'pix') !== 'card') throw new RangeError(`payment ${payment.id} is not a card payment`);
  if (payment.status !== 'approved') throw new RangeError(`payment ${payment.id} is ${payment.status}, not approved`);
  if (payment.chargeback) throw new RangeError(`payment ${payment.id} already has chargeback ${payment.chargeback.id}`);
  const amountCents = options.amountCents ?? payment.request.amountCents;
  if (amountCents > payment.request.amountCents) throw new RangeError(`chargeback of ${amountCents} cents exceeds the payment's ${payment.request.amountCents}`);
  const chargeback: StoredChargeback = {
    id: newChargebackId(),
    paymentId: payment.id,
    amountCents,
    reason: options.reason ?? 'general',
    coverageApplied: null,
    documentationStatus: 'pending',
    createdAt: now,
    updatedAt: now,
    deadline: new Date(now.getTime() + DOCUMENTATION_DAYS * 86_400_000),
  };
  payment.chargeback = chargeback;
  return chargeback;
}

/** Decides an undecided chargeback: won (coverage applied) or lost; a decided one is a conflict. */
export function decideChargeback(chargeback: StoredChargeback, outcome: 'won' | 'lost', now: Date): StoredChargeback {
  if (chargeback.coverageApplied !== null) throw new RangeError(`chargeback ${chargeback.id} is already decided`);
  chargeback.coverageApplied = outcome === 'won';
  // Documents never sent by the deadline read not_supplied; sent ones were judged.
  if (chargeback.documentationStatus === 'pending') chargeback.documentationStatus = outcome === 'won' ? 'not_applicable' : 'not_supplied';
  else if (chargeback.documentationStatus === 'review_pending') chargeback.documentationStatus = outcome === 'won' ? 'valid' : 'invalid';
  chargeback.updatedAt = now;
  return chargeback;
}

/** A received file (its bytes are not kept). */
export interface StoredDocument {
  type: string;
  description: string;
  bytes: number;
}

const FILE_TYPES = ['application/pdf', 'image/jpeg', 'image/png'];

/**
 * The seller's documents: every `files[]` part of the multipart body must be a .pdf, .jpg or .png
 * (by its Content-Type, and a PDF must start with `%PDF-`); the chargeback must be undecided, still
 * awaiting documents and inside its deadline. Then `documentation_status` is `review_pending`.
 */
export function receiveDocumentation(chargeback: StoredChargeback, body: Buffer, boundary: string, now: Date): StoredChargeback {
  if (chargeback.coverageApplied !== null) throw new RangeError('chargeback already decided');
  if (chargeback.documentationStatus !== 'pending') throw new RangeError(`documentation is ${chargeback.documentationStatus}`);
  if (now.getTime() > chargeback.deadline.getTime()) throw new RangeError('documentation deadline passed');
  const files: StoredDocument[] = [];
  for (const part of body.toString('latin1').split(`--${boundary}`).slice(1)) {
    if (part.startsWith('--')) break;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) throw new RangeError('malformed multipart part');
    const head = part.slice(0, split);
    const content = part.slice(split + 4).replace(/\r\n$/, '');
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    const filename = /filename="([^"]*)"/i.exec(head)?.[1] ?? '';
    const type = /content-type:\s*([^\r\n;]+)/i.exec(head)?.[1]?.trim().toLowerCase() ?? '';
    if (name !== 'files[]') continue;
    if (!FILE_TYPES.includes(type)) throw new RangeError(`file ${filename} is not .jpg, .png or .pdf`);
    if (type === 'application/pdf' && !content.startsWith('%PDF-')) throw new RangeError(`file ${filename} is not a PDF`);
    files.push({ type, description: filename, bytes: content.length });
  }
  if (files.length === 0) throw new RangeError('no files[] in the upload');
  chargeback.documents = [...(chargeback.documents ?? []), ...files];
  chargeback.documentationStatus = 'review_pending';
  chargeback.updatedAt = now;
  return chargeback;
}

export function chargebackJson(chargeback: StoredChargeback) {
  return {
    id: chargeback.id,
    payments: [chargeback.paymentId],
    currency: 'BRL',
    amount: centsToReais(chargeback.amountCents),
    reason: chargeback.reason,
    coverage_applied: chargeback.coverageApplied,
    coverage_elegible: true,
    documentation_required: true,
    documentation_status: chargeback.documentationStatus,
    documentation: (chargeback.documents ?? []).map((d, i) => ({ type: d.type, url: `https://www.mercadopago.com.br/chargebacks/${chargeback.id}/documents/${i + 1}`, description: d.description })),
    date_documentation_deadline: mpDate(chargeback.deadline),
    date_created: mpDate(chargeback.createdAt),
    date_last_updated: mpDate(chargeback.updatedAt),
    live_mode: false,
  };
}

export const chargebackNotFound = () => new MpApiError({ message: 'Chargeback not found', error: 'not_found', status: 404, cause: [] });
