/**
 * Asaas webhooks: which events we subscribe to, how a delivery is authenticated and what it names.
 * Asaas does not sign bodies: it sends back the `authToken` we chose at registration in the
 * `asaas-access-token` header (docs.asaas.com "Criar novo Webhook pela aplicação web"). It documents
 * no timestamp and retries for days, so there is no replay window; replays dedupe by event id.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseJsonExact } from './asaas.json';
import { CHARGEBACK_EVENTS } from './asaas.chargebacks';
import { AUTHORIZATION_EVENTS } from './asaas.recurrences.transformers';
import { webhookObject } from '../webhook-body';
import { TRANSFER_EVENTS, transferOfEvent } from './asaas.transfers';
import { ACCOUNT_STATUS_EVENTS, subaccountOfEvent } from './asaas.subaccounts';

export const WEBHOOK_EVENTS = [
  'PAYMENT_RECEIVED',
  'PAYMENT_CONFIRMED',
  'PAYMENT_OVERDUE',
  'PAYMENT_DELETED',
  'PAYMENT_RESTORED',
  'PAYMENT_REFUNDED',
  'PAYMENT_PARTIALLY_REFUNDED',
  'PAYMENT_REFUND_IN_PROGRESS',
  'PAYMENT_RECEIVED_IN_CASH_UNDONE',
  // Card chargebacks (asaas.chargebacks.ts): received, in dispute, won awaiting the acquirer.
  ...CHARGEBACK_EVENTS,
  'PAYMENT_UPDATED',
  // Card on the hosted invoice page: refused by the issuer or by Asaas's risk analysis.
  'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED',
  'PAYMENT_REPROVED_BY_RISK_ANALYSIS',
  // Pix Automático authorizations (asaas.recurrences.transformers.ts); their cycles are PAYMENT_* events,
  // PAYMENT_CREATED included: a cycle Asaas creates itself is known only by it.
  ...AUTHORIZATION_EVENTS,
  'PAYMENT_CREATED',
  // Transfers out (asaas.transfers.ts): each status change of a payout.
  ...TRANSFER_EVENTS,
  // Subaccounts' approval (asaas.subaccounts.ts): sent to the root account, naming the subaccount.
  ...ACCOUNT_STATUS_EVENTS,
] as const;

export const AUTH_TOKEN_HEADER = 'asaas-access-token';

/** 64 URL-safe characters (Asaas wants 32–255, no spaces). */
export function newAuthToken(): string {
  return randomBytes(48).toString('base64url');
}

/** Constant-time comparison; hashing first keeps differing lengths from leaking. */
export function sameSecret(candidate: string | undefined, expected: string | undefined): boolean {
  if (!candidate || !expected) return false;
  const a = createHash('sha256').update(candidate).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * `payment` is the event's payment object as sent (chargebacks are read from it); `transfer` what a
 * `TRANSFER_*` event names; `subaccount` the Asaas account id an `ACCOUNT_STATUS_*` event names.
 */
export type ParsedAsaasWebhook =
  | { kind: 'event'; eventId: string; event: string; paymentIds: string[]; payment?: unknown; transfer?: { providerTransferId: string; payoutId?: string }; subaccount?: string }
  | { kind: 'malformed' };

/**
 * `{id:"evt_…", event, dateCreated, payment:{id,…}}`. `PAYMENT_*` events must carry the payment's
 * id, `TRANSFER_*` events the transfer's, `ACCOUNT_STATUS_*` events the subaccount's; events about
 * other resources (invoices, …) are accepted and name no charge.
 */
export function parseAsaasWebhookBody(rawBody: Buffer): ParsedAsaasWebhook {
  const body = webhookObject(rawBody, parseJsonExact);
  if (!body) return { kind: 'malformed' };
  const { id, event, payment } = body as { id?: unknown; event?: unknown; payment?: unknown };
  if (typeof id !== 'string' || id.length === 0 || typeof event !== 'string' || event.length === 0) return { kind: 'malformed' };
  if (event.startsWith('TRANSFER_')) {
    const transfer = transferOfEvent(body);
    return transfer ? { kind: 'event', eventId: id, event, paymentIds: [], transfer } : { kind: 'malformed' };
  }
  if (event.startsWith('ACCOUNT_STATUS_')) {
    const subaccount = subaccountOfEvent(body);
    return subaccount ? { kind: 'event', eventId: id, event, paymentIds: [], subaccount } : { kind: 'malformed' };
  }
  if (!event.startsWith('PAYMENT_')) return { kind: 'event', eventId: id, event, paymentIds: [] };
  const paymentId = (payment as { id?: unknown } | null | undefined)?.id;
  if (typeof paymentId !== 'string' || paymentId.length === 0) return { kind: 'malformed' };
  return { kind: 'event', eventId: id, event, paymentIds: [paymentId], payment };
}
