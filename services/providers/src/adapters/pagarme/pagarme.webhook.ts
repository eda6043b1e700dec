/**
 * Pagar.me webhook bodies → the charge ids they name and a key that dedupes Pagar.me's retries.
 * Authenticity is the secret in the URL (pagarme.adapter.ts); the body is only a hint.
 */
import { createHash } from 'node:crypto';
import { webhookObject } from '../webhook-body';

export type ParsedPagarmeWebhook = { kind: 'event'; type: string; chargeIds: string[]; eventKey: string } | { kind: 'malformed' };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `{id:"hook_…", account:{id,name}, type, created_at, data}`: `data` is the order for `order.*`
 * (charges in `data.charges[]`) and the charge for `charge.*`. Other events (customers, recipients…)
 * name no charge. The hook id stays the same across Pagar.me's retries, so it is the event key;
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
  }
  return { kind: 'event', type, chargeIds, eventKey };
}
