import type { tracking } from '@orquestra/contracts';
import { AppError, newId, type InvalidatingCache, type SecretBox } from '@orquestra/platform';
import { INTEGRATION_SALES, type IntegrationDoc, type IntegrationModel, type IntegrationSales } from '../db/integration.model';
import { checkIntegrationInput, last4 } from '../domain/integration-input';
import type { AdTool, IntegrationConfig, IntegrationKindId, KindDescription } from '../tools/ad-tool';
import type { CallerScope } from './scope';

const NAME_MAX = 100;

export const integrationNotFound = () =>
  new AppError('not_found', { param: 'integration', message: 'Integração não encontrada: confira o id (itg_…) em GET /integrations.' });

/**
 * A test key works with integrations that receive test sales only: one that receives real sales
 * (live, both) would hand live buyers' data to whoever holds a test key, which is often found in
 * development machines and logs. Live keys see and manage all of the merchant's integrations.
 */
function visibleTo(scope: CallerScope): Record<string, unknown> {
  return scope.mode === 'live' ? {} : { sales: 'test' };
}

function allowedSales(scope: CallerScope, sales: IntegrationSales): IntegrationSales {
  if (scope.mode === 'test' && sales !== 'test') {
    throw new AppError('parameter_invalid', {
      param: 'sales',
      message: 'Uma chave de teste só configura integrações que recebem vendas de teste (sales test). Para receber vendas reais (live ou both), use uma chave live.',
    });
  }
  return sales;
}

/** Integrations one merchant may have (each sale is sent to all of them). */
export const MAX_INTEGRATIONS = 50;

function checkSales(sales: string | undefined, fallback: IntegrationSales | undefined): IntegrationSales {
  const value = (sales ?? '').trim();
  if (value === '' && fallback) return fallback;
  if (!(INTEGRATION_SALES as readonly string[]).includes(value)) {
    throw new AppError('parameter_invalid', { param: 'sales', message: 'sales inválido: use live (vendas reais), test (vendas de teste) ou both (as duas).' });
  }
  return value as IntegrationSales;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new AppError('parameter_invalid', { param: 'name', message: 'name não pode ficar vazio: dê um nome à integração ou omita o campo.' });
  if (trimmed.length > NAME_MAX) throw new AppError('parameter_invalid', { param: 'name', message: `name aceita no máximo ${NAME_MAX} caracteres.` });
  return trimmed;
}

const last4Of = (credentials: Record<string, string>) => Object.fromEntries(Object.entries(credentials).map(([name, value]) => [name, last4(value)]));

/**
 * The merchant's integrations with ad tools (spec §4 "Ad integrations"). They belong to the
 * merchant, not to a key's mode: `sales` chooses which sales they receive. Credentials are sealed
 * as one JSON (SecretBox) and never leave this class except opened for a send (`configOf`).
 */
export class IntegrationsService {
  constructor(
    private readonly integrations: IntegrationModel,
    private readonly box: SecretBox,
    private readonly tools: Record<IntegrationKindId, AdTool>,
    /** Called after a delete, so the integration's pending sends are dropped. */
    private readonly onDeleted: (integration: IntegrationDoc) => Promise<void> = async () => undefined,
  ) {}

  kinds(): KindDescription[] {
    return Object.values(this.tools).map((tool) => tool.describe());
  }
  /** Each merchant's enabled integrations, read for every sale event (set by cacheEnabled). */
  private enabledCache: InvalidatingCache<IntegrationDoc[]> | undefined;
  private signalChange: (merchantId: string) => Promise<void> = async () => undefined;

  /**
   * Serves `enabledFor` from `cache`, dropped by this service's own writes and, through `signal`
   * (awaited: confirmed by the broker before the change is answered), on every other replica
   * (docs/decisions.md "Caches"). While the signals are down the cache reads through.
   */
  cacheEnabled(cache: InvalidatingCache<IntegrationDoc[]>, signal: (merchantId: string) => Promise<void>): void {
    this.enabledCache = cache;
    this.signalChange = signal;
  }

  /** Another replica changed a merchant's integrations (its signal), or this one did. */
  integrationsChanged(merchantId: string): void {
    this.enabledCache?.invalidate(merchantId);
  }

  /** The merchant's enabled integrations that take sales of `mode` (every sale event asks). */
  async enabledFor(merchantId: string, mode: 'test' | 'live'): Promise<IntegrationDoc[]> {
    const load = () => this.integrations.find({ merchant_id: merchantId, enabled: true }).sort({ _id: 1 }).lean<IntegrationDoc[]>().exec();
    const enabled = this.enabledCache ? await this.enabledCache.get(merchantId, load) : await load();
    return enabled.filter((integration) => integration.sales === mode || integration.sales === 'both');
  }

  private async changed(merchantId: string): Promise<void> {
    this.integrationsChanged(merchantId);
    await this.signalChange(merchantId);
  }


