/**
 * Efí webhook bodies (`POST <url>/pix`, Banco Central API Pix) → the txids they name and a key
 * that dedupes Efí's retries. Authenticity is the secret in the URL (efi.adapter.ts).
 */
import { createHash } from 'node:crypto';
import { webhookObject } from '../webhook-body';

export type ParsedEfiWebhook =
  | { kind: 'pix'; txids: string[]; eventKey: string }
  | { kind: 'registration_test'; eventKey: string }
  | { kind: 'malformed' };

/**
 * Efí posts `{"pix":[{endToEndId, txid, chave, valor, horario, …}]}` (possibly several items, and
 * again with `devolucoes` when a refund settles), and `{"evento":"teste_webhook"}` once when the
 * URL is registered. The event key identifies the content, so Efí's retries of one notification
 * dedupe while a later refund notification of the same Pix does not.
 */
export function parseEfiWebhookBody(rawBody: Buffer): ParsedEfiWebhook {
  const body = webhookObject(rawBody);
  if (!body) return { kind: 'malformed' };
  const { pix, evento } = body as { pix?: unknown; evento?: unknown };
  if (pix === undefined && evento === 'teste_webhook') return { kind: 'registration_test', eventKey: 'efi:teste_webhook' };
  if (!Array.isArray(pix) || pix.length === 0) return { kind: 'malformed' };
  const identities: string[] = [];
  const txids = new Set<string>();
  for (const item of pix as unknown[]) {
    if (typeof item !== 'object' || item === null) return { kind: 'malformed' };
    const { endToEndId, txid, devolucoes } = item as { endToEndId?: unknown; txid?: unknown; devolucoes?: unknown };
    if (typeof endToEndId !== 'string' || endToEndId.length === 0) return { kind: 'malformed' };
    if (txid !== undefined && typeof txid !== 'string') return { kind: 'malformed' };
    if (typeof txid === 'string' && txid.length > 0) txids.add(txid);
    const refunds = Array.isArray(devolucoes)
      ? devolucoes.map((d) => `${String((d as { id?: unknown }).id)}:${String((d as { status?: unknown }).status)}`).sort().join(',')
      : '';
    identities.push(`${endToEndId}|${txid ?? ''}|${refunds}`);
  }
  const digest = createHash('sha256').update(identities.sort().join('\n')).digest('hex').slice(0, 32);
  return { kind: 'pix', txids: [...txids], eventKey: `efi:pix:${digest}` };
}
