import { accounts, modeFromName, modeName, type ModeName } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newId, type Handlers } from '@orquestra/platform';
import type { AccountsModels, MerchantDoc } from '../db/accounts.models';
import { generateKeySecret, hashKeySecret, parseKeySecret, type KeyKindName } from '../domain/api-key';
import { payoutControlHandlers } from './payout-controls.handlers';

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

export function accountsHandlers(models: AccountsModels): Handlers<typeof accounts.AccountsServiceService> {
  return {
    async authenticateKey({ secret }) {
      const parsed = parseKeySecret(secret);
      if (!parsed) throw new AppError('unauthenticated');
      const key = await models.apiKeys.findOne({ hash: hashKeySecret(secret) }).lean();
      // The prefix must agree with the stored mode: a tampered prefix never switches modes.
      if (!key || key.revoked_at || key.mode !== parsed.mode) throw new AppError('unauthenticated');
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

    async createApiKey({ merchant_id, mode, kind, name }) {
      const merchant = await models.merchants.findById(merchant_id).lean();
      if (!merchant) throw new AppError('not_found', { param: 'merchant_id' });
      const mode_: ModeName = modeName(mode);
      const secret = generateKeySecret(mode_);
      const id = newId('apiKey');
      await models.apiKeys.create({
        _id: id,
        merchant_id,
        mode: mode_,
        kind: kindName(kind),
        name,
        hash: hashKeySecret(secret),
        last4: secret.slice(-4),
        created_at: new Date(),
        revoked_at: null,
      });
      return { key_id: id, secret, mode: modeFromName(mode_), kind: kindFromName(kindName(kind)), last4: secret.slice(-4) };
    },

    async revokeApiKey({ merchant_id, key_id }) {
      const revokedAt = new Date();
      const result = await models.apiKeys.updateOne(
        { _id: key_id, merchant_id, revoked_at: null },
        { $set: { revoked_at: revokedAt } },
      );
      if (result.matchedCount === 0) throw new AppError('not_found', { param: 'key_id' });
      return { key_id, revoked_at: revokedAt.toISOString() };
    },

    ...payoutControlHandlers(models),
  };
}
