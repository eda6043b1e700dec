import { accounts, owners } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newId, type Handlers, type SecretBox } from '@orquestra/platform';
import type { AccountsModels, MerchantDoc } from '../db/accounts.models';
import type { AuditStore } from '../db/audit.store';
import type { OwnerDoc, OwnerModels } from '../db/owner.models';
import type { SignInLimiter } from '../db/sign-in-limiter';
import { checkNewPassword, hashPassword, spendVerifyTime, verifyPassword } from '../domain/password';
import { newSessionToken, sessionExpiry, sessionIdOf, sessionIsLive } from '../domain/session-token';
import { newTotpSecret, totpUrl, verifyTotp } from '../domain/totp';
import { checkEmail, checkMerchantName } from '../domain/owner-input';

const { SignInOutcome } = owners;

export interface OwnersDeps {
  models: AccountsModels & OwnerModels;
  box: SecretBox;
  limiter: SignInLimiter;
  audit: AuditStore;
  sessionTtlHours: number;
  now?: () => Date;
}

function toOwner(doc: OwnerDoc): owners.Owner {
  return { id: doc._id, email: doc.email, merchant_id: doc.merchant_id, totp_enabled: doc.totp_enabled, created_at: doc.created_at.toISOString() };
}

function toMerchant(doc: MerchantDoc): accounts.Merchant {
  return { id: doc._id, name: doc.name, email: doc.email, created_at: doc.created_at.toISOString() };
}

const EMAIL_TAKEN = 'Já existe uma conta com este e-mail. Entre com sua senha ou use outro e-mail.';

/**
 * Owners: sign-up, sign-in (rate-limited, with the optional TOTP second factor), sessions, sign-out
 * everywhere, TOTP setup, and the audit log. Every state change is one atomic single-document write
 * whose filter states what must still be true (docs/dashboard.md "Owner accounts and sessions").
 */
