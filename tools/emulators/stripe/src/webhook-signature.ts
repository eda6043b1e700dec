/**
 * Stripe's webhook signature (docs.stripe.com/webhooks#verify-manually; stripe-node Webhooks.ts):
 * `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(endpoint secret, "<t>.<raw body>")>`.
 * In test mode Stripe adds a `v0=` signature made with a different secret, which receivers must
 * ignore (only `v1` counts); the emulator does the same so a verifier that accepts any scheme fails.
 */
import { createHmac, randomBytes } from 'node:crypto';

export function computeSignature(secret: string, timestamp: number, payload: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
}

export function signatureHeader(secret: string, timestamp: number, payload: string, livemode: boolean): string {
  const v1 = `t=${timestamp},v1=${computeSignature(secret, timestamp, payload)}`;
  return livemode ? v1 : `${v1},v0=${computeSignature(randomBytes(24).toString('hex'), timestamp, payload)}`;
}
