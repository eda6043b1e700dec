import { createHash } from 'node:crypto';
import { brazilianPhoneDigits, hashedEmail, metaHashedPhone, metaPhone, normalizeEmail, sha256Hex, tiktokHashedPhone, tiktokPhone } from './normalize';

// Expected hashes are computed here from literal normalized strings, independently of the code under test.
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('normalize and hash', () => {
  it('hashes to 64 lowercase hex characters (known vector)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('e-mail: trimmed and lowercased before hashing', () => {
    expect(normalizeEmail('  Maria.Silva@Example.COM ')).toBe('maria.silva@example.com');
    expect(hashedEmail('  Maria.Silva@Example.COM ')).toBe(sha('maria.silva@example.com'));
    expect(normalizeEmail('   ')).toBeNull();
    expect(hashedEmail(null)).toBeNull();
  });

  it.each([
    ['+55 (11) 98765-4321', '5511987654321'],
    ['11987654321', '5511987654321'],
    ['(011) 98765-4321', '5511987654321'],
    ['+55 (011) 98765-4321', '5511987654321'],
    ['0055 11 98765 4321', '5511987654321'],
    ['(21) 3456-7890', '552134567890'],
    ['(55) 99123-4567', '5555991234567'],
  ])('Meta phone %s → %s (digits, country code, no + or leading zeros)', (raw, normalized) => {
    expect(metaPhone(raw)).toBe(normalized);
    expect(metaHashedPhone(raw)).toBe(sha(normalized));
  });

  it('TikTok phone is E.164 with +, so its hash differs from Meta’s', () => {
    expect(tiktokPhone('(11) 98765-4321')).toBe('+5511987654321');
    expect(tiktokHashedPhone('(11) 98765-4321')).toBe(sha('+5511987654321'));
    expect(tiktokHashedPhone('(11) 98765-4321')).not.toBe(metaHashedPhone('(11) 98765-4321'));
  });

  it('a phone that is not Brazilian-shaped is not sent (null), never hashed wrong', () => {
    expect(brazilianPhoneDigits('12345')).toBeNull();
    expect(brazilianPhoneDigits('+1 415 555 2671 99')).toBeNull();
    expect(metaHashedPhone('')).toBeNull();
    expect(tiktokHashedPhone(null)).toBeNull();
  });
});
