/**
 * Over 300 lines: a subaccount's provisioning (stored first, idempotent provider create, takeover
 * of a creation that died) and its reads, updates, syncs, split checks and balance share that one
 * lifecycle.
 */
import { modeFromName, toPublicSubaccount, type payouts, type ProviderSubaccountUpdated, type providers } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newEvent, newId, parseTaxId, withOutbox, type EventEnvelope, type OutboxRelay, type RpcClient } from '@orquestra/platform';
import type { FilterQuery } from 'mongoose';
import { maskPixKey } from '../domain/pix-key-mask';
import { SUBACCOUNT_STATUSES, type SubaccountDoc, type SubaccountModel, type SubaccountStatus } from '../db/subaccount.model';
import type { CallerScope } from '../db/payout.store';

export type SubaccountProviders = Pick<
  RpcClient<typeof providers.ProvidersServiceService>,
  'getAccount' | 'listProviders' | 'createSubaccount' | 'getSubaccount' | 'createOnboardingLink' | 'getSubaccountBalance'
>;

export const MAX_METADATA_KEYS = 20;
/** After this long, a creation whose request never finished may be taken over (longer than any provider call). */
export const PROVISION_TAKEOVER_MS = 120_000;
const MAX_LIST_LIMIT = 100;
const MAX_RACE_RETRIES = 5;

/** The stored subaccount as the API shows it: e-mails in `details` masked. */
export function toProtoSubaccount(doc: SubaccountDoc): payouts.Subaccount {
  const details = Object.fromEntries(Object.entries(doc.details).map(([key, value]) => [key, key.includes('email') && value.includes('@') ? maskPixKey('email', value) : value]));
  return {
    id: doc._id,
    mode: modeFromName(doc.mode),
    status: doc.status,
    status_detail: doc.status_detail,
    provider: doc.provider,
    provider_account_id: doc.provider_account_id,
    provider_subaccount_id: doc.provider_subaccount_id,
    type: doc.type,
    name: doc.name,
    document: doc.document,
    email: doc.email,
    details,
    metadata: doc.metadata,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    source_key_id: doc.source_key_id,
  };
}

function subaccountEvent(type: 'subaccount.created' | 'subaccount.updated', doc: SubaccountDoc): EventEnvelope {
  // The same public object the API answers (one definition, in contracts).
  return newEvent(type, doc, toPublicSubaccount(toProtoSubaccount(doc)) as unknown as Record<string, unknown>);
}

/**
 * Subaccounts (issue 15): a seller's account at the provider of one connected account. The
 * document is stored before the provider is asked (`provisioning`), under its own id, which the
 * provider's create is idempotent on; a repeat of the Idempotency-Key finishes a creation that
 * died halfway instead of making a second one. A refusal removes the stored document: nothing
 * half-made is ever listed.
 */
export class SubaccountsService {
  constructor(
    private readonly model: SubaccountModel,
    private readonly outbox: OutboxRelay,
    private readonly providers: SubaccountProviders,
  ) {}

