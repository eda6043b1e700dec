/**
 * Pagar.me webhook bodies → the charge ids they name and a key that dedupes Pagar.me's retries.
 * Authenticity is the secret in the URL (pagarme.adapter.ts); the body is only a hint.
 */
import { createHash } from 'node:crypto';
import { webhookObject } from '../webhook-body';

/** `recipient`: what a `recipient.updated` names, the recipient's id and its `code` (our subaccount id, when we made it). */
export type ParsedPagarmeWebhook =
  | { kind: 'event'; type: string; chargeIds: string[]; eventKey: string; recipient?: { providerSubaccountId: string; subaccountId?: string } }
  | { kind: 'malformed' };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{id:"hook_…", account:{id,name}, type, created_at, data}`: `data` is the order for `order.*`
 * (charges in `data.charges[]`), the charge for `charge.*` and the recipient for `recipient.updated`
 * (a subaccount's status change). Other events (customers, …) name nothing. The hook id stays the same across Pagar.me's retries, so it is the event key;
 * without one, a digest of the body is.
 */
export function parsePagarmeWebhookBody(rawBody: Buffer): ParsedPagarmeWebhook {
  const body = webhookObject(rawBody);
  if (!body || typeof body['type'] !== 'string' || !isObject(body['data'])) return { kind: 'malformed' };
  const type = body['type'];
  const data = body['data'];
  const hookId = typeof body['id'] === 'string' && body['id'].length > 0 ? body['id'] : undefined;
  const eventKey = `pagarme:${hookId ?? createHash('sha256').update(rawBody).digest('hex').slice(0, 32)}`;
  let chargeIds: string[] = [];
  if (type.startsWith('charge.')) {
    if (typeof data['id'] !== 'string') return { kind: 'malformed' };
    chargeIds = [data['id']];
  } else if (type.startsWith('order.')) {
    const charges = data['charges'];
    if (charges !== undefined && !Array.isArray(charges)) return { kind: 'malformed' };
    chargeIds = (charges ?? []).flatMap((c: unknown) => (isObject(c) && typeof c['id'] === 'string' ? [c['id']] : []));
  } else if (type === 'recipient.updated') {
    if (typeof data['id'] !== 'string' || data['id'].length === 0) return { kind: 'malformed' };
    const code = data['code'];
    return { kind: 'event', type, chargeIds, eventKey, recipient: { providerSubaccountId: data['id'], ...(typeof code === 'string' && code.length > 0 ? { subaccountId: code } : {}) } };
  }
  return { kind: 'event', type, chargeIds, eventKey };
}
