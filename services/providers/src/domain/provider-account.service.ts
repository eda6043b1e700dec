/**
 * Over 300 lines: connecting an account (credentials checked, sealed, webhook registered), reading
 * it and handing out its per-account adapter are one account lifecycle.
 */
import { randomBytes } from 'node:crypto';
import { AppError, newId, type SecretBox } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { AdapterAccount } from '../adapters/adapter-factory';
import { ProviderError, type ProviderAdapter, type WebhookRegistration } from '../adapters/provider-adapter';
import { isRecurrenceCapable } from '../adapters/provider-recurrences';
import { isSubaccountCapable, SUBACCOUNT_WEBHOOK_SUB_PATH } from '../adapters/provider-subaccounts';
import type { BreakerRegistry } from '../breakers/breaker-registry';
import type { EmulatorControl } from '../sandbox/emulator-control';
import type { FeeRuleDoc, ProviderAccountDoc, ProviderAccountModel } from '../db/provider-account.model';
import { providerDefinition } from './provider-catalog';

export interface ConnectAccountInput {
  merchantId: string;
  mode: 'test' | 'live';
  provider: string;
  name: string;
  priority: number;
  enabled: boolean;
  credentials: Record<string, string>;
  fees: FeeRuleDoc[];
}

/**
 * Connected provider accounts: connecting (credentials checked at the provider, sealed at rest,
 * webhook registered), reading, and the per-account adapter every call goes through.
 */
export class ProviderAccountService {
  /** Each account's adapter, and whether it was built with the account's webhook signing secret. */
  private readonly adapters = new Map<string, { adapter: ProviderAdapter; signed: boolean }>();
  /** Adapters holding an account's subaccount endpoint secret (Stripe Connect), made on first delivery. */
  private readonly subaccountEndpointAdapters = new Map<string, ProviderAdapter>();
  /** Told after an account was connected or changed (routing caches the accounts it lists). */
  onChange: ((account: Pick<ProviderAccountDoc, '_id' | 'merchant_id' | 'mode'>, reason: 'connected' | 'updated') => Promise<void>) | undefined;

  constructor(
    private readonly accounts: ProviderAccountModel,
    private readonly secrets: SecretBox,
    private readonly breakers: BreakerRegistry,
    private readonly buildAdapter: (account: AdapterAccount) => ProviderAdapter,
    private readonly webhookBaseUrl: string,
    private readonly logger: Logger,
    /** Test-mode accounts of providers with a local emulator (sandbox/emulator-control.ts). */
    private readonly emulatorControl: (account: Pick<AdapterAccount, 'provider' | 'mode' | 'credentials'>) => EmulatorControl | undefined,
  ) {
    breakers.onHalfOpen = (accountId) => void this.probe(accountId);
  }

  /**
   * The half-open trial: one authenticated read (verifyCredentials) through the account's breaker.
   * Success closes the breaker; failure opens it again for another reset period.
   */
  private async probe(accountId: string): Promise<void> {
    try {
      const doc = await this.accounts.findOne({ _id: accountId }).lean<ProviderAccountDoc>();
      if (!doc || !doc.enabled) return;
      await this.call(doc, (adapter) => adapter.verifyCredentials());
      this.logger.info({ account_id: accountId }, 'provider account answered the recovery trial');
    } catch (error) {
      this.logger.warn({ account_id: accountId, err: (error as Error).message }, 'recovery trial failed; breaker stays open');
    }
  }

  /** The intake URL of a stored account (it carries the account's secret). */
  webhookUrlOf(doc: ProviderAccountDoc): string {
    return this.webhookUrl(doc._id, this.secrets.open(doc.webhook_secret_sealed));
  }