export function ownersHandlers(deps: OwnersDeps): Handlers<typeof owners.OwnersServiceService> {
  const { models, box, limiter, audit } = deps;
  const now = deps.now ?? (() => new Date());

  async function openSession(owner: OwnerDoc, ip: string): Promise<owners.Session> {
    const token = newSessionToken();
    const id = sessionIdOf(token);
    if (!id) throw new Error('a new session token has the shape of a token');
    const createdAt = now();
    const expiresAt = sessionExpiry(createdAt, deps.sessionTtlHours);
    await models.sessions.create({
      _id: id,
      owner_id: owner._id,
      merchant_id: owner.merchant_id,
      epoch: owner.session_epoch,
      ip,
      created_at: createdAt,
      expires_at: expiresAt,
    });
    return { token, expires_at: expiresAt.toISOString() };
  }

  /** The owner's merchant; made from the owner's record when a sign-up stopped between its two inserts. */
  async function merchantOf(owner: OwnerDoc): Promise<MerchantDoc> {
    const found = await models.merchants.findById(owner.merchant_id).lean();
    if (found) return found;
    const doc: MerchantDoc = { _id: owner.merchant_id, name: owner.merchant_name, email: owner.email, created_at: owner.created_at };
    try {
      await models.merchants.create(doc);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    return (await models.merchants.findById(owner.merchant_id).lean().orFail()) as MerchantDoc;
  }

  async function ownerOf(actor: accounts.AuditActor | undefined): Promise<OwnerDoc> {
    const owner = actor?.owner_id ? await models.owners.findById(actor.owner_id).lean() : null;
    if (!owner) throw new AppError('unauthenticated', { message: 'Sessão inválida. Entre novamente no painel.' });
    return owner;
  }

  const actorOf = (owner: OwnerDoc, ip: string): accounts.AuditActor => ({ owner_id: owner._id, email: owner.email, ip });

  /** The time step a code proves for this sealed secret, if it is newer than the last one accepted. */
  function totpStep(owner: OwnerDoc, sealed: OwnerDoc['totp_secret'], code: string): number | undefined {
    if (!sealed) return undefined;
    const step = verifyTotp(box.open(sealed), code.trim());
    return step !== undefined && step > owner.totp_last_step ? step : undefined;
  }

  const badCode = () => new AppError('parameter_invalid', { param: 'code', message: 'Código inválido ou já usado. Digite o código atual do aplicativo autenticador.' });

  return {
    async signUp({ merchant_name, email, password, ip }) {
      const name = checkMerchantName(merchant_name);
      const address = checkEmail(email);
      checkNewPassword(password);
      // Sign-ups share the sign-in counters (the IP's and the e-mail's): a script creating merchants
      // from one address is stopped like one guessing passwords.
      const charged = await limiter.charge(address, ip);
      if (!charged.allowed) {
        throw new AppError('rate_limited', {
          message: `Muitas tentativas a partir deste endereço. Aguarde ${Math.ceil(charged.retryAfterSeconds / 60)} minuto(s) e tente novamente.`,
          retryAfterSeconds: charged.retryAfterSeconds,
        });
      }
      const passwordHash = await hashPassword(password);
      const createdAt = now();
      const owner: OwnerDoc = {
        _id: newId('owner'),
        email: address,
        merchant_id: newId('merchant'),
        merchant_name: name,
        password_hash: passwordHash,
        session_epoch: 0,
        totp_enabled: false,
        totp_secret: null,
        totp_pending: null,
        totp_last_step: 0,
        created_at: createdAt,
      };
      // The owner first: its unique e-mail decides a race of two sign-ups, before any merchant exists.
      try {
        await models.owners.create(owner);
      } catch (error) {
        if (isDuplicateKeyError(error)) throw new AppError('parameter_invalid', { param: 'email', message: EMAIL_TAKEN });
        throw error;
      }
      const merchant: MerchantDoc = { _id: owner.merchant_id, name, email: address, created_at: createdAt };
      try {
        await models.merchants.create(merchant);
      } catch (error) {
        // A merchant made without an owner (by the API tooling) holds this e-mail: undo our owner.
        await models.owners.deleteOne({ _id: owner._id });
        if (isDuplicateKeyError(error)) throw new AppError('parameter_invalid', { param: 'email', message: EMAIL_TAKEN });
        throw error;
      }
      const session = await openSession(owner, ip);
      await audit.record({ merchant_id: merchant._id, actor: actorOf(owner, ip), action: 'owner.signed_up', target: merchant._id });
      return { owner: toOwner(owner), merchant: toMerchant(merchant), session };
    },

    async signIn({ email, password, totp_code, ip }) {
      const address = email.trim().toLowerCase();
      const charged = await limiter.charge(address, ip);
      if (!charged.allowed) return { outcome: SignInOutcome.SIGN_IN_OUTCOME_RATE_LIMITED, retry_after_seconds: charged.retryAfterSeconds };
      const owner = address ? await models.owners.findOne({ email: address }).lean() : null;
      if (!owner) {
        await spendVerifyTime(password);
        return { outcome: SignInOutcome.SIGN_IN_OUTCOME_INVALID_CREDENTIALS, retry_after_seconds: 0 };
      }
      if (!(await verifyPassword(owner.password_hash, password))) {
        await audit.record({ merchant_id: owner.merchant_id, actor: actorOf(owner, ip), action: 'session.sign_in_failed', target: owner._id });
        return { outcome: SignInOutcome.SIGN_IN_OUTCOME_INVALID_CREDENTIALS, retry_after_seconds: 0 };
      }
      if (owner.totp_enabled) {
        const step = totp_code ? totpStep(owner, owner.totp_secret, totp_code) : undefined;
        // One guarded write: the step must still be newer than the last accepted (no replay, even racing).
        const accepted =
          step !== undefined &&
          (await models.owners.updateOne({ _id: owner._id, totp_enabled: true, totp_last_step: { $lt: step } }, { $set: { totp_last_step: step } })).modifiedCount === 1;
        if (!accepted) return { outcome: SignInOutcome.SIGN_IN_OUTCOME_TOTP_REQUIRED, retry_after_seconds: 0 };
        // Key rotation (OWNER_SECRETS_KEYS): a secret sealed with an older key is sealed again with
        // the current one, guarded by the old seal so a concurrent change is never overwritten.
        const sealed = owner.totp_secret;
        if (sealed && box.needsReseal(sealed)) {
          await models.owners.updateOne({ _id: owner._id, 'totp_secret.iv': sealed.iv }, { $set: { totp_secret: box.seal(box.open(sealed)) } });
        }
      }
      const merchant = await merchantOf(owner);
      const session = await openSession(owner, ip);
      await audit.record({ merchant_id: owner.merchant_id, actor: actorOf(owner, ip), action: 'session.signed_in', target: owner._id });
      return { outcome: SignInOutcome.SIGN_IN_OUTCOME_SIGNED_IN, retry_after_seconds: 0, owner: toOwner(owner), merchant: toMerchant(merchant), session };
    },

    async authenticateSession({ token }) {
      const id = sessionIdOf(token);
      const session = id ? await models.sessions.findById(id).lean() : null;
      const owner = session ? await models.owners.findById(session.owner_id).lean() : null;
      if (!session || !owner || !sessionIsLive(session, owner.session_epoch, now())) {
        throw new AppError('unauthenticated', { message: 'Sessão ausente ou expirada. Entre novamente no painel.' });
      }
      const merchant = await merchantOf(owner);
      return { owner: toOwner(owner), merchant: toMerchant(merchant), session_id: session._id, expires_at: session.expires_at.toISOString() };
    },

    async signOut({ token, ip }) {
      const id = sessionIdOf(token);
      const session = id ? await models.sessions.findOneAndDelete({ _id: id }).lean() : null;
      const owner = session ? await models.owners.findById(session.owner_id).lean() : null;
      if (owner) await audit.record({ merchant_id: owner.merchant_id, actor: actorOf(owner, ip), action: 'session.signed_out', target: owner._id });
      return {};
    },

    async revokeAllSessions({ actor }) {
      const owner = await ownerOf(actor);
      // One write ends every session (they carry the old epoch); deleting them is only tidying.
      await models.owners.updateOne({ _id: owner._id }, { $inc: { session_epoch: 1 } });
      await models.sessions.deleteMany({ owner_id: owner._id });
      await audit.record({ merchant_id: owner.merchant_id, actor, action: 'session.revoked_all', target: owner._id });
      return {};
    },

    async createOwner({ merchant_id, email, password, reset_password }) {
      const address = checkEmail(email);
      checkNewPassword(password);
      const merchant = merchant_id ? await models.merchants.findById(merchant_id).lean() : null;
      if (!merchant) throw new AppError('not_found', { param: 'merchant_id', message: 'Lojista não encontrado. Confira o merchant_id.' });
      const passwordHash = await hashPassword(password);
      const owner: OwnerDoc = {
        _id: newId('owner'),
        email: address,
        merchant_id,
        merchant_name: merchant.name,
        password_hash: passwordHash,
        session_epoch: 0,
        totp_enabled: false,
        totp_secret: null,
        totp_pending: null,
        totp_last_step: 0,
        created_at: now(),
      };
      try {
        await models.owners.create(owner);
        return { owner: toOwner(owner), created: true };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      const existing = await models.owners.findOne({ email: address }).lean().orFail();
      if (existing.merchant_id !== merchant_id) throw new AppError('parameter_invalid', { param: 'email', message: EMAIL_TAKEN });
      if (reset_password) await models.owners.updateOne({ _id: existing._id }, { $set: { password_hash: passwordHash } });
      return { owner: toOwner(existing), created: false };
    },

    async setupTotp({ actor }) {
      const owner = await ownerOf(actor);
      if (owner.totp_enabled) {
        throw new AppError('parameter_invalid', { param: 'totp', message: 'A verificação em duas etapas já está ativada. Desative-a antes de configurar outro aplicativo.' });
      }
      const secret = newTotpSecret();
      await models.owners.updateOne({ _id: owner._id, totp_enabled: false }, { $set: { totp_pending: box.seal(secret) } });
      await audit.record({ merchant_id: owner.merchant_id, actor, action: 'totp.setup_started', target: owner._id });
      return { secret, otpauth_url: totpUrl(secret, owner.email) };
    },

    async enableTotp({ actor, code }) {
      const owner = await ownerOf(actor);
      if (owner.totp_enabled || !owner.totp_pending) {
        throw new AppError('parameter_invalid', { param: 'code', message: 'Nenhuma configuração em andamento. Comece por POST /dashboard/api/totp/setup.' });
      }
      const step = totpStep(owner, owner.totp_pending, code);
      if (step === undefined) throw badCode();
      const result = await models.owners.updateOne(
        { _id: owner._id, totp_enabled: false, 'totp_pending.iv': owner.totp_pending.iv, totp_last_step: { $lt: step } },
        { $set: { totp_enabled: true, totp_secret: owner.totp_pending, totp_pending: null, totp_last_step: step } },
      );
      if (result.modifiedCount !== 1) throw badCode();
      await audit.record({ merchant_id: owner.merchant_id, actor, action: 'totp.enabled', target: owner._id });
      return { owner: toOwner({ ...owner, totp_enabled: true }) };
    },

    async disableTotp({ actor, code }) {
      const owner = await ownerOf(actor);
      if (!owner.totp_enabled) throw new AppError('parameter_invalid', { param: 'code', message: 'A verificação em duas etapas não está ativada.' });
      const step = totpStep(owner, owner.totp_secret, code);
      if (step === undefined) throw badCode();
      const result = await models.owners.updateOne(
        { _id: owner._id, totp_enabled: true, totp_last_step: { $lt: step } },
        { $set: { totp_enabled: false, totp_secret: null, totp_pending: null, totp_last_step: step } },
      );
      if (result.modifiedCount !== 1) throw badCode();
      await audit.record({ merchant_id: owner.merchant_id, actor, action: 'totp.disabled', target: owner._id });
      return { owner: toOwner({ ...owner, totp_enabled: false }) };
    },

    async recordAudit({ merchant_id, actor, action, target, mode }) {
      if (!merchant_id) throw new AppError('parameter_missing', { param: 'merchant_id' });
      if (!action) throw new AppError('parameter_missing', { param: 'action' });
      return { entry: await audit.record({ merchant_id, actor, action, target, mode }) };
    },

    async listAudit({ merchant_id, limit, starting_after }) {
      if (!merchant_id) throw new AppError('parameter_missing', { param: 'merchant_id' });
      return audit.list(merchant_id, limit, starting_after);
    },
  };
}
