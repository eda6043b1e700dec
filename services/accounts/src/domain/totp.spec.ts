import { newTotpSecret, totpCode, totpUrl, verifyTotp } from './totp';

describe('TOTP second factor', () => {
  const secret = newTotpSecret();
  const t = 1_800_000_000;

  it('accepts the current code and one step either side, and answers its time step', () => {
    expect(verifyTotp(secret, totpCode(secret, t), t)).toBe(Math.floor(t / 30));
    expect(verifyTotp(secret, totpCode(secret, t - 30), t)).toBe(Math.floor(t / 30) - 1);
    expect(verifyTotp(secret, totpCode(secret, t + 30), t)).toBe(Math.floor(t / 30) + 1);
  });

  it('refuses old codes, another secret, and text that is not 6 digits', () => {
    expect(verifyTotp(secret, totpCode(secret, t - 120), t)).toBeUndefined();
    expect(verifyTotp(newTotpSecret(), totpCode(secret, t), t)).toBeUndefined();
    expect(verifyTotp(secret, '12345', t)).toBeUndefined();
    expect(verifyTotp(secret, 'abcdef', t)).toBeUndefined();
  });

  it('gives an otpauth URL authenticator apps read', () => {
    expect(totpUrl(secret, 'dono@loja.com')).toBe(`otpauth://totp/Orquestra:dono%40loja.com?secret=${secret}&issuer=Orquestra`);
  });
});
