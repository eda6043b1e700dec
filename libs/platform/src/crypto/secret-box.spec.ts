import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

const keySpec = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;

describe('SecretBox', () => {
  it('round-trips and never stores the plaintext', () => {
    const box = SecretBox.fromConfig(keySpec('k1'));
    const sealed = box.seal('client_secret_123');
    expect(JSON.stringify(sealed)).not.toContain('client_secret_123');
    expect(box.open(sealed)).toBe('client_secret_123');
  });

  it('uses a fresh IV every time', () => {
    const box = SecretBox.fromConfig(keySpec('k1'));
    expect(box.seal('same').data).not.toBe(box.seal('same').data);
  });

  it('opens secrets sealed with an older key after rotation and seals with the new one', () => {
    const old = keySpec('k1');
    const sealedOld = SecretBox.fromConfig(old).seal('v');
    const rotated = SecretBox.fromConfig(`${keySpec('k2')},${old}`);
    expect(rotated.open(sealedOld)).toBe('v');
    expect(rotated.needsReseal(sealedOld)).toBe(true);
    expect(rotated.seal('v').key_id).toBe('k2');
  });

  it('refuses tampered data and unknown keys', () => {
    const box = SecretBox.fromConfig(keySpec('k1'));
    const sealed = box.seal('v');
    const tampered = { ...sealed, data: Buffer.from('x').toString('base64') };
    expect(() => box.open(tampered)).toThrow();
    expect(() => SecretBox.fromConfig(keySpec('k9')).open(sealed)).toThrow(/k1/);
  });

  it('rejects malformed key configuration', () => {
    expect(() => SecretBox.fromConfig('')).toThrow();
    expect(() => SecretBox.fromConfig('k1:c2hvcnQ=')).toThrow(/32 bytes/);
  });
});