  async create(scope: CallerScope, request: tracking.CreateIntegrationRequest): Promise<IntegrationDoc> {
    const sales = allowedSales(scope, checkSales(request.sales, scope.mode));
    // The list answers every integration in one page: a merchant's count is bounded.
    if ((await this.integrations.countDocuments({ merchant_id: scope.merchantId })) >= MAX_INTEGRATIONS) {
      throw new AppError('parameter_invalid', {
        param: 'kind',
        message: `Limite de ${MAX_INTEGRATIONS} integrações por conta atingido: exclua uma que não use mais (DELETE /integrations/{id}) antes de criar outra.`,
      });
    }
    const checked = checkIntegrationInput(request.kind, { options: request.options, credentials: request.credentials }, { partial: false });
    const kind = request.kind as IntegrationKindId;
    const name = request.name.trim() === '' ? this.tools[kind].describe().name : checkName(request.name);
    const now = new Date();
    const doc: IntegrationDoc = {
      _id: newId('integration'),
      merchant_id: scope.merchantId,
      kind,
      name,
      enabled: request.enabled ?? true,
      sales,
      options: checked.options,
      credentials_sealed: this.box.seal(JSON.stringify(checked.credentials)),
      credentials_last4: last4Of(checked.credentials),
      created_at: now,
      updated_at: now,
    };
    await this.integrations.create(doc);
    await this.changed(scope.merchantId);
    return doc;
  }

  async list(scope: CallerScope): Promise<IntegrationDoc[]> {
    return this.integrations.find({ merchant_id: scope.merchantId, ...visibleTo(scope) }).sort({ _id: 1 }).limit(MAX_INTEGRATIONS).lean<IntegrationDoc[]>();
  }

  async get(scope: CallerScope, id: string): Promise<IntegrationDoc> {
    const doc = id ? await this.integrations.findOne({ _id: id, merchant_id: scope.merchantId, ...visibleTo(scope) }).lean<IntegrationDoc>() : null;
    if (!doc) throw integrationNotFound();
    return doc;
  }

  /**
   * Name, enabled, sales, options (merged; an empty value removes an optional one) and
   * credentials (a given one replaces the old). The write is conditional on the version read
   * (`updated_at`), so two concurrent changes of the sealed credentials never lose one another.
   */
  async update(scope: CallerScope, request: tracking.UpdateIntegrationRequest): Promise<IntegrationDoc> {
    for (let round = 0; round < 5; round++) {
      const current = await this.get(scope, request.integration_id);
      const checked = checkIntegrationInput(current.kind, { options: request.options, credentials: request.credentials }, { partial: true });
      const options = { ...current.options, ...checked.options };
      for (const [name, value] of Object.entries(request.options)) if (value.trim() === '') delete options[name];
      const set: Partial<IntegrationDoc> = { options, updated_at: new Date(Math.max(Date.now(), current.updated_at.getTime() + 1)) };
      if (request.name !== undefined) set.name = checkName(request.name);
      if (request.enabled !== undefined) set.enabled = request.enabled;
      if (request.sales !== undefined) set.sales = allowedSales(scope, checkSales(request.sales, undefined));
      const given = Object.fromEntries(Object.entries(checked.credentials).filter(([, value]) => value !== ''));
      if (Object.keys(given).length > 0) {
        const credentials = { ...this.openCredentials(current), ...given };
        set.credentials_sealed = this.box.seal(JSON.stringify(credentials));
        set.credentials_last4 = last4Of(credentials);
      }
      const updated = await this.integrations
        .findOneAndUpdate({ _id: current._id, merchant_id: scope.merchantId, updated_at: current.updated_at }, { $set: set }, { new: true })
        .lean<IntegrationDoc>()
        .exec();
      if (updated) {
        await this.changed(scope.merchantId);
        return updated;
      }
    }
    throw new AppError('service_unavailable', { param: 'integration', message: 'A integração foi alterada ao mesmo tempo por outra chamada: tente de novo.' });
  }

  async delete(scope: CallerScope, id: string): Promise<IntegrationDoc> {
    const deleted = id ? await this.integrations.findOneAndDelete({ _id: id, merchant_id: scope.merchantId, ...visibleTo(scope) }).lean<IntegrationDoc>().exec() : null;
    if (!deleted) throw integrationNotFound();
    await this.changed(scope.merchantId);
    await this.onDeleted(deleted);
    return deleted;
  }

  /** What a tool needs for a send: options, and the credentials opened from their seal. */
  configOf(doc: IntegrationDoc): IntegrationConfig {
    return { kind: doc.kind, options: doc.options, credentials: this.openCredentials(doc) };
  }

  private openCredentials(doc: IntegrationDoc): Record<string, string> {
    return JSON.parse(this.box.open(doc.credentials_sealed)) as Record<string, string>;
  }
}

export function toProtoIntegration(doc: IntegrationDoc): tracking.Integration {
  return {
    id: doc._id,
    kind: doc.kind,
    name: doc.name,
    enabled: doc.enabled,
    sales: doc.sales,
    options: { ...doc.options },
    credentials_last4: { ...doc.credentials_last4 },
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

export function toProtoKind(kind: KindDescription): tracking.IntegrationKind {
  return { id: kind.id, name: kind.name, description: kind.description, credentials: kind.credentials, options: kind.options, sends: kind.sends };
}