  /** Changes name, priority, fees or enabled: one write of the account's document, in its merchant and mode. */
  async update(
    merchantId: string,
    mode: 'test' | 'live',
    accountId: string,
    changes: { name?: string; priority?: number; enabled?: boolean; fees?: FeeRuleDoc[] },
  ): Promise<ProviderAccountDoc> {
    if (changes.priority !== undefined && (!Number.isInteger(changes.priority) || changes.priority < 1)) {
      throw new AppError('parameter_invalid', { param: 'priority', message: 'priority deve ser um inteiro maior ou igual a 1.' });
    }
    const set: Partial<ProviderAccountDoc> = { updated_at: new Date() };
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.priority !== undefined) set.priority = changes.priority;
    if (changes.enabled !== undefined) set.enabled = changes.enabled;
    if (changes.fees !== undefined) set.fees = changes.fees;
    const updated = await this.accounts
      .findOneAndUpdate({ _id: accountId, merchant_id: merchantId, mode }, { $set: set }, { new: true })
      .lean<ProviderAccountDoc>();
    if (!updated) throw new AppError('not_found', { param: 'provider_account_id' });
    this.logger.info({ account_id: accountId, changed: Object.keys(set) }, 'provider account updated');
    await this.onChange?.(updated, 'updated');
    return updated;
  }

  async connect(input: ConnectAccountInput): Promise<ProviderAccountDoc> {
    const definition = providerDefinition(input.provider);
    if (!definition) {
      throw new AppError('parameter_invalid', { param: 'provider', message: `Provedor desconhecido: ${input.provider}. Consulte GET /v1/providers.` });
    }
    if (!Number.isInteger(input.priority) || input.priority < 1) {
      throw new AppError('parameter_invalid', { param: 'priority', message: 'priority deve ser um inteiro maior ou igual a 1.' });
    }
    const unknownField = Object.keys(input.credentials).find((name) => !definition.credentialFields.some((f) => f.name === name));
    if (unknownField) {
      throw new AppError('parameter_invalid', {
        param: `credentials.${unknownField}`,
        message: `${definition.name} não usa o campo credentials.${unknownField}. Campos: ${definition.credentialFields.map((f) => f.name).join(', ')}.`,
      });
    }
    for (const field of definition.credentialFields) {
      if (!input.credentials[field.name]) {
        throw new AppError('parameter_missing', {
          param: `credentials.${field.name}`,
          message: `Informe credentials.${field.name} (${field.label}) da sua conta ${definition.name}.`,
        });
      }
    }
    const id = newId('providerAccount');
    const webhookSecret = randomBytes(24).toString('base64url');
    const adapter = this.buildAdapter({
      id,
      provider: input.provider,
      mode: input.mode,
      credentials: input.credentials,
      webhookSecret,
      webhookUrl: this.webhookUrl(id, webhookSecret),
    });
    await this.atProvider(() => adapter.verifyCredentials());
    const now = new Date();
    const doc: ProviderAccountDoc = {
      _id: id,
      merchant_id: input.merchantId,
      mode: input.mode,
      provider: input.provider,
      name: input.name || definition.name,
      priority: input.priority,
      enabled: input.enabled,
      methods: definition.methods,
      fees: input.fees,
      credentials_sealed: this.secrets.seal(JSON.stringify(input.credentials)),
      credentials_last4: Object.fromEntries(Object.entries(input.credentials).map(([name, value]) => [name, value.slice(-4)])),
      webhook_secret_sealed: this.secrets.seal(webhookSecret),
      signing_secret_sealed: null,
      webhook_manual_setup: false,
      created_at: now,
      updated_at: now,
    };
    // Stored before the webhook is registered: Efí test-posts the URL while registering and keeps
    // it only if our intake (which looks the account up) answers 2xx.
    await this.accounts.create(doc);
    let registration: WebhookRegistration;
    try {
      registration = await this.atProvider(() => adapter.registerWebhook(this.webhookUrl(id, webhookSecret)));
    } catch (error) {
      await this.accounts.deleteOne({ _id: id });
      throw error;
    }
    await this.registerRecurrenceWebhooks(adapter, id, this.webhookUrl(id, webhookSecret));
    await this.registerSubaccountWebhook(adapter, doc, webhookSecret);
    if (registration.manualSetupRequired && registration.events) {
      // An emulator stands in for the owner pasting the URL in the provider's dashboard.
      await this.withEmulatorControl(input, (control) => control.configureWebhook(this.webhookUrl(id, webhookSecret), registration.events ?? []));
    }
    if (registration.signingSecret || registration.manualSetupRequired) {
      // Nobody else knows this account's id yet: this write cannot race another writer.
      doc.signing_secret_sealed = registration.signingSecret ? this.secrets.seal(registration.signingSecret) : null;
      doc.webhook_manual_setup = registration.manualSetupRequired === true;
      await this.accounts.updateOne(
        { _id: id },
        { $set: { signing_secret_sealed: doc.signing_secret_sealed, webhook_manual_setup: doc.webhook_manual_setup } },
      );
      // The adapter built above has no signing secret: the next call builds one that has.
    } else {
      this.adapters.set(id, { adapter, signed: false });
    }
    this.logger.info({ account_id: id, provider: input.provider, mode: input.mode }, 'provider account connected');
    await this.onChange?.(doc, 'connected');
    return doc;
  }

  /**
   * Where the provider takes separate webhook URLs for Pix Automático (Efí `webhookrec` and
   * `webhookcobr`, Woovi's `PIX_AUTOMATIC_*` events), the same intake URL is registered for them.
   * A refusal does not fail the connection: an account whose credentials lack the recurrence
   * scopes still takes payments, and its recurrences are then only known by reading them.
   */
  private async registerRecurrenceWebhooks(adapter: ProviderAdapter, accountId: string, url: string): Promise<void> {
    if (!isRecurrenceCapable(adapter) || !adapter.registerRecurrenceWebhooks) return;
    try {
      await adapter.registerRecurrenceWebhooks(url);
    } catch (error) {
      this.logger.warn({ account_id: accountId, err: (error as Error).message }, 'Pix Automático webhooks not registered at the provider');
    }
  }

  /**
   * Where subaccounts report on an endpoint of their own (Stripe Connect's `account.updated`), it
   * is registered at the intake URL's subaccount sub-path and its signing secret kept sealed. A
   * refusal does not fail the connection: the subaccounts' statuses are still read by sync.
   */
  private async registerSubaccountWebhook(adapter: ProviderAdapter, doc: ProviderAccountDoc, webhookSecret: string): Promise<void> {
    if (!isSubaccountCapable(adapter) || !adapter.registerSubaccountWebhook) return;
    try {
      const registration = await adapter.registerSubaccountWebhook(this.subaccountWebhookUrl(doc._id, webhookSecret));
      if (!registration.signingSecret) return;
      doc.subaccount_signing_secret_sealed = this.secrets.seal(registration.signingSecret);
      await this.accounts.updateOne({ _id: doc._id }, { $set: { subaccount_signing_secret_sealed: doc.subaccount_signing_secret_sealed } });
    } catch (error) {
      // The registered URL carries the account's webhook secret (?hmac=): never log a text that may echo it.
      this.logger.warn({ account_id: doc._id, err: (error as Error).message.replace(/hmac=[^&\s"']+/g, 'hmac=***') }, 'subaccount webhook endpoint not registered at the provider');
    }
  }

  /** The account's intake URL for its subaccount endpoint (same secret, sub-path SUBACCOUNT_WEBHOOK_SUB_PATH). */
  subaccountWebhookUrl(accountId: string, secret: string): string {
    return `${this.webhookBaseUrl.replace(/\/$/, '')}/webhooks/providers/${accountId}/${SUBACCOUNT_WEBHOOK_SUB_PATH}?hmac=${secret}`;
  }

  /**
   * An adapter that authenticates the deliveries of the account's subaccount endpoint (its own
   * signing secret); undefined when the account has none. Not cached: these deliveries are rare.
   */
  subaccountEndpointAdapterFor(doc: ProviderAccountDoc): ProviderAdapter | undefined {
    if (!doc.subaccount_signing_secret_sealed) return undefined;
    const cached = this.subaccountEndpointAdapters.get(doc._id);
    if (cached) return cached;
    const adapter = this.adapterWith(doc, this.secrets.open(doc.subaccount_signing_secret_sealed));
    this.subaccountEndpointAdapters.set(doc._id, adapter);
    return adapter;
  }

  /** An adapter for the account as stored, authenticating webhooks with `signingSecret` when given. */
  private adapterWith(doc: ProviderAccountDoc, signingSecret: string | undefined): ProviderAdapter {
    return this.buildAdapter({
      id: doc._id,
      provider: doc.provider,
      mode: doc.mode,
      credentials: JSON.parse(this.secrets.open(doc.credentials_sealed)) as Record<string, string>,
      webhookSecret: this.secrets.open(doc.webhook_secret_sealed),
      webhookUrl: this.webhookUrl(doc._id, this.secrets.open(doc.webhook_secret_sealed)),
      ...(signingSecret ? { signingSecret } : {}),
    });
  }

  /** Runs a provider call made while connecting, turning provider failures into API errors. */
  private async atProvider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof ProviderError && error.kind === 'invalid_credentials') throw new AppError('invalid_credentials', { param: 'credentials' });
      if (error instanceof ProviderError) throw new AppError(error.normalizedCode === 'not_found' ? 'provider_error' : error.normalizedCode);
      throw error;
    }
  }

  /**
   * The URL registered at the provider. Efí appends "/pix" to it; ending it in `&ignorar=` makes
   * that suffix a harmless query value (Efí's documented recipe), and `hmac` authenticates the call.
   */
  webhookUrl(accountId: string, secret: string): string {
    return `${this.webhookBaseUrl.replace(/\/$/, '')}/webhooks/providers/${accountId}?hmac=${secret}`;
  }

  list(merchantId: string, mode: 'test' | 'live'): Promise<ProviderAccountDoc[]> {
    return this.accounts.find({ merchant_id: merchantId, mode }).sort({ priority: 1, _id: 1 }).lean<ProviderAccountDoc[]>().exec();
  }

  /** One account of the caller's merchant and mode; not found otherwise (never another merchant's). */
  async get(merchantId: string, mode: 'test' | 'live', accountId: string): Promise<ProviderAccountDoc> {
    const doc = await this.accounts.findOne({ _id: accountId, merchant_id: merchantId, mode }).lean<ProviderAccountDoc>();
    if (!doc) throw new AppError('not_found', { param: 'provider_account_id' });
    return doc;
  }

  /** For webhook intake, where the secret in the URL (not a caller) authenticates. */
  getUnscoped(accountId: string): Promise<ProviderAccountDoc | null> {
    return this.accounts.findById(accountId).lean<ProviderAccountDoc>().exec();
  }

  adapterFor(doc: ProviderAccountDoc): ProviderAdapter {
    const cached = this.adapters.get(doc._id);
    // A reader that lists every account (the dispute-poll seeder, on any replica) can read one while
    // it is being connected, before its signing secret is stored, and build an adapter without it
    // that refuses every signed webhook. So a document with the secret replaces such an adapter (the
    // webhook intake reads the account afresh), and a document without it never replaces one with it.
    if (cached && (cached.signed || !doc.signing_secret_sealed)) return cached.adapter;
    const adapter = this.adapterWith(doc, doc.signing_secret_sealed ? this.secrets.open(doc.signing_secret_sealed) : undefined);
    this.adapters.set(doc._id, { adapter, signed: Boolean(doc.signing_secret_sealed) });
    return adapter;
  }

  /**
   * Runs `work` with the account's emulator control. Undefined when there is none (a live account,
   * or a provider whose real sandbox is used): none of the real sandboxes has an API for paying a
   * test charge.
   */
  async withEmulatorControl<T>(account: Pick<AdapterAccount, 'provider' | 'mode' | 'credentials'>, work: (control: EmulatorControl) => Promise<T>): Promise<T | undefined> {
    const control = this.emulatorControl(account);
    if (!control) return undefined;
    try {
      return await work(control);
    } finally {
      await control.close();
    }
  }

  /** The credentials of a stored account, for its emulator control. */
  sandboxAccount(doc: ProviderAccountDoc): Pick<AdapterAccount, 'provider' | 'mode' | 'credentials'> {
    return { provider: doc.provider, mode: doc.mode, credentials: JSON.parse(this.secrets.open(doc.credentials_sealed)) as Record<string, string> };
  }

  /** Runs one provider call for an account through that account's circuit breaker. */
  call<T>(doc: ProviderAccountDoc, operation: (adapter: ProviderAdapter) => Promise<T>): Promise<T> {
    const adapter = this.adapterFor(doc);
    return this.breakers.fire(doc._id, () => operation(adapter), doc.provider);
  }
}
