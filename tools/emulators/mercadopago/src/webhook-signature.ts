/**
 * Mercado Pago's webhook signature: header `x-signature: ts=<ms>,v1=<hex>` where v1 =
 * HMAC-SHA256(secret, "id:<data.id>;request-id:<x-request-id>;ts:<ts>;"). `data.id` is the query
 * parameter, lower-cased when alphanumeric; a part whose value is absent is left out of the
 * manifest (docs "Webhooks > validar origem"; mercadopago/sdk-nodejs src/utils/webhook).
 */
import { createHmac } from 'node:crypto';

export function signatureManifest(dataId: string | undefined, requestId: string | undefined, ts: string): string {
  return `${dataId ? `id:${dataId.toLowerCase()};` : ''}${requestId ? `request-id:${requestId};` : ''}ts:${ts};`;
}

export function signatureHeader(secret: string, dataId: string | undefined, requestId: string | undefined, at: Date): string {
  const ts = String(at.getTime());
  const v1 = createHmac('sha256', secret).update(signatureManifest(dataId, requestId, ts)).digest('hex');
  return `ts=${ts},v1=${v1}`;
}
