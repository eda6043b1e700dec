import { cardFingerprint } from './fingerprint';

describe('cardFingerprint', () => {
  const key = 'k'.repeat(32);
  it('is stable per number and merchant, differs across merchants, numbers and keys, and does not contain the number', () => {
    const a = cardFingerprint(key, 'acct_a', '4111111111111111');
    expect(a).toBe(cardFingerprint(key, 'acct_a', '4111111111111111'));
    expect(a).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(cardFingerprint(key, 'acct_b', '4111111111111111')).not.toBe(a);
    expect(cardFingerprint(key, 'acct_a', '5555555555554444')).not.toBe(a);
    expect(cardFingerprint('x'.repeat(32), 'acct_a', '4111111111111111')).not.toBe(a);
    expect(a).not.toContain('1111');
  });
});
