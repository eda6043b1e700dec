/**
 * Over 300 lines: the subscription use cases (create with its recurrence, list, cancel, simulate,
 * provider-reported statuses) around one store that decides every race; cycles are in
 * cycles.service.ts.
 */
import { modeFromName, type common, type customers as customersContract, type providers } from '@orquestra/contracts';
import { AppError, newId, type RpcClient } from '@orquestra/platform';
import { saoPauloDate } from '../domain/calendar-date';
import { cycleAt } from '../domain/cycle-schedule';
import { canTransition, isSubscriptionStatus, type SubscriptionStatus } from '../domain/subscription-states';
import { validateSubscriptionInput, type SubscriptionTerms } from '../domain/subscription-input';
import type { IdempotencyRecordModel } from '../db/idempotency-record.model';
import { SubscriptionKeys } from '../db/subscription-keys';
import type { SubscriptionDoc } from '../db/subscription.model';
import type { CallerScope, SubscriptionStore } from '../db/subscription.store';
import type { RecurrenceProvider } from './recurrence-provider';

export interface CreateSubscriptionCommand {
  scope: CallerScope;
  keyId: string;
  idempotencyKey: string;
  requestHash: string;
  customer: common.Customer | undefined;
  frequency: string;
  amount?: number;
  firstAmount?: number;
  description: string;
  startDate?: string;
  endDate?: string;
  retry?: boolean;
  metadata: Record<string, string>;
  tracking: Record<string, string>;
  providerAccountId?: string;
}

export interface SubscriptionsOptions {
  approvalExpiresInSeconds: number;
  /** How long a repeat of an Idempotency-Key waits for the first request's subscription before answering idempotency_in_progress. */
  idempotencyWaitMs: number;
  /**
   * After how long a key whose request never finished (its process died mid-creation) may be taken
   * over by a repeat: longer than any provider call can last, so two creations never run at once.
   */
  idempotencyTakeoverMs?: number;
  now?: () => Date;
}

/** Payments' customer records: a subscription's payer is one, found or made by document. */
export type SubscriptionCustomers = Pick<RpcClient<typeof customersContract.CustomersServiceService>, 'upsertCustomer'>;

/** What follows a status change elsewhere (the cycles): the approval's payment, the open cycles after a cancel. */
export interface SubscriptionHooks {
  onActivated(subscription: SubscriptionDoc): Promise<void>;
  onCanceled(subscription: SubscriptionDoc): Promise<void>;
}

const REPORTED_TRANSITIONS: Readonly<Record<Exclude<SubscriptionStatus, 'pending'>, string>> = {
  active: 'subscription.activated',
  refused: 'subscription.refused',
  expired: 'subscription.expired',
  canceled: 'subscription.canceled',
};

/** A list page is at most this long (spec §4 lists). */
export const MAX_LIST_LIMIT = 100;

const MAX_RACE_RETRIES = 5;

function scopeRef(scope: CallerScope, accountId: string): providers.RecurrenceAccountRef {
  return { merchant_id: scope.merchantId, mode: modeFromName(scope.mode), account_id: accountId };
}

/**
 * The subscription use cases. The store decides every race (unique inserts, conditional writes);
 * the provider recurrence is created under the subscription's id, which makes its creation
 * idempotent, so a repeat never creates a second recurrence.
 */
export class SubscriptionsService {
  private readonly now: () => Date;
  private readonly keys: SubscriptionKeys;

  constructor(
    private readonly store: SubscriptionStore,
    idempotency: IdempotencyRecordModel,
    private readonly provider: RecurrenceProvider,
    private readonly customers: SubscriptionCustomers,
    private readonly options: SubscriptionsOptions,
    private readonly hooks?: SubscriptionHooks,
  ) {
    this.now = options.now ?? (() => new Date());
    this.keys = new SubscriptionKeys(idempotency, store, options.idempotencyWaitMs, options.idempotencyTakeoverMs ?? 120_000, this.now);
  }

