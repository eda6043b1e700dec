import { accounts, common, modeFromName, modeName, type ModeName } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newId, type Handlers } from '@orquestra/platform';
import type { AccountsModels, PayoutDestinationDoc, PayoutSettingsDoc } from '../db/accounts.models';
import { DEFAULT_PAYOUT_SETTINGS, checkDailyLimit } from '../domain/payout-settings';
import { normalizeLabel, normalizePixKey } from '../domain/pix-key';

type PayoutControlHandlers = Pick<
  Handlers<typeof accounts.AccountsServiceService>,
  'getPayoutSettings' | 'setPayoutSettings' | 'createPayoutDestination' | 'listPayoutDestinations' | 'getPayoutDestination'
>;

/** Money-moving controls never fall back to a mode: the caller names test or live. */
function requireMode(mode: common.Mode): ModeName {
  if (mode !== common.Mode.MODE_TEST && mode !== common.Mode.MODE_LIVE) {
    throw new AppError('parameter_missing', { param: 'mode', message: 'Informe o modo (mode): test ou live.' });
  }
  return modeName(mode);
}

function toSettings(doc: Pick<PayoutSettingsDoc, 'api_enabled' | 'daily_limit'> & { updated_at: Date | null }): accounts.PayoutSettings {
  return { api_enabled: doc.api_enabled, daily_limit: doc.daily_limit, updated_at: doc.updated_at?.toISOString() ?? '' };
}

function toDestination(doc: PayoutDestinationDoc): accounts.PayoutDestination {
  return {
    id: doc._id,
    mode: modeFromName(doc.mode),
    key_type: doc.key_type,
    key: doc.key,
    label: doc.label,
    created_at: doc.created_at.toISOString(),
  };
}

export function payoutControlHandlers(models: AccountsModels): PayoutControlHandlers {
  async function requireMerchant(merchantId: string): Promise<void> {
    if (!merchantId) throw new AppError('parameter_missing', { param: 'merchant_id', message: 'Informe o lojista (merchant_id).' });
    const found = await models.merchants.exists({ _id: merchantId });
    if (!found) throw new AppError('not_found', { param: 'merchant_id', message: 'Lojista não encontrado. Confira o merchant_id.' });
  }

  async function upsertSettings(filterId: string, set: Partial<PayoutSettingsDoc>, onInsert: Partial<PayoutSettingsDoc>) {
    return models.payoutSettings
      .findOneAndUpdate({ _id: filterId }, { $set: set, $setOnInsert: onInsert }, { upsert: true, new: true })
      .lean()
      .orFail();
  }

  return {
    async getPayoutSettings({ merchant_id, mode }) {
      const mode_ = requireMode(mode);
      await requireMerchant(merchant_id);
      const doc = await models.payoutSettings.findById(`${merchant_id}:${mode_}`).lean();
      // Never set: the defaults, with no updated_at.
      return { settings: toSettings(doc ?? { ...DEFAULT_PAYOUT_SETTINGS, updated_at: null }) };
    },

    async setPayoutSettings({ merchant_id, mode, api_enabled, daily_limit }) {
      const mode_ = requireMode(mode);
      if (api_enabled === undefined && daily_limit === undefined) {
        throw new AppError('parameter_missing', { param: 'api_enabled', message: 'Informe o que mudar: api_enabled e/ou daily_limit.' });
      }
      const set: Partial<PayoutSettingsDoc> = { updated_at: new Date() };
      if (api_enabled !== undefined) set.api_enabled = api_enabled;
      if (daily_limit !== undefined) set.daily_limit = checkDailyLimit(daily_limit);
      await requireMerchant(merchant_id);
      // One upsert: the fields given are set, the others keep their value, or start at the default
      // when this is the first write (so a first `limit` leaves payouts off).
      const onInsert: Partial<PayoutSettingsDoc> = { merchant_id, mode: mode_ };
      if (set.api_enabled === undefined) onInsert.api_enabled = DEFAULT_PAYOUT_SETTINGS.api_enabled;
      if (set.daily_limit === undefined) onInsert.daily_limit = DEFAULT_PAYOUT_SETTINGS.daily_limit;
      const id = `${merchant_id}:${mode_}`;
      let doc: PayoutSettingsDoc;
      try {
        doc = await upsertSettings(id, set, onInsert);
      } catch (error) {
        // Two first writes raced on the same _id: the loser's retry finds the document and updates it.
        if (!isDuplicateKeyError(error)) throw error;
        doc = await upsertSettings(id, set, onInsert);
      }
      return { settings: toSettings(doc) };
    },

    async createPayoutDestination({ merchant_id, mode, key_type, key, label }) {
      const mode_ = requireMode(mode);
      const pixKey = normalizePixKey(key_type, key);
      const name = normalizeLabel(label);
      await requireMerchant(merchant_id);
      const doc: PayoutDestinationDoc = {
        _id: newId('payoutDestination'),
        merchant_id,
        mode: mode_,
        key_type: pixKey.key_type,
        key: pixKey.key,
        label: name,
        created_at: new Date(),
      };
      try {
        await models.payoutDestinations.create(doc);
        return { destination: toDestination(doc) };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      // The key is already saved for this merchant and mode: saving it again answers the saved one
      // (its id and label unchanged), so re-running the seed or the owner command is harmless.
      const existing = await models.payoutDestinations.findOne({ merchant_id, mode: mode_, key: pixKey.key }).lean().orFail();
      return { destination: toDestination(existing) };
    },

    async listPayoutDestinations({ merchant_id, mode }) {
      const mode_ = requireMode(mode);
      await requireMerchant(merchant_id);
      const docs = await models.payoutDestinations.find({ merchant_id, mode: mode_ }).sort({ _id: -1 }).lean();
      return { destinations: docs.map(toDestination) };
    },

    async getPayoutDestination({ merchant_id, mode, destination_id }) {
      const mode_ = requireMode(mode);
      // Scoped by merchant and mode: another merchant's id, or a test id asked in live, is not found.
      const doc = destination_id ? await models.payoutDestinations.findOne({ _id: destination_id, merchant_id, mode: mode_ }).lean() : null;
      if (!doc) {
        throw new AppError('not_found', { param: 'destination_id', message: 'Chave Pix salva não encontrada. Confira o destination_id (pdest_…).' });
      }
      return { destination: toDestination(doc) };
    },
  };
}
