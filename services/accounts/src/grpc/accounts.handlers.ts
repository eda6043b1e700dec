import { accounts, modeFromName, modeName, type ModeName } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newId, type Handlers } from '@orquestra/platform';
import type { AccountsModels, ApiKeyDoc, MerchantDoc } from '../db/accounts.models';
import type { AuditStore } from '../db/audit.store';
import { generateKeySecret, hashKeySecret, KEY_LAST_USED_RESOLUTION_MS, parseKeySecret, type KeyKindName } from '../domain/api-key';
import { payoutControlHandlers } from './payout-controls.handlers';
import { RequestLogStore } from '../db/request-log.store';

const { KeyKind } = accounts;

function kindName(kind: accounts.KeyKind): KeyKindName {
  return kind === KeyKind.KEY_KIND_RESTRICTED ? 'restricted' : 'full';
}

function kindFromName(kind: KeyKindName): accounts.KeyKind {
  return kind === 'restricted' ? KeyKind.KEY_KIND_RESTRICTED : KeyKind.KEY_KIND_FULL;
}

function toMerchant(doc: MerchantDoc): accounts.Merchant {
  return { id: doc._id, name: doc.name, email: doc.email, created_at: doc.created_at.toISOString() };
}

function toApiKey(doc: ApiKeyDoc): accounts.ApiKey {
  return {
    id: doc._id,
    name: doc.name,
    mode: modeFromName(doc.mode),
    kind: kindFromName(doc.kind),
    last4: doc.last4,
    created_by: doc.created_by ?? '',
    created_at: doc.created_at.toISOString(),
    last_used_at: doc.last_used_at ? doc.last_used_at.toISOString() : undefined,
    revoked_at: doc.revoked_at ? doc.revoked_at.toISOString() : undefined,
  };
}

function checkKeyName(name: string, required: boolean): string {
  const trimmed = name.trim();
  if (required && !trimmed) throw new AppError('parameter_missing', { param: 'name', message: 'Dê um nome à chave (name), por exemplo "bot de vendas".' });
  if (trimmed.length > 60) throw new AppError('parameter_invalid', { param: 'name', message: 'O nome da chave (name) deve ter até 60 caracteres.' });
  return trimmed;
}

export interface AccountsHandlerDeps {
  /** Where owner actions on keys are logged (absent in tests of other parts). */
  audit?: AuditStore;
  /** Called after a revocation is stored: broadcasts internal.api_keys.changed to every gateway. */
  onKeyRevoked?: (key: { key_id: string; merchant_id: string; mode: ModeName }) => Promise<void>;
  now?: () => Date;
}