  async create(command: CreateSubscriptionCommand): Promise<{ subscription: SubscriptionDoc; replayed: boolean }> {
    const validated = validateSubscriptionInput(
      {
        customer: { ...(command.customer?.name !== undefined ? { name: command.customer.name } : {}), ...(command.customer?.document !== undefined ? { document: command.customer.document } : {}) },
        frequency: command.frequency,
        ...(command.amount !== undefined ? { amount: command.amount } : {}),
        ...(command.firstAmount !== undefined ? { first_amount: command.firstAmount } : {}),
        description: command.description,
        ...(command.startDate !== undefined ? { start_date: command.startDate } : {}),
        ...(command.endDate !== undefined ? { end_date: command.endDate } : {}),
        ...(command.retry !== undefined ? { retry: command.retry } : {}),
        metadata: command.metadata,
      },
      saoPauloDate(this.now()),
    );
    if (!validated.ok) throw new AppError(validated.error.code, { param: validated.error.param, message: validated.error.message });
    const terms = validated.value;

    if (!command.idempotencyKey) {
      const accountId = await this.chooseAccount(command.scope, command.providerAccountId);
      return { subscription: (await this.createAt(command, terms, newId('subscription'), accountId)).subscription, replayed: false };
    }
    const arrived = this.now();
    const claimed = await this.keys.claim(command.scope, command.idempotencyKey, command.requestHash, () => this.chooseAccount(command.scope, command.providerAccountId));
    let owner = claimed.owner;
    if (!owner) {
      const outcome = await this.keys.awaitOwner(claimed.record, arrived);
      if (outcome.kind === 'done') return { subscription: outcome.subscription, replayed: true };
      // Still being created by another request: never a second creation beside it (the adapters'
      // look-up-then-create is not atomic at every provider), unless that request is long dead.
      if (outcome.kind === 'waited' && !(await this.keys.takeOver(claimed.record))) {
        throw new AppError('idempotency_in_progress', { param: 'Idempotency-Key' });
      }
      owner = true;
    }
    // The owner, a request retrying a failed creation, or one that took over a dead request's key:
    // the same id and account, so a repeat at the provider finds what was made.
    const { record } = claimed;
    try {
      const made = await this.createAt(command, terms, record.subscription_id, record.provider_account_id);
      return { subscription: made.subscription, replayed: !made.inserted };
    } catch (error) {
      // Any failure is shared with the repeats (an unexpected one as `internal`), so none waits for a takeover.
      if (owner) await this.keys.fail(record, error instanceof AppError ? error : new AppError('internal'));
      throw error;
    }
  }

  async list(scope: CallerScope, query: { status?: string; limit: number; startingAfter?: string }) {
    let status: SubscriptionStatus | undefined;
    if (query.status !== undefined) {
      if (!isSubscriptionStatus(query.status)) throw new AppError('parameter_invalid', { param: 'status', message: 'O filtro status deve ser um entre pending, active, canceled, refused, expired.' });
      status = query.status;
    }
    if (!Number.isInteger(query.limit) || query.limit < 0 || query.limit > MAX_LIST_LIMIT) {
      throw new AppError('parameter_invalid', { param: 'limit', message: `O parâmetro limit deve ser um inteiro de 1 a ${MAX_LIST_LIMIT}.` });
    }
    return this.store.list(scope, {
      limit: query.limit || 10,
      ...(status ? { status } : {}),
      ...(query.startingAfter ? { startingAfter: query.startingAfter } : {}),
    });
  }

  get(scope: CallerScope, id: string): Promise<SubscriptionDoc> {
    return this.store.get(scope, id);
  }

  /**
   * pending/active → canceled: the provider stops the recurrence first (so nothing is debited after
   * we say canceled), then one conditional write. Canceling a canceled subscription answers it as is.
   */
  async cancel(scope: CallerScope, id: string): Promise<SubscriptionDoc> {
    let current = await this.store.get(scope, id);
    for (let race = 0; race < MAX_RACE_RETRIES; race++) {
      if (current.status === 'canceled') return current;
      if (current.status !== 'pending' && current.status !== 'active') {
        throw new AppError('invalid_request', { param: 'id', message: `A assinatura ${id} está ${current.status} e não pode mais ser cancelada.` });
      }
      if (race === 0) await this.provider.cancelRecurrence({ account: scopeRef(scope, current.provider_account_id), provider_recurrence_id: current.provider_recurrence_id });
      const written = await this.store.transition(current, { to: 'canceled', set: { approval: null, next_charge_date: null }, event: 'subscription.canceled' });
      if (written) {
        await this.hooks?.onCanceled(written);
        return written;
      }
      current = await this.store.get(scope, id);
    }
    throw new AppError('service_unavailable');
  }