  async create(scope: CallerScope, keyId: string, request: payouts.CreateSubaccountRequest): Promise<{ subaccount: SubaccountDoc; replayed: boolean }> {
    const person = request.person;
    if (!request.provider_account_id) throw new AppError('parameter_missing', { param: 'provider_account_id', message: 'Informe provider_account_id: a conta de provedor onde a subconta é criada.' });
    if (!person?.name?.trim()) throw new AppError('parameter_missing', { param: 'name', message: 'Informe name: o nome do titular da subconta.' });
    const taxId = parseTaxId(person.document);
    if (!taxId) throw new AppError('parameter_invalid', { param: 'document', message: 'O campo document deve ser um CPF ou CNPJ válido (dígitos verificadores conferidos).' });
    const derived = taxId.kind === 'cpf' ? 'individual' : 'company';
    if (request.type && request.type !== derived) {
      throw new AppError('parameter_invalid', { param: 'type', message: `O documento informado é um ${taxId.kind.toUpperCase()}: type deve ser ${derived} (ou omita type).` });
    }
    if (Object.keys(request.metadata).length > MAX_METADATA_KEYS) throw new AppError('metadata_invalid', { param: 'metadata', message: `A metadata aceita até ${MAX_METADATA_KEYS} chaves.` });

    const id = newId('subaccount');
    const ref = request.idempotency_key ? `${scope.merchantId}:${scope.mode}:key:${request.idempotency_key}` : id;
    const earlier = await this.model.findOne({ idempotency_ref: ref }).lean<SubaccountDoc>().exec();
    if (earlier) return this.replay(earlier, request);

    const { account } = await this.providers.getAccount({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode), account_id: request.provider_account_id }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') {
        throw new AppError('parameter_invalid', { param: 'provider_account_id', message: `Não existe conta de provedor ${request.provider_account_id} neste modo. Confira o id em GET /v1/provider-accounts.` });
      }
      throw error;
    });
    if (!account?.enabled) throw new AppError('parameter_invalid', { param: 'provider_account_id', message: `A conta ${request.provider_account_id} está desativada. Ative-a antes de criar subcontas nela.` });
    const { providers: catalog } = await this.providers.listProviders({});
    if (!catalog.find((info) => info.code === account.provider)?.capabilities?.subaccounts?.supported) {
      throw new AppError('parameter_invalid', {
        param: 'provider_account_id',
        message: `O provedor desta conta (${account.provider}) não oferece subcontas pela API. Use uma conta de um provedor com subcontas (veja capabilities.subaccounts em GET /v1/providers).`,
      });
    }

    const now = new Date();
    const doc: SubaccountDoc = {
      _id: id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      source_key_id: keyId,
      provisioning: true,
      status: 'pending',
      status_detail: '',
      provider: account.provider,
      provider_account_id: account.id,
      provider_subaccount_id: '',
      type: derived,
      name: person.name.trim(),
      document: taxId.value,
      email: person.email ?? '',
      details: {},
      split_target: '',
      pix_key: { key_type: request.pix_key?.key_type ?? '', key: request.pix_key?.key ?? '' },
      metadata: request.metadata,
      idempotency_ref: ref,
      request_hash: request.request_hash,
      created_at: now,
      updated_at: now,
      outbox: [],
      outbox_since: null,
    };
    try {
      await this.model.create(doc);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const winner = await this.model.findOne({ idempotency_ref: ref }).lean<SubaccountDoc>().exec();
      if (!winner) throw error;
      return this.replay(winner, request);
    }
    return { subaccount: await this.provision(doc, request), replayed: false };
  }

  private async replay(doc: SubaccountDoc, request: payouts.CreateSubaccountRequest): Promise<{ subaccount: SubaccountDoc; replayed: boolean }> {
    if (doc.request_hash !== request.request_hash) throw new AppError('idempotency_conflict', { param: 'Idempotency-Key' });
    if (!doc.provisioning) return { subaccount: doc, replayed: true };
    // Still being created by the first request: never a second create beside it (a provider's
    // look-up-then-create is not atomic). One dead for longer than any provider call is taken
    // over by one conditional write, and finished under the same id.
    if (Date.now() - doc.updated_at.getTime() < PROVISION_TAKEOVER_MS) throw new AppError('idempotency_in_progress', { param: 'Idempotency-Key' });
    const claimed = await this.model
      .findOneAndUpdate({ _id: doc._id, provisioning: true, updated_at: doc.updated_at }, { $set: { updated_at: new Date() } }, { new: true })
      .lean<SubaccountDoc>()
      .exec();
    if (!claimed) throw new AppError('idempotency_in_progress', { param: 'Idempotency-Key' });
    return { subaccount: await this.provision(claimed, request), replayed: true };
  }

  /** Creates it at the provider under its id, then shows it (subaccount.created); a refusal removes it. */
  private async provision(doc: SubaccountDoc, request: payouts.CreateSubaccountRequest): Promise<SubaccountDoc> {
    let answer: providers.CreateSubaccountResponse;
    try {
      answer = await this.providers.createSubaccount({
        account: { merchant_id: doc.merchant_id, mode: modeFromName(doc.mode), account_id: doc.provider_account_id },
        subaccount_id: doc._id,
        type: doc.type,
        person: { ...request.person!, document: doc.document },
        ...(request.bank_account ? { bank_account: request.bank_account } : {}),
        ...(request.pix_key ? { pix_key: request.pix_key } : {}),
        ...(request.company ? { company: request.company } : {}),
        ...(request.partner ? { partner: request.partner } : {}),
        transfer_interval: request.transfer_interval,
      });
    } catch (error) {
      // Refused (a field the provider requires, a value it does not take): nothing half-made stays.
      if (error instanceof AppError && ['parameter_missing', 'parameter_invalid', 'invalid_request', 'provider_rejected'].includes(error.code)) {
        await this.model.deleteOne({ _id: doc._id, provisioning: true }).exec();
      }
      throw error;
    }
    const made = answer.subaccount;
    if (!made) throw new AppError('provider_error');
    const status = toStatus(made.status);
    const after: SubaccountDoc = {
      ...doc,
      provisioning: false,
      status,
      status_detail: made.status_detail,
      provider_subaccount_id: made.provider_subaccount_id,
      details: made.details,
      split_target: made.split_target,
      updated_at: new Date(),
    };
    const written = await this.model
      .findOneAndUpdate(
        { _id: doc._id, provisioning: true },
        withOutbox(
          {
            $set: {
              provisioning: false,
              status,
              status_detail: after.status_detail,
              provider_subaccount_id: after.provider_subaccount_id,
              details: after.details,
              split_target: after.split_target,
              updated_at: after.updated_at,
            },
          },
          [subaccountEvent('subaccount.created', after)],
        ),
        { new: true },
      )
      .lean<SubaccountDoc>()
      .exec();
    if (written) {
      void this.outbox.flush(this.model.collection, doc._id);
      return written;
    }
    // Another request finished it first.
    return this.mustFind(doc._id);
  }

  async list(scope: CallerScope, query: { status: string; providerAccountId: string; q: string; limit: number; startingAfter: string }): Promise<{ data: SubaccountDoc[]; hasMore: boolean }> {
    if (query.status && !(SUBACCOUNT_STATUSES as readonly string[]).includes(query.status)) {
      throw new AppError('parameter_invalid', { param: 'status', message: 'O filtro status deve ser um entre pending, active, refused, blocked, inactive.' });
    }
    if (!Number.isInteger(query.limit) || query.limit < 0 || query.limit > MAX_LIST_LIMIT) {
      throw new AppError('parameter_invalid', { param: 'limit', message: `O parâmetro limit deve ser um inteiro de 1 a ${MAX_LIST_LIMIT}.` });
    }
    const limit = query.limit || 10;
    const filter: FilterQuery<SubaccountDoc> = { merchant_id: scope.merchantId, mode: scope.mode, provisioning: false };
    if (query.status) filter.status = query.status as SubaccountStatus;
    if (query.providerAccountId) filter.provider_account_id = query.providerAccountId;
    if (query.startingAfter) filter._id = { $lt: query.startingAfter };
    if (query.q) {
      const text = new RegExp(query.q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
      const digits = query.q.replace(/[.\-/\s]/g, '').toUpperCase();
      filter.$or = [{ name: text }, { email: text }, ...(digits ? [{ document: digits }] : [])];
    }
    const docs = await this.model.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<SubaccountDoc[]>().exec();
    return { data: docs.slice(0, limit), hasMore: docs.length > limit };
  }

  async get(scope: CallerScope, id: string): Promise<SubaccountDoc> {
    const doc = await this.model.findOne({ _id: id, merchant_id: scope.merchantId, mode: scope.mode, provisioning: false }).lean<SubaccountDoc>().exec();
    if (!doc) throw new AppError('not_found', { param: 'id', message: `Não existe subconta ${id} neste modo.` });
    return doc;
  }

  /** Name and metadata, here only (the provider keeps what it was given at creation). */
  async update(scope: CallerScope, id: string, change: { name?: string; metadata?: Record<string, string> }): Promise<SubaccountDoc> {
    if (change.name !== undefined && !change.name.trim()) throw new AppError('parameter_invalid', { param: 'name', message: 'O campo name não pode ser vazio.' });
    if (change.metadata && Object.keys(change.metadata).length > MAX_METADATA_KEYS) throw new AppError('metadata_invalid', { param: 'metadata', message: `A metadata aceita até ${MAX_METADATA_KEYS} chaves.` });
    return this.write(scope, id, () => ({
      ...(change.name !== undefined ? { name: change.name.trim() } : {}),
      ...(change.metadata ? { metadata: Object.fromEntries(Object.entries(change.metadata).filter(([, value]) => value !== '')) } : {}),
    }));
  }

  /** The status as the provider has it now; subaccount.updated when it changed. */
  async sync(scope: CallerScope, id: string): Promise<SubaccountDoc> {
    const current = await this.get(scope, id);
    const { subaccount } = await this.providers.getSubaccount({
      account: { merchant_id: current.merchant_id, mode: modeFromName(current.mode), account_id: current.provider_account_id },
      subaccount_id: current._id,
      provider_subaccount_id: current.provider_subaccount_id,
    });
    if (!subaccount) throw new AppError('provider_error');
    const status = toStatus(subaccount.status);
    const refreshed = await this.refreshSplitTarget(current, subaccount.split_target);
    if (status === current.status && subaccount.status_detail === current.status_detail) return refreshed;
    return this.write(scope, id, () => ({ status, status_detail: subaccount.status_detail, details: subaccount.details }));
  }

  /**
   * The provider's split target when it gave one that differs (a recipient re-created, a Pix key
   * changed). Not part of the public object, so no subaccount.updated for it alone.
   */
  private async refreshSplitTarget(doc: SubaccountDoc, splitTarget: string | undefined): Promise<SubaccountDoc> {
    if (!splitTarget || splitTarget === doc.split_target) return doc;
    const written = await this.model.findOneAndUpdate({ _id: doc._id }, { $set: { split_target: splitTarget } }, { new: true }).lean<SubaccountDoc>().exec();
    return written ?? doc;
  }

  /**
   * The subaccounts a payment's split names, in the order asked, with what the provider's split
   * needs. One unknown in the caller's merchant and mode (or still being created): NOT_FOUND naming
   * its position, `splits[i].subaccount_id`. Whether its status allows a split is the caller's rule.
   */
  async resolveSplits(scope: CallerScope, ids: string[]): Promise<payouts.SplitSubaccount[]> {
    if (ids.length === 0) return [];
    const docs = await this.model
      .find({ _id: { $in: [...new Set(ids)] }, merchant_id: scope.merchantId, mode: scope.mode, provisioning: false })
      .lean<SubaccountDoc[]>()
      .exec();
    const byId = new Map(docs.map((doc) => [doc._id, doc]));
    return ids.map((id, index) => {
      const doc = byId.get(id);
      if (!doc) {
        throw new AppError('not_found', { param: `splits[${index}].subaccount_id`, message: `Não existe subconta ${id || '(vazio)'} neste modo. Confira splits[${index}].subaccount_id (GET /v1/subaccounts).` });
      }
      return { id: doc._id, status: doc.status, provider: doc.provider, provider_account_id: doc.provider_account_id, split_target: doc.split_target ?? '' };
    });
  }

  /**
   * The provider's report of a status (webhook read back by providers): the subaccount follows,
   * with subaccount.updated, when it changed. `unknown` when no shown subaccount has that id yet
   * (the creation is still finishing): the caller lets the bus redeliver.
   */
  async applyReported(report: ProviderSubaccountUpdated): Promise<'applied' | 'unchanged' | 'unknown'> {
    const byId = report.subaccount_id ? await this.model.findById(report.subaccount_id).lean<SubaccountDoc>().exec() : null;
    const doc =
      byId?.provider_account_id === report.account_id
        ? byId
        : await this.model.findOne({ provider_account_id: report.account_id, provider_subaccount_id: report.provider_subaccount_id }).lean<SubaccountDoc>().exec();
    if (!doc || doc.provisioning) return 'unknown';
    const status = toStatus(report.status);
    const refreshed = await this.refreshSplitTarget(doc, report.split_target);
    if (status === doc.status && report.status_detail === doc.status_detail) return refreshed === doc ? 'unchanged' : 'applied';
    await this.write({ merchantId: doc.merchant_id, mode: doc.mode }, doc._id, () => ({ status, status_detail: report.status_detail }));
    return 'applied';
  }

  /** Where a withdrawal's money leaves from and goes to (the Pix key saved at creation, whole). */
  static withdrawalSource(doc: SubaccountDoc): providers.SubaccountSource {
    return { subaccount_id: doc._id, provider_subaccount_id: doc.provider_subaccount_id, pix_key_type: doc.pix_key?.key_type ?? '', pix_key: doc.pix_key?.key ?? '' };
  }

  /** A withdrawal's source, read again when its transfer is read back (PayoutsOptions.withdrawalSource). */
  async withdrawalSourceOf(payout: { merchant_id: string; mode: 'test' | 'live'; subaccount_id: string }): Promise<providers.SubaccountSource> {
    return SubaccountsService.withdrawalSource(await this.get({ merchantId: payout.merchant_id, mode: payout.mode }, payout.subaccount_id));
  }

  async onboardingLink(scope: CallerScope, id: string): Promise<payouts.CreateSubaccountOnboardingLinkResponse> {
    const doc = await this.get(scope, id);
    return this.providers.createOnboardingLink({
      account: { merchant_id: doc.merchant_id, mode: modeFromName(doc.mode), account_id: doc.provider_account_id },
      subaccount_id: doc._id,
      provider_subaccount_id: doc.provider_subaccount_id,
    });
  }

  async balance(scope: CallerScope, id: string): Promise<payouts.GetSubaccountBalanceResponse> {
    const doc = await this.get(scope, id);
    const { balance } = await this.providers.getSubaccountBalance({
      account: { merchant_id: doc.merchant_id, mode: modeFromName(doc.mode), account_id: doc.provider_account_id },
      subaccount_id: doc._id,
      provider_subaccount_id: doc.provider_subaccount_id,
    });
    if (!balance) throw new AppError('provider_error');
    return { available: balance.available, ...(balance.pending !== undefined ? { pending: balance.pending } : {}), currency: balance.currency || 'BRL', as_of: balance.as_of };
  }

  /** One conditional write of `change` on the document as read (its updated_at in the filter), with subaccount.updated. */
  private async write(scope: CallerScope, id: string, changeOf: (current: SubaccountDoc) => Partial<SubaccountDoc>): Promise<SubaccountDoc> {
    for (let race = 0; race < MAX_RACE_RETRIES; race++) {
      const current = await this.get(scope, id);
      const change = changeOf(current);
      const after: SubaccountDoc = { ...current, ...change, updated_at: new Date() };
      const written = await this.model
        .findOneAndUpdate(
          { _id: id, updated_at: current.updated_at },
          withOutbox({ $set: { ...change, updated_at: after.updated_at } }, [subaccountEvent('subaccount.updated', after)]),
          { new: true },
        )
        .lean<SubaccountDoc>()
        .exec();
      if (written) {
        void this.outbox.flush(this.model.collection, id);
        return written;
      }
    }
    throw new AppError('service_unavailable');
  }

  private async mustFind(id: string): Promise<SubaccountDoc> {
    const doc = await this.model.findById(id).lean<SubaccountDoc>().exec();
    if (!doc) throw new AppError('service_unavailable');
    return doc;
  }
}

function toStatus(value: string): SubaccountStatus {
  if ((SUBACCOUNT_STATUSES as readonly string[]).includes(value)) return value as SubaccountStatus;
  throw new Error(`unknown subaccount status ${value}`);
}

