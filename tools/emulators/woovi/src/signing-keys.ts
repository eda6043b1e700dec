/**
 * Woovi signs every webhook body with its RSA private key: `x-webhook-signature` is
 * base64(RSA-SHA256 PKCS#1 v1.5) over the raw body, verified with Woovi's public key
 * (docs "Validando Webhook payload usando SHA 256"; `GET /api/v1/webhook/public-keys`). The
 * emulator makes its own key pair at start, or uses a given private key so restarts keep it.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export class SigningKeys {
  readonly publicKeyPem: string;
  readonly #privateKey: KeyObject;

  constructor(privateKeyPem?: string) {
    if (privateKeyPem) {
      this.#privateKey = createPrivateKey(privateKeyPem);
    } else {
      this.#privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    }
    this.publicKeyPem = createPublicKey(this.#privateKey).export({ type: 'spki', format: 'pem' }).toString();
  }

  /** The `x-webhook-signature` value for these exact bytes. */
  signature(body: Buffer): string {
    return sign('sha256', body, this.#privateKey).toString('base64');
  }
}
