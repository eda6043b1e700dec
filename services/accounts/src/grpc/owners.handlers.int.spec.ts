import { accounts, common, owners } from '@orquestra/contracts';
import { connectDatabase, ensureIndexes, SecretBox, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { registerAccountsModels } from '../db/accounts.models';
import { AuditStore } from '../db/audit.store';
import { registerOwnerModels } from '../db/owner.models';
import { SignInLimiter } from '../db/sign-in-limiter';
import { totpCode } from '../domain/totp';
import { accountsHandlers } from './accounts.handlers';
import { ownersHandlers } from './owners.handlers';

jest.setTimeout(60_000);

const { SignInOutcome } = owners;
const ctx = {} as never;
const PASSWORD = 'senha-muito-boa-1';

/** One accounts replica: its own connection to the shared store, its own handlers. */
const OLD_KEY = `t1:${randomBytes(32).toString('base64')}`;

async function replica(url: string, dbName: string, limits = { windowMs: 60_000, maxPerEmail: 8, maxPerIp: 1_000 }, sealKeys = OLD_KEY) {
  const db = await connectDatabase({ url, dbName, logger: pino({ level: 'silent' }) });
  const models = { ...registerAccountsModels(db), ...registerOwnerModels(db) };
  await ensureIndexes(db);
  const audit = new AuditStore(models.audit);
  const revoked: string[] = [];
  const keys = accountsHandlers(models, { audit, onKeyRevoked: async ({ key_id }) => void revoked.push(key_id) });
  const box = SecretBox.fromConfig(sealKeys);
  const rpc = ownersHandlers({ models, box, limiter: new SignInLimiter(models.signInCounters, limits), audit, sessionTtlHours: 12 });
  return { db, models, rpc, keys, revoked };
}

describe('owners against the real store', () => {
  let url: string;
  let dbName: string;
  let a: Awaited<ReturnType<typeof replica>>;
  let b: Awaited<ReturnType<typeof replica>>;
  let rpc: Handlers<typeof owners.OwnersServiceService>;

  beforeAll(async () => {
    url = (await ensureTestInfra()).mongoUrl;
    dbName = `${uniqueDbPrefix('owners')}accounts`;
    a = await replica(url, dbName);
    b = await replica(url, dbName);
    rpc = a.rpc;
  });
  afterAll(async () => {
    await b.db.close();
    await dropTestDatabase(a.db);
  });

  it('signs up a merchant with its owner and a session the token of which is never stored', async () => {
    const up = await rpc.signUp({ merchant_name: ' Loja do Zé ', email: 'Ze@Loja.com', password: PASSWORD, ip: '10.0.0.1' }, ctx);
    expect(up.owner).toMatchObject({ email: 'ze@loja.com', totp_enabled: false });
    expect(up.merchant).toMatchObject({ name: 'Loja do Zé', email: 'ze@loja.com', id: up.owner!.merchant_id });
    const token = up.session!.token;
    expect(JSON.stringify(await a.models.sessions.find().lean())).not.toContain(token);
    const me = await b.rpc.authenticateSession({ token }, ctx);
    expect(me.owner!.id).toBe(up.owner!.id);
    expect(me.merchant!.name).toBe('Loja do Zé');
    const stored = await a.models.owners.findById(up.owner!.id).lean();
    expect(stored!.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('makes one owner and one merchant when the same e-mail signs up twice at once', async () => {
    const attempts = await Promise.allSettled(
      [a, b, a, b].map((r) => r.rpc.signUp({ merchant_name: 'Corrida', email: 'corrida@loja.com', password: PASSWORD, ip: '' }, ctx)),
    );
    expect(attempts.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const refused of attempts.filter((r) => r.status === 'rejected')) {
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'parameter_invalid', param: 'email' });
    }
    expect(await a.models.owners.countDocuments({ email: 'corrida@loja.com' })).toBe(1);
    expect(await a.models.merchants.countDocuments({ email: 'corrida@loja.com' })).toBe(1);
  });

  it('refuses bad sign-up input in Portuguese with param', async () => {
    await expect(rpc.signUp({ merchant_name: '', email: 'x@y.com', password: PASSWORD, ip: '' }, ctx)).rejects.toMatchObject({ code: 'parameter_missing', param: 'merchant_name' });
    await expect(rpc.signUp({ merchant_name: 'L', email: 'nope', password: PASSWORD, ip: '' }, ctx)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'email' });
    await expect(rpc.signUp({ merchant_name: 'L', email: 'x@y.com', password: 'curta', ip: '' }, ctx)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'password' });
  });

  it('signs in, refuses a wrong password like an unknown e-mail, and logs both', async () => {
    const ok = await rpc.signIn({ email: 'ZE@loja.com', password: PASSWORD, totp_code: '', ip: '10.0.0.2' }, ctx);
    expect(ok.outcome).toBe(SignInOutcome.SIGN_IN_OUTCOME_SIGNED_IN);
    expect(ok.session!.token).toHaveLength(43);
    const wrong = await rpc.signIn({ email: 'ze@loja.com', password: 'errada-errada', totp_code: '', ip: '10.0.0.2' }, ctx);
    const unknown = await rpc.signIn({ email: 'ninguem@loja.com', password: PASSWORD, totp_code: '', ip: '10.0.0.2' }, ctx);
    expect(wrong).toEqual({ outcome: SignInOutcome.SIGN_IN_OUTCOME_INVALID_CREDENTIALS, retry_after_seconds: 0 });
    expect(unknown).toEqual(wrong);
    const log = await rpc.listAudit({ merchant_id: ok.owner!.merchant_id, limit: 10, starting_after: '' }, ctx);
    expect(log.data.map((e) => e.action)).toEqual(['session.sign_in_failed', 'session.signed_in', 'owner.signed_up']);
    expect(log.data[0]).toMatchObject({ actor: 'ze@loja.com', ip: '10.0.0.2', target: ok.owner!.id });
  });

  it('rate-limits sign-in per e-mail across two replicas: exactly the limit passes, then Retry-After', async () => {
    await rpc.signUp({ merchant_name: 'Alvo', email: 'alvo@loja.com', password: PASSWORD, ip: '' }, ctx);
    const tries = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).rpc.signIn({ email: 'alvo@loja.com', password: 'chute-errado', totp_code: '', ip: `10.1.0.${i}` }, ctx)),
    );
    const limited = tries.filter((t) => t.outcome === SignInOutcome.SIGN_IN_OUTCOME_RATE_LIMITED);
    // 8 per e-mail: the sign-up took one, so 7 guesses get an answer and 5 wait.
    expect(tries.filter((t) => t.outcome === SignInOutcome.SIGN_IN_OUTCOME_INVALID_CREDENTIALS)).toHaveLength(7);
    expect(limited).toHaveLength(5);
    expect(limited[0]!.retry_after_seconds).toBeGreaterThan(0);
    expect(limited[0]!.retry_after_seconds).toBeLessThanOrEqual(60);
    // Even the right password waits out the window.
    expect((await rpc.signIn({ email: 'alvo@loja.com', password: PASSWORD, totp_code: '', ip: '10.1.1.1' }, ctx)).outcome).toBe(SignInOutcome.SIGN_IN_OUTCOME_RATE_LIMITED);
  });

  it('rate-limits per IP across replicas whatever the e-mails', async () => {
    const ipA = await replica(url, dbName, { windowMs: 60_000, maxPerEmail: 100, maxPerIp: 3 });
    const ipB = await replica(url, dbName, { windowMs: 60_000, maxPerEmail: 100, maxPerIp: 3 });
    try {
      const tries = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? ipA : ipB).rpc.signIn({ email: `spray${i}@loja.com`, password: 'x', totp_code: '', ip: '10.9.9.9' }, ctx)),
      );
      expect(tries.filter((t) => t.outcome === SignInOutcome.SIGN_IN_OUTCOME_RATE_LIMITED)).toHaveLength(3);
      // Sign-ups from that address are stopped too, in Portuguese, and make nothing.
      await expect(ipA.rpc.signUp({ merchant_name: 'Robô', email: 'robo@loja.com', password: PASSWORD, ip: '10.9.9.9' }, ctx)).rejects.toMatchObject({ code: 'rate_limited', message: expect.stringContaining('Aguarde') });
      expect(await ipA.models.owners.countDocuments({ email: 'robo@loja.com' })).toBe(0);
    } finally {
      await ipA.db.close();
      await ipB.db.close();
    }
  });

  it('signs out one session, or every session at once', async () => {
    const one = (await rpc.signIn({ email: 'ze@loja.com', password: PASSWORD, totp_code: '', ip: '' }, ctx)).session!.token;
    const two = (await rpc.signIn({ email: 'ze@loja.com', password: PASSWORD, totp_code: '', ip: '' }, ctx)).session!.token;
    const three = (await rpc.signIn({ email: 'ze@loja.com', password: PASSWORD, totp_code: '', ip: '' }, ctx)).session!.token;
    await rpc.signOut({ token: one, ip: '' }, ctx);
    await expect(rpc.authenticateSession({ token: one }, ctx)).rejects.toMatchObject({ code: 'unauthenticated' });
    const me = await rpc.authenticateSession({ token: two }, ctx);
    await b.rpc.revokeAllSessions({ actor: { owner_id: me.owner!.id, email: me.owner!.email, ip: '' } }, ctx);
    for (const token of [two, three]) await expect(rpc.authenticateSession({ token }, ctx)).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(rpc.authenticateSession({ token: 'garbage' }, ctx)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('turns TOTP on with a proved code, then demands it at sign-in, never accepting a code twice', async () => {
    const up = await rpc.signUp({ merchant_name: 'Segura', email: 'segura@loja.com', password: PASSWORD, ip: '' }, ctx);
    const actor = { owner_id: up.owner!.id, email: up.owner!.email, ip: '' };
    const { secret, otpauth_url } = await rpc.setupTotp({ actor }, ctx);
    expect(otpauth_url).toContain(secret);
    const stored = await a.models.owners.findById(up.owner!.id).lean();
    expect(JSON.stringify(stored)).not.toContain(secret);
    await expect(rpc.enableTotp({ actor, code: '000000' }, ctx)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'code' });
    const code = totpCode(secret);
    expect((await rpc.enableTotp({ actor, code }, ctx)).owner!.totp_enabled).toBe(true);
    const signIn = (totp_code: string) => rpc.signIn({ email: 'segura@loja.com', password: PASSWORD, totp_code, ip: '' }, ctx);
    expect((await signIn('')).outcome).toBe(SignInOutcome.SIGN_IN_OUTCOME_TOTP_REQUIRED);
    // The code that turned TOTP on is spent; the next step's code works once.
    expect((await signIn(code)).outcome).toBe(SignInOutcome.SIGN_IN_OUTCOME_TOTP_REQUIRED);
    const next = totpCode(secret, Math.floor(Date.now() / 1000) + 30);
    expect((await signIn(next)).outcome).toBe(SignInOutcome.SIGN_IN_OUTCOME_SIGNED_IN);
    expect((await signIn(next)).outcome).toBe(SignInOutcome.SIGN_IN_OUTCOME_TOTP_REQUIRED);
    const log = await rpc.listAudit({ merchant_id: up.merchant!.id, limit: 2, starting_after: '' }, ctx);
    expect(log.data.map((e) => e.action)).toEqual(['session.signed_in', 'totp.enabled']);
    expect(log.has_more).toBe(true);
  });

  it('seals a TOTP secret again with the newest key at the next sign-in after a key rotation', async () => {
    const up = await rpc.signUp({ merchant_name: 'Rotação', email: 'rotacao@loja.com', password: PASSWORD, ip: '' }, ctx);
    const actor = { owner_id: up.owner!.id, email: up.owner!.email, ip: '' };
    const { secret } = await rpc.setupTotp({ actor }, ctx);
    await rpc.enableTotp({ actor, code: totpCode(secret) }, ctx);
    expect((await a.models.owners.findById(actor.owner_id).lean())!.totp_secret!.key_id).toBe('t1');
    const rotated = await replica(url, dbName, undefined, `t2:${randomBytes(32).toString('base64')},${OLD_KEY}`);
    try {
      const next = totpCode(secret, Math.floor(Date.now() / 1000) + 30);
      const signedIn = await rotated.rpc.signIn({ email: 'rotacao@loja.com', password: PASSWORD, totp_code: next, ip: '' }, ctx);
      expect(signedIn.outcome).toBe(SignInOutcome.SIGN_IN_OUTCOME_SIGNED_IN);
      expect((await a.models.owners.findById(actor.owner_id).lean())!.totp_secret!.key_id).toBe('t2');
    } finally {
      await rotated.db.close();
    }
  });

  it('creates the seed owner of an existing merchant once, resetting its password when asked', async () => {
    const { merchant } = await a.keys.createMerchant({ name: 'Seed', email: 'loja-seed@orquestra.dev' }, ctx);
    const first = await rpc.createOwner({ merchant_id: merchant!.id, email: 'owner@seed.test', password: PASSWORD, reset_password: true }, ctx);
    const again = await b.rpc.createOwner({ merchant_id: merchant!.id, email: 'owner@seed.test', password: 'outra-senha-boa', reset_password: true }, ctx);
    expect(first.created).toBe(true);
    expect(again).toMatchObject({ created: false, owner: { id: first.owner!.id } });
    expect((await rpc.signIn({ email: 'owner@seed.test', password: 'outra-senha-boa', totp_code: '', ip: '' }, ctx)).outcome).toBe(SignInOutcome.SIGN_IN_OUTCOME_SIGNED_IN);
    await expect(rpc.createOwner({ merchant_id: 'acct_nope', email: 'x@seed.test', password: PASSWORD, reset_password: false }, ctx)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lists keys with creator and last use, logs create and revoke, and signals the revocation', async () => {
    const up = await rpc.signUp({ merchant_name: 'Chaves', email: 'chaves@loja.com', password: PASSWORD, ip: '' }, ctx);
    const merchant_id = up.merchant!.id;
    const actor = { owner_id: up.owner!.id, email: 'chaves@loja.com', ip: '10.3.3.3' };
    await expect(a.keys.createApiKey({ merchant_id, mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_RESTRICTED, name: ' ', actor }, ctx)).rejects.toMatchObject({ param: 'name' });
    const made = await a.keys.createApiKey({ merchant_id, mode: common.Mode.MODE_TEST, kind: accounts.KeyKind.KEY_KIND_RESTRICTED, name: 'bot', actor }, ctx);
    expect(made.key).toMatchObject({ name: 'bot', created_by: 'chaves@loja.com', last4: made.secret.slice(-4), kind: accounts.KeyKind.KEY_KIND_RESTRICTED });
    expect(made.key!.last_used_at).toBeUndefined();
    await Promise.all([a, b, a, b].map((r) => r.keys.authenticateKey({ secret: made.secret }, ctx)));
    let listed: accounts.ApiKey | undefined;
    // The last use is written in the background: polled for with a generous deadline.
    for (const deadline = Date.now() + 10_000; !listed?.last_used_at && Date.now() < deadline; ) {
      listed = (await a.keys.listApiKeys({ merchant_id, mode: common.Mode.MODE_TEST }, ctx)).keys[0];
      if (!listed?.last_used_at) await new Promise((r) => setTimeout(r, 50));
    }
    expect(listed!.last_used_at).toBeDefined();
    const firstUse = listed!.last_used_at;
    await a.keys.authenticateKey({ secret: made.secret }, ctx);
    await new Promise((r) => setTimeout(r, 100));
    expect((await a.keys.listApiKeys({ merchant_id, mode: common.Mode.MODE_TEST }, ctx)).keys[0]!.last_used_at).toBe(firstUse);
    expect((await a.keys.listApiKeys({ merchant_id, mode: common.Mode.MODE_LIVE }, ctx)).keys).toEqual([]);

    const revoked = await b.keys.revokeApiKey({ merchant_id, key_id: made.key_id, actor }, ctx);
    expect(revoked.key!.revoked_at).toBeDefined();
    expect(b.revoked).toEqual([made.key_id]);
    await expect(a.keys.authenticateKey({ secret: made.secret }, ctx)).rejects.toMatchObject({ code: 'unauthenticated' });
    expect((await a.keys.revokeApiKey({ merchant_id, key_id: made.key_id, actor }, ctx)).revoked_at).toBe(revoked.revoked_at);
    expect(a.revoked).toEqual([]);
    await expect(a.keys.revokeApiKey({ merchant_id: 'acct_other', key_id: made.key_id }, ctx)).rejects.toMatchObject({ code: 'not_found', param: 'key_id' });
    const log = await rpc.listAudit({ merchant_id, limit: 5, starting_after: '' }, ctx);
    expect(log.data.slice(0, 2).map((e) => [e.action, e.target, e.mode, e.ip])).toEqual([
      ['api_key.revoked', made.key_id, common.Mode.MODE_TEST, '10.3.3.3'],
      ['api_key.created', made.key_id, common.Mode.MODE_TEST, '10.3.3.3'],
    ]);
    const page2 = await rpc.listAudit({ merchant_id, limit: 1, starting_after: log.data[0]!.id }, ctx);
    expect(page2.data[0]!.action).toBe('api_key.created');
  });
});
