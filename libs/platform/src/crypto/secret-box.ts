import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** A value encrypted at rest: AES-256-GCM, tagged with the id of the key that sealed it. */
export interface SealedSecret {
  key_id: string;
  iv: string;
  tag: string;
  data: string;
}

/**
 * Encrypts and decrypts secrets at rest (provider credentials, webhook secrets) with AES-256-GCM.
 *
 * Keys come from config as `"<id>:<base64 of 32 bytes>"` entries separated by commas; the FIRST
 * key seals new secrets, every listed key can open old ones. Rotation: prepend a new key, restart,
 * re-seal stored secrets (each service's rotation job or a reconnect), then drop the old key.
 *
 * @example
 * const box = SecretBox.fromConfig('k2:BASE64…,k1:BASE64…');
 * const sealed = box.seal(JSON.stringify(credentials));
 * const plain = box.open(sealed);
 */
export class SecretBox {
  private constructor(private readonly keys: Map<string, Buffer>, private readonly currentId: string) {}

  static fromConfig(spec: string): SecretBox {
    const keys = new Map<string, Buffer>();
    let currentId: string | undefined;
    for (const entry of spec.split(',').map((part) => part.trim()).filter(Boolean)) {
      const separator = entry.indexOf(':');
      const id = entry.slice(0, separator);
      const key = Buffer.from(entry.slice(separator + 1), 'base64');
      if (separator <= 0 || key.length !== 32) {
        throw new Error('Encryption keys must be "<id>:<base64 of 32 bytes>" entries separated by commas');
      }
      keys.set(id, key);
      currentId ??= id;
    }
    if (!currentId) throw new Error('At least one encryption key is required');
    return new SecretBox(keys, currentId);
  }

  seal(plaintext: string): SealedSecret {
    const key = this.keys.get(this.currentId)!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return { key_id: this.currentId, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  }

  open(sealed: SealedSecret): string {
    const key = this.keys.get(sealed.key_id);
    if (!key) throw new Error(`Encryption key ${sealed.key_id} is not configured; it is needed to read this secret`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString('utf8');
  }

  /** True when the secret was sealed with an older key and should be re-sealed. */
  needsReseal(sealed: SealedSecret): boolean {
    return sealed.key_id !== this.currentId;
  }
}