  /** Test mode: approves the pending authorisation as the payer's bank would; pending → active, the approval gone. */
  async simulate(scope: CallerScope, id: string): Promise<SubscriptionDoc> {
    if (scope.mode !== 'test') throw new AppError('live_mode_forbidden');
    const current = await this.store.get(scope, id);
    if (current.status !== 'pending') {
      // A simulate repeated after its activation hook failed finishes the hook (idempotent).
      if (current.status === 'active') await this.hooks?.onActivated(current);
      throw this.notSimulatable(current);
    }
    try {
      await this.provider.approveRecurrenceInSandbox({
        account: scopeRef(scope, current.provider_account_id),
        provider_recurrence_id: current.provider_recurrence_id,
        ...(current.approval_charge_id ? { approval_charge_id: current.approval_charge_id } : {}),
      });
    } catch (error) {
      // Canceled meanwhile: the provider refuses to approve a canceled recurrence, possibly before
      // the cancel's own write lands here.
      const now = await this.store.get(scope, id);
      if (now.status !== 'pending') throw this.notSimulatable(now);
      if (error instanceof AppError && error.code === 'provider_rejected') {
        throw new AppError('payment_not_simulatable', {
          param: 'id',
          message: `O provedor não aceita mais a aprovação da assinatura ${id} (por exemplo: ela foi cancelada durante a simulação). Consulte a assinatura em GET /v1/subscriptions/${id}.`,
        });
      }
      throw error;
    }
    const written = await this.store.transition(current, { to: 'active', set: { approval: null }, event: 'subscription.activated' });
    if (written) {
      await this.hooks?.onActivated(written);
      return written;
    }
    // Another writer (a cancel, the provider's report of the approval) changed it first: its state is the answer.
    return this.store.get(scope, id);
  }

  /**
   * The provider reports the recurrence's status (webhook or sync): the subscription follows when
   * the table allows it (one conditional write; a repeat or a stale report changes nothing).
   */
  async applyReportedStatus(accountId: string, providerRecurrenceId: string, reported: SubscriptionStatus): Promise<SubscriptionDoc | null> {
    for (let race = 0; race < MAX_RACE_RETRIES; race++) {
      const current = await this.store.findByRecurrence(accountId, providerRecurrenceId);
      if (current && current.status === reported) {
        // Already there (a repeat, or a delivery whose hook failed after the status was written):
        // the hooks are idempotent, so they run again and finish what a failure left.
        await this.runHooks(current);
        return current;
      }
      if (!current || reported === 'pending' || !canTransition(current.status, reported)) return current;
      const written = await this.store.transition(current, {
        to: reported,
        set: reported === 'active' ? { approval: null } : { approval: null, next_charge_date: null },
        event: REPORTED_TRANSITIONS[reported],
      });
      if (written) {
        await this.runHooks(written);
        return written;
      }
    }
    throw new Error(`subscription of recurrence ${providerRecurrenceId}: status kept changing`);
  }

  private async runHooks(doc: SubscriptionDoc): Promise<void> {
    if (doc.status === 'active') await this.hooks?.onActivated(doc);
    if (doc.status === 'canceled') await this.hooks?.onCanceled(doc);
  }

  private notSimulatable(doc: SubscriptionDoc): AppError {
    return new AppError('payment_not_simulatable', { param: 'id', message: `Só é possível simular a aprovação de uma assinatura pendente; a assinatura ${doc._id} está ${doc.status}.` });
  }

