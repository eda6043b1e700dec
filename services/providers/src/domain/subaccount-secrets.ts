import type { SealedSecret, SecretBox } from '@orquestra/platform';
import type { SubaccountSecretModel } from '../db/subaccount-secret.model';

const DUPLICATE_KEY = 11000;

/**
 * The credentials providers issue for subaccounts, sealed at rest like the accounts' own. Never
 * returned by an RPC, never logged: only the adapter reading that subaccount receives it.
 */
export class SubaccountSecrets {
  constructor(
    private readonly docs: SubaccountSecretModel,
    private readonly box: SecretBox,
    /** keep(): tries, and the first wait (doubled each time): 6 tries from 200 ms ≈ 6 s in all. */
    private readonly keepAttempts = 6,
    private readonly keepBackoffMs = 200,
  ) {}

  /**
   * One unique insert: a repeated create keeps the first secret (the provider answers it only
   * once; a later answer cannot be more right than the first). The provider answers it ONCE (an
   * Asaas apiKey cannot be read again), so a store that fails is asked again, with backoff, for a
   * few seconds before the error goes up: a blip of the store must not lose the only copy.
   */
  async keep(accountId: string, subaccountId: string, providerSubaccountId: string, secret: string): Promise<void> {
    const doc = {
      _id: key(accountId, subaccountId),
      account_id: accountId,
      subaccount_id: subaccountId,
      provider_subaccount_id: providerSubaccountId,
      secret_sealed: this.box.seal(secret),
      created_at: new Date(),
    };
    for (let attempt = 1; ; attempt++) {
      try {
        await this.docs.create(doc);
        return;
      } catch (error) {
        if ((error as { code?: number }).code === DUPLICATE_KEY) return;
        if (attempt >= this.keepAttempts) throw error;
        await new Promise((resolve) => setTimeout(resolve, this.keepBackoffMs * 2 ** (attempt - 1)));
      }
    }
  }

  /** The opened secret, or undefined when the provider issued none for this subaccount. */
  async find(accountId: string, subaccountId: string): Promise<string | undefined> {
    const doc = await this.docs.findById(key(accountId, subaccountId)).lean<{ secret_sealed: SealedSecret }>().exec();
    return doc ? this.box.open(doc.secret_sealed) : undefined;
  }

  /**
   * Our subaccount id and its opened secret, by the provider's id of the subaccount (what an Asaas
   * webhook names); undefined when the provider issued no secret for it.
   */
  async findByProvider(accountId: string, providerSubaccountId: string): Promise<{ subaccountId: string; secret: string } | undefined> {
    const doc = await this.docs
      .findOne({ account_id: accountId, provider_subaccount_id: providerSubaccountId })
      .lean<{ subaccount_id: string; secret_sealed: SealedSecret }>()
      .exec();
    return doc ? { subaccountId: doc.subaccount_id, secret: this.box.open(doc.secret_sealed) } : undefined;
  }
}

function key(accountId: string, subaccountId: string): string {
  return `${accountId}/${subaccountId}`;
}