export function accountsHandlers(models: AccountsModels, deps: AccountsHandlerDeps = {}): Handlers<typeof accounts.AccountsServiceService> {
  const now = deps.now ?? (() => new Date());
  const requestLogs = new RequestLogStore(models.requestLogs);
  return {
    async authenticateKey({ secret }) {
      const parsed = parseKeySecret(secret);
      if (!parsed) throw new AppError('unauthenticated');
      const key = await models.apiKeys.findOne({ hash: hashKeySecret(secret) }).lean();
      // The prefix must agree with the stored mode: a tampered prefix never switches modes.
      if (!key || key.revoked_at || key.mode !== parsed.mode) throw new AppError('unauthenticated');
      // Last use, at most once a minute per key: the filter lets only a write that moves it by a
      // minute or more match, so busy keys cost no write per look-up (and the gateway caches look-ups).
      const at = now();
      if (!key.last_used_at || at.getTime() - key.last_used_at.getTime() >= KEY_LAST_USED_RESOLUTION_MS) {
        void models.apiKeys
          .updateOne(
            { _id: key._id, $or: [{ last_used_at: null }, { last_used_at: { $lte: new Date(at.getTime() - KEY_LAST_USED_RESOLUTION_MS) } }] },
            { $set: { last_used_at: at } },
          )
          .catch(() => undefined);
      }
      return {
        merchant_id: key.merchant_id,
        key_id: key._id,
        mode: modeFromName(key.mode),
        kind: kindFromName(key.kind),
      };
    },

    async createMerchant({ name, email }) {
      if (!name.trim()) throw new AppError('parameter_missing', { param: 'name' });
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new AppError('parameter_invalid', { param: 'email' });
      const doc: MerchantDoc = { _id: newId('merchant'), name: name.trim(), email: email.toLowerCase(), created_at: new Date() };
      try {
        await models.merchants.create(doc);
      } catch (error) {
        if (isDuplicateKeyError(error)) {
          throw new AppError('parameter_invalid', { param: 'email', message: 'Já existe um lojista com este e-mail. Use outro e-mail.' });
        }
        throw error;
      }
      return { merchant: toMerchant(doc) };
    },

    async getMerchant({ merchant_id, email }) {
      const doc = email
        ? await models.merchants.findOne({ email: email.toLowerCase() }).lean()
        : await models.merchants.findById(merchant_id).lean();
      if (!doc) throw new AppError('not_found', { param: email ? 'email' : 'merchant_id' });
      return { merchant: toMerchant(doc) };
    },

    async createApiKey({ merchant_id, mode, kind, name, actor }) {
      const keyName = checkKeyName(name, actor !== undefined);
      const merchant = await models.merchants.findById(merchant_id).lean();
      if (!merchant) throw new AppError('not_found', { param: 'merchant_id' });
      const mode_: ModeName = modeName(mode);
      const secret = generateKeySecret(mode_);
      const doc: ApiKeyDoc = {
        _id: newId('apiKey'),
        merchant_id,
        mode: mode_,
        kind: kindName(kind),
        name: keyName,
        hash: hashKeySecret(secret),
        last4: secret.slice(-4),
        created_at: now(),
        revoked_at: null,
        created_by: actor?.email ?? '',
        last_used_at: null,
      };
      await models.apiKeys.create(doc);
      if (actor) await deps.audit?.record({ merchant_id, actor, action: 'api_key.created', target: doc._id, mode: modeFromName(mode_) });
      return { key_id: doc._id, secret, mode: modeFromName(mode_), kind: kindFromName(doc.kind), last4: doc.last4, key: toApiKey(doc) };
    },

    async revokeApiKey({ merchant_id, key_id, actor }) {
      const revokedAt = now();
      const revoked = await models.apiKeys
        .findOneAndUpdate({ _id: key_id, merchant_id, revoked_at: null }, { $set: { revoked_at: revokedAt } }, { new: true })
        .lean();
      if (!revoked) {
        const already = key_id ? await models.apiKeys.findOne({ _id: key_id, merchant_id }).lean() : null;
        if (!already) throw new AppError('not_found', { param: 'key_id', message: 'Chave de API não encontrada. Confira o id (key_…).' });
        // Revoking twice answers the first revocation (nothing changes, nothing is logged again).
        return { key_id, revoked_at: (already.revoked_at ?? revokedAt).toISOString(), key: toApiKey(already) };
      }
      // Confirmed by the broker before the answer, so gateways drop the key before the owner sees "revoked".
      await deps.onKeyRevoked?.({ key_id, merchant_id, mode: revoked.mode });
      if (actor) await deps.audit?.record({ merchant_id, actor, action: 'api_key.revoked', target: key_id, mode: modeFromName(revoked.mode) });
      return { key_id, revoked_at: revokedAt.toISOString(), key: toApiKey(revoked) };
    },

    async listApiKeys({ merchant_id, mode }) {
      if (!merchant_id) throw new AppError('parameter_missing', { param: 'merchant_id' });
      const docs = await models.apiKeys.find({ merchant_id, mode: modeName(mode) }).sort({ _id: -1 }).limit(500).lean();
      return { keys: docs.map(toApiKey) };
    },

    ...payoutControlHandlers(models),
    async recordRequestLogs({ entries }) {
      return { recorded: await requestLogs.record(entries) };
    },
    listRequestLogs: (request) => requestLogs.list(request),
  };
}
