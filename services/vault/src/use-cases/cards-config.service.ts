import { modeFromName, type vault } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError } from '@orquestra/platform';
import { randomBytes } from 'node:crypto';
import type { CardsConfigDoc, CardsConfigModel } from '../db/cards-config.model';
import { normalizeAllowedOrigins, normalizeOrigin } from '../domain/origins';
import type { CallerScope } from './scope';

export function toProtoConfig(doc: CardsConfigDoc): vault.CardsConfig {
  return { mode: modeFromName(doc.mode), publishable_key: doc.publishable_key, allowed_origins: doc.allowed_origins, enabled: doc.enabled };
}

/** pk_test_… / pk_live_…: 128 random bits, lower-case hex. */
function newPublishableKey(mode: 'test' | 'live'): string {
  return `pk_${mode}_${randomBytes(16).toString('hex')}`;
}

/**
 * The card fields' configuration per merchant and mode: made on first read (publishable key,
 * no origin restriction, enabled in test mode only), the allowed sites, and the owner's switch.
 */
export class CardsConfigService {
  constructor(
    private readonly model: CardsConfigModel,
    /**
     * The platform's own payment page origin(s) (PAY_BASE_URL): the page shows the fields of the
     * merchant whose payment it is, so every merchant's allowed_origins implicitly includes it.
     */
    private readonly options: { platformOrigins?: string[] } = {},
  ) {}

  /** The config, made on first read. Two first reads at once make one (the loser reads the winner's). */
  async get(scope: CallerScope): Promise<CardsConfigDoc> {
    const id = `${scope.merchantId}:${scope.mode}`;
    const existing = await this.model.findById(id).lean<CardsConfigDoc>().exec();
    if (existing) return existing;
    const now = new Date();
    try {
      return await this.model
        .findOneAndUpdate(
          { _id: id },
          {
            $setOnInsert: {
              merchant_id: scope.merchantId,
              mode: scope.mode,
              publishable_key: newPublishableKey(scope.mode),
              allowed_origins: [],
              enabled: scope.mode === 'test',
              created_at: now,
              updated_at: now,
            },
          },
          { upsert: true, new: true },
        )
        .lean<CardsConfigDoc>()
        .orFail()
        .exec();
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return this.model.findById(id).lean<CardsConfigDoc>().orFail().exec();
    }
  }

  async updateAllowedOrigins(scope: CallerScope, origins: string[]): Promise<CardsConfigDoc> {
    const allowed = normalizeAllowedOrigins(origins);
    await this.get(scope);
    return this.model
      .findOneAndUpdate({ _id: `${scope.merchantId}:${scope.mode}` }, { $set: { allowed_origins: allowed, updated_at: new Date() } }, { new: true })
      .lean<CardsConfigDoc>()
      .orFail()
      .exec();
  }

  async setEnabled(scope: CallerScope, enabled: boolean): Promise<CardsConfigDoc> {
    await this.get(scope);
    return this.model
      .findOneAndUpdate({ _id: `${scope.merchantId}:${scope.mode}` }, { $set: { enabled, updated_at: new Date() } }, { new: true })
      .lean<CardsConfigDoc>()
      .orFail()
      .exec();
  }

  /** The config of a vault in use: account_not_enabled when the owner has not turned it on. */
  async requireEnabled(scope: CallerScope): Promise<CardsConfigDoc> {
    const config = await this.get(scope);
    if (!config.enabled) throw notEnabled(scope.mode);
    return config;
  }

  /**
   * The config a tokenize call names by publishable key, after its checks: the key exists, the
   * vault is on, and the page's origin is allowed (any when the list is empty; the platform's own
   * payment page always).
   */
  async forTokenize(publishableKey: string, origin: string): Promise<CardsConfigDoc> {
    if (!publishableKey) throw new AppError('parameter_missing', { param: 'publishable_key', message: 'Informe publishable_key (pk_test_… ou pk_live_…, de GET /v1/cards/config).' });
    const config = /^pk_(test|live)_[0-9a-f]{32}$/.test(publishableKey) ? await this.model.findOne({ publishable_key: publishableKey }).lean<CardsConfigDoc>().exec() : null;
    if (!config) {
      throw new AppError('parameter_invalid', { param: 'publishable_key', message: 'publishable_key desconhecida. Copie a chave pública de GET /v1/cards/config no modo desejado.' });
    }
    if (!config.enabled) throw notEnabled(config.mode);
    if (config.allowed_origins.length > 0) {
      const normalized = normalizeOrigin(origin);
      const platform = normalized !== undefined && (this.options.platformOrigins ?? []).includes(normalized);
      if (!normalized || (!config.allowed_origins.includes(normalized) && !platform)) {
        const shown = (origin || '(nenhuma)').slice(0, 200);
        throw new AppError('parameter_invalid', {
          param: 'origin',
          message: `O site ${shown} não pode mostrar os campos de cartão desta conta. Adicione-o a allowed_origins com PATCH /v1/cards/config.`,
        });
      }
    }
    return config;
  }
}

function notEnabled(mode: 'test' | 'live'): AppError {
  return new AppError('account_not_enabled', {
    message:
      mode === 'live'
        ? 'O cofre de cartões não está ativado no modo live desta conta. Peça a ativação ao suporte da plataforma.'
        : 'O cofre de cartões está desativado no modo test desta conta. Peça a ativação ao suporte da plataforma.',
  });
}