  /**
   * The account: the one asked for, else the first enabled account (by priority) whose provider
   * offers Pix Automático. Only one: a second account would make a second recurrence.
   */
  private async chooseAccount(scope: CallerScope, requested: string | undefined): Promise<string> {
    if (requested) {
      const { account } = await this.provider.getAccount({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode), account_id: requested }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') {
          throw new AppError('parameter_invalid', { param: 'provider_account_id', message: `Não existe conta de provedor ${requested} neste modo. Confira o id em GET /v1/provider-accounts ou omita provider_account_id.` });
        }
        throw error;
      });
      if (!account?.enabled) throw new AppError('parameter_invalid', { param: 'provider_account_id', message: `A conta ${requested} está desativada. Ative-a ou omita provider_account_id.` });
      return requested;
    }
    const [{ accounts }, { providers: catalog }] = await Promise.all([
      this.provider.listAccounts({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode) }),
      this.provider.listProviders({}),
    ]);
    const recurring = new Set(catalog.filter((info) => info.capabilities?.subscriptions).map((info) => info.code));
    const eligible = accounts.filter((account) => account.enabled && recurring.has(account.provider)).sort((a, b) => a.priority - b.priority);
    const chosen = eligible[0];
    if (!chosen) {
      throw new AppError('no_eligible_account', {
        message: 'Nenhuma conta ativa deste modo oferece Pix Automático. Conecte uma conta de um provedor com assinaturas (veja GET /v1/providers) ou informe provider_account_id.',
      });
    }
    return chosen.id;
  }

  /**
   * Finds or makes the payer's customer record (payments, idempotent on the document), creates the
   * recurrence (idempotent on `id`), then inserts the subscription; a repeat that lost the insert
   * answers the winner's (`inserted` false). The customer comes first: a refusal there leaves
   * nothing at the provider, and a customer record without a subscription is only a buyer known
   * by document, as a card saved for them would make. Every step is safe to repeat.
   */
  private async createAt(command: CreateSubscriptionCommand, terms: SubscriptionTerms, id: string, accountId: string): Promise<{ subscription: SubscriptionDoc; inserted: boolean }> {
    const { scope } = command;
    const address = command.customer?.address;
    const customerId = await this.upsertCustomer(scope, command.keyId, terms.customer);
    const { recurrence, provider } = await this.provider.createRecurrence({
      account: scopeRef(scope, accountId),
      subscription_id: id,
      payer: { name: terms.customer.name, document: terms.customer.document, ...(address ? { address } : {}) },
      frequency: terms.frequency,
      ...(terms.amount !== null ? { amount: terms.amount } : {}),
      first_amount: terms.first_amount,
      description: terms.description ?? '',
      start_date: terms.start_date,
      ...(terms.end_date !== null ? { end_date: terms.end_date } : {}),
      retry: terms.retry,
      approval_expires_in_seconds: this.options.approvalExpiresInSeconds,
    });
    if (!recurrence) throw new AppError('provider_error');
    const now = this.now();
    // Cycle 1 is the payment made at approval (first_amount); the next charge is cycle 2.
    const second = cycleAt({ start_date: terms.start_date, frequency: terms.frequency, end_date: terms.end_date }, 2);
    const doc: Omit<SubscriptionDoc, 'outbox' | 'outbox_since'> = {
      _id: id,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      source_key_id: command.keyId,
      status: 'pending',
      amount: terms.amount,
      first_amount: terms.first_amount,
      frequency: terms.frequency,
      start_date: terms.start_date,
      end_date: terms.end_date,
      next_charge_date: second?.due_date ?? null,
      next_cycle: 2,
      description: terms.description ?? '',
      retry: terms.retry,
      customer: { name: terms.customer.name, document: terms.customer.document },
      customer_id: customerId,
      metadata: terms.metadata,
      tracking: command.tracking,
      provider,
      provider_account_id: accountId,
      provider_recurrence_id: recurrence.provider_recurrence_id,
      cycles: recurrence.cycles === 'provider' ? 'provider' : 'ours',
      approval: recurrence.approval
        ? { qr_code: recurrence.approval.qr_code, qr_code_base64: recurrence.approval.qr_code_base64 ?? '', url: recurrence.approval.url ?? '' }
        : null,
      approval_charge_id: recurrence.approval_charge_id ?? '',
      idempotency_key: command.idempotencyKey,
      created_at: now,
      updated_at: now,
    };
    const inserted = await this.store.insertCreated(doc);
    if (inserted) return { subscription: { ...doc, outbox: [], outbox_since: null }, inserted };
    // A repeat lost the insert to the first request: answer what that one stored.
    const stored = await this.store.findById(id);
    if (!stored) throw new AppError('service_unavailable');
    return { subscription: stored, inserted };
  }

  /** The payer's `cus_…` id: only name and document are sent, so an e-mail or phone payments knows stays. */
  private async upsertCustomer(scope: CallerScope, keyId: string, payer: SubscriptionTerms['customer']): Promise<string> {
    const caller: common.Caller = { merchant_id: scope.merchantId, mode: modeFromName(scope.mode), key_id: keyId, restricted: false, request_id: '' };
    const { customer } = await this.customers.upsertCustomer({ caller, customer: { name: payer.name, document: payer.document } });
    if (!customer?.id) throw new AppError('internal', { message: 'payments answered UpsertCustomer without a customer record' });
    return customer.id;
  }
}
