import { checkNewPassword, hashPassword, PASSWORD_KDF, verifyPassword } from './password';

describe('owner passwords (argon2id)', () => {
  it('round-trips: the right password verifies, any other does not', async () => {
    const stored = await hashPassword('orquestra-dev-123');
    expect(await verifyPassword(stored, 'orquestra-dev-123')).toBe(true);
    expect(await verifyPassword(stored, 'orquestra-dev-124')).toBe(false);
    expect(await verifyPassword('not a hash', 'orquestra-dev-123')).toBe(false);
  });

  it('stores argon2id with OWASP parameters (19 MiB, 2 passes, 1 lane) and a fresh salt each time', async () => {
    expect(PASSWORD_KDF).toMatchObject({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    const a = await hashPassword('same password!');
    const b = await hashPassword('same password!');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('same password');
  });

  it('refuses passwords shorter than 10 or longer than 200 characters, with param', () => {
    expect(checkNewPassword('a'.repeat(10))).toBe('a'.repeat(10));
    for (const bad of ['short', 'a'.repeat(201)]) {
      expect(() => checkNewPassword(bad)).toThrow(expect.objectContaining({ code: 'parameter_invalid', param: 'password' }));
    }
  });
});
