/**
 * Over 300 lines: create, send, uncertain read-back, sync and the destination and balance reads
 * share the never-pay-twice rules (stored before sent, read back only) that read best in one class.
 */
import { modeFromName, type accounts, type payouts, type providers } from '@orquestra/contracts';
import { AppError, formatBrl, newId, saoPauloDate, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import { isPayoutStatus, type PayoutStatus } from '../domain/payout-states';
import { maskPixKey, type PixKeyType } from '../domain/pix-key-mask';
import { DailyLimit } from '../db/daily-limit';
import type { PayoutDestinationDoc, PayoutDoc } from '../db/payout.model';
import type { CallerScope, NewPayout, PayoutChange, PayoutStore } from '../db/payout.store';

export type PayoutProviders = Pick<
  RpcClient<typeof providers.ProvidersServiceService>,
  'getAccount' | 'listAccounts' | 'listProviders' | 'getBalance' | 'createTransfer' | 'getTransfer'
>;
export type PayoutOwnerControls = Pick<RpcClient<typeof accounts.AccountsServiceService>, 'getPayoutSettings' | 'listPayoutDestinations' | 'getPayoutDestination'>;

export interface PayoutsOptions {
  now?: () => Date;
  /** First look at the provider after an unconfirmed transfer; doubles per look, up to the max. */
  recheckBaseMs: number;
  recheckMaxMs: number;
  /** A processing payout is read again this often when no webhook arrived. */
  processingPollMs: number;
  /**
   * A transfer the provider still does not know this long after its creation was never made (no
   * provider call lasts this long): the payout fails and nothing is sent again.
   */
  notMadeAfterMs: number;
  /** How long a balance read from a provider is shown again without asking. */
  balanceTtlMs: number;
  /**
   * A withdrawal's source (the subaccount its money leaves), read when its transfer is read back:
   * GetTransfer of a withdrawal needs it. Without it a withdrawal cannot be checked.
   */
  withdrawalSource?: (doc: PayoutDoc) => Promise<providers.SubaccountSource>;
}

export interface CreatePayoutCommand {
  scope: CallerScope;
  keyId: string;
  idempotencyKey: string;
  requestHash: string;
  providerAccountId: string;
  amount: number;
  destination: { type: string; destinationId: string };
  description: string;
  metadata: Record<string, string>;
}

/** Largest payout, in cents (R$ 10 milhões): beyond it a typo, not a payout. */
export const MAX_PAYOUT_AMOUNT = 1_000_000_000;
export const MAX_LIST_LIMIT = 100;
const MAX_RACE_RETRIES = 5;
/** Error codes after which the transfer may or may not exist at the provider. */
const UNCONFIRMED = new Set(['provider_timeout', 'provider_unavailable', 'provider_error', 'provider_rate_limited', 'service_unavailable', 'internal']);

function ref(scope: { merchantId: string; mode: 'test' | 'live' } | Pick<PayoutDoc, 'merchant_id' | 'mode'>, accountId: string): providers.PayoutAccountRef {
  const merchantId = 'merchantId' in scope ? scope.merchantId : scope.merchant_id;
  return { merchant_id: merchantId, mode: modeFromName(scope.mode), account_id: accountId };
}

/**
 * Payouts (issue 14): money out of a provider account, never twice. The payout is stored before
 * anything is sent, under a unique Idempotency-Key and with its own id as the provider-side
 * idempotency handle; the transfer is created once, by the request that inserted it. When the
 * provider's answer is lost the payout is `uncertain` and only ever read back (GetTransfer by our
 * id), with backoff, until the provider says what happened.
 */
export class PayoutsService {
  private readonly now: () => Date;
  private readonly balanceCache = new Map<string, { at: number; balance: providers.Balance }>();

  constructor(
    private readonly store: PayoutStore,
    private readonly limit: DailyLimit,
    private readonly providers: PayoutProviders,
    private readonly owner: PayoutOwnerControls,
    private readonly logger: Logger,
    private readonly options: PayoutsOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  // --- create -----------------------------------------------------------------------------------

  async create(command: CreatePayoutCommand): Promise<{ payout: PayoutDoc; replayed: boolean }> {
    const { scope } = command;
    if (!command.idempotencyKey) {
      throw new AppError('parameter_missing', { param: 'Idempotency-Key', message: 'Envie o cabeçalho Idempotency-Key: um repasse sem ele poderia ser feito duas vezes.' });
    }
    if (!Number.isInteger(command.amount) || command.amount < 1 || command.amount > MAX_PAYOUT_AMOUNT) {
      throw new AppError('parameter_invalid', { param: 'amount', message: `O campo amount deve ser um inteiro em centavos entre 1 e ${MAX_PAYOUT_AMOUNT}.` });
    }
    if (command.description.length > 140) throw new AppError('parameter_invalid', { param: 'description', message: 'O campo description aceita até 140 caracteres.' });

    const earlier = await this.store.findByKey(scope, command.idempotencyKey);
    if (earlier) return { payout: this.replay(earlier, command.requestHash), replayed: true };

    const { settings } = await this.owner.getPayoutSettings({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode) });
    if (!settings?.api_enabled) throw new AppError('payouts_api_disabled');
    const account = await this.payingAccount(scope, command.providerAccountId);
    const destination = await this.destination(scope, command.destination);

    const now = this.now();
    const day = saoPauloDate(now);
    const dayId = DailyLimit.dayId(scope.merchantId, scope.mode, day);
    if (!(await this.limit.reserve(dayId, command.amount, settings.daily_limit))) {
      throw new AppError('payout_limit_exceeded', {
        param: 'amount',
        message: `Este repasse passaria do limite diário de repasses (${formatBrl(settings.daily_limit)} em ${day}, modo ${scope.mode}). Tente um valor menor ou amanhã; o dono da conta pode aumentar o limite.`,
      });
    }
    let doc: PayoutDoc | null;
    try {
      doc = await this.store.insert({
      _id: newId('payout'),
      merchant_id: scope.merchantId,
      mode: scope.mode,
      source_key_id: command.keyId,
      status: 'pending',
      amount: command.amount,
      amount_requested: null,
      whole_balance: false,
      fee: null,
      provider: account.provider,
      provider_account_id: account.id,
      provider_transfer_id: '',
      destination: destination.doc,
      uncertain: false,
      checks: 0,
      description: command.description,
      metadata: command.metadata,
      failure_code: null,
      failure_reason: null,
      paid_at: null,
      limit_day: dayId,
      limit_released: false,
      idempotency_key: command.idempotencyKey,
      request_hash: command.requestHash,
      refusal: null,
      subaccount_id: '',
      // If this request dies before the provider answers, a recheck reads the transfer back.
      due_at: new Date(now.getTime() + Math.max(this.options.recheckBaseMs, 30_000)),
      created_at: now,
      updated_at: now,
    });
    } catch (error) {
      // Nothing stored: the reservation goes back (only a crash between the two writes keeps it).
      await this.limit.release(dayId, command.amount);
      throw error;
    }
    if (!doc) {
      // A concurrent request with the same key inserted first: its payout is the answer.
      await this.limit.release(dayId, command.amount);
      const winner = await this.store.findByKey(scope, command.idempotencyKey);
      if (!winner) throw new AppError('service_unavailable');
      return { payout: this.replay(winner, command.requestHash), replayed: true };
    }
    return { payout: await this.send(doc, destination.transfer), replayed: false };
  }

  /**
   * A payout another use case built and checked (a subaccount withdrawal): inserted under its
   * Idempotency-Key with payout.created, then its one transfer sent, with the same machinery as
   * any payout. Losing the insert race to the same key answers the winner (or its conflict).
   */
  async open(doc: NewPayout, destination: providers.TransferDestination, source?: providers.SubaccountSource): Promise<{ payout: PayoutDoc; replayed: boolean }> {
    const inserted = await this.store.insert(doc);
    if (!inserted) {
      const winner = await this.store.findByKey({ merchantId: doc.merchant_id, mode: doc.mode }, doc.idempotency_key);
      if (!winner) throw new AppError('service_unavailable');
      return { payout: this.replay(winner, doc.request_hash), replayed: true };
    }
    return { payout: await this.send(inserted, destination, source), replayed: false };
  }

  /** The earlier payout of an Idempotency-Key: its answer again, or a conflict when the body differs. */
  replay(doc: PayoutDoc, requestHash: string): PayoutDoc {
    if (doc.request_hash !== requestHash) throw new AppError('idempotency_conflict', { param: 'Idempotency-Key' });
    if (doc.refusal) throw new AppError(doc.refusal.code as never, { message: doc.refusal.message, ...(doc.refusal.param ? { param: doc.refusal.param } : {}) });
    return doc;
  }

  /**
   * The one CreateTransfer of a payout (with `source`, a withdrawal from that subaccount). A refusal
   * fails it (422); no answer makes it uncertain.
   */
  private async send(doc: PayoutDoc, destination: providers.TransferDestination, source?: providers.SubaccountSource): Promise<PayoutDoc> {
    try {
      const { transfer } = await this.providers.createTransfer({
        account: ref(doc, doc.provider_account_id),
        payout_id: doc._id,
        amount: doc.amount,
        destination,
        description: doc.description,
        ...(source ? { subaccount: source } : {}),
      });
      if (!transfer) throw new AppError('provider_error');
      return await this.applyTransfer(doc._id, transfer);
    } catch (error) {
      const appError = error instanceof AppError ? error : new AppError('internal');
      if (UNCONFIRMED.has(appError.code)) {
        this.logger.warn({ payout_id: doc._id, code: appError.code }, 'payout transfer not confirmed: uncertain, reading it back');
        return this.markUncertain(doc._id);
      }
      const refusal = refusalOf(appError);
      const failed = await this.fail(doc._id, { code: refusal.code === 'insufficient_balance' ? 'insufficient_balance' : 'payout_refused', reason: refusal.message }, refusal);
      if (failed) throw new AppError(refusal.code as never, { message: refusal.message, ...(refusal.param ? { param: refusal.param } : {}) });
      return this.mustGet(doc._id);
    }
  }

  private async markUncertain(id: string): Promise<PayoutDoc> {
    for (let race = 0; race < MAX_RACE_RETRIES; race++) {
      const current = await this.mustGet(id);
      if (current.status !== 'pending' || current.provider_transfer_id || current.uncertain) return current;
      const written = await this.store.update(current, 'pending', { uncertain: true, due_at: new Date(Date.now() + this.options.recheckBaseMs) }, 'payout.uncertain');
      if (written) return written;
    }
    return this.mustGet(id);
  }

  // --- what the provider says -------------------------------------------------------------------

  /**
   * Applies the provider's view of the transfer (its answer, a webhook, a recheck, a sync): one
   * conditional write, re-read on a race. A stale view (backwards) changes nothing. A failure
   * gives the amount back to the day's limit, once.
   */
  async applyTransfer(id: string, transfer: providers.Transfer): Promise<PayoutDoc> {
    const to = transfer.status as PayoutStatus;
    if (!isPayoutStatus(to)) throw new Error(`payout ${id}: unknown transfer status ${transfer.status}`);
    for (let race = 0; race < MAX_RACE_RETRIES; race++) {
      const current = await this.mustGet(id);
      if (current.status !== to && !canMove(current.status, to)) return current;
      const open = to === 'pending' || to === 'processing';
      // A withdrawal the provider made of the whole balance (Woovi): the payout shows what left;
      // amount_requested keeps what was asked.
      const wholeBalance = Boolean(current.subaccount_id && transfer.whole_balance);
      const change: PayoutChange = {
        ...(wholeBalance ? { amount: transfer.amount, whole_balance: true } : {}),
        provider_transfer_id: transfer.provider_transfer_id || current.provider_transfer_id,
        uncertain: false,
        checks: open ? current.checks + (current.status === to ? 1 : 0) : current.checks,
        due_at: open ? new Date(Date.now() + this.options.processingPollMs) : null,
        ...(transfer.fee !== undefined ? { fee: transfer.fee } : {}),
        ...(to === 'paid' ? { paid_at: transfer.paid_at ? new Date(transfer.paid_at) : this.now() } : {}),
        ...(to === 'failed' || to === 'canceled'
          ? { failure_code: transfer.failure_code ?? (to === 'failed' ? 'payout_failed' : 'payout_canceled'), failure_reason: transfer.failure_reason ?? reasonFor(to), limit_released: true }
          : {}),
      };
      const written = await this.store.update(current, to, change);
      if (!written) continue;
      if ((to === 'failed' || to === 'canceled') && !current.limit_released) await this.limit.release(current.limit_day, current.amount);
      return written;
    }
    return this.mustGet(id);
  }

  private async fail(id: string, failure: { code: string; reason: string }, refusal: PayoutDoc['refusal']): Promise<PayoutDoc | null> {
    for (let race = 0; race < MAX_RACE_RETRIES; race++) {
      const current = await this.mustGet(id);
      if (current.status !== 'pending') return null;
      const written = await this.store.update(current, 'failed', { failure_code: failure.code, failure_reason: failure.reason, refusal, limit_released: true, uncertain: false, due_at: null });
      if (written) {
        if (!current.limit_released) await this.limit.release(current.limit_day, current.amount);
        return written;
      }
    }
    return null;
  }

  /**
   * A look at the provider for a payout still open (the recheck worker, and POST sync): found →
   * applied; not found → still unknown, until `notMadeAfterMs` says it was never made.
   */
  async check(doc: PayoutDoc): Promise<PayoutDoc> {
    // Our own read, outside the provider's answer: its failure is never "the provider did not make it".
    const source = doc.subaccount_id ? await this.withdrawalSource(doc) : undefined;
    try {
      const { transfer } = await this.providers.getTransfer({
        account: ref(doc, doc.provider_account_id),
        payout_id: doc._id,
        ...(doc.provider_transfer_id ? { provider_transfer_id: doc.provider_transfer_id } : {}),
        ...(source ? { subaccount: source } : {}),
      });
      if (!transfer) throw new AppError('provider_error');
      return await this.applyTransfer(doc._id, transfer);
    } catch (error) {
      const code = error instanceof AppError ? error.code : 'internal';
      if (code === 'not_found' && doc.status === 'pending' && this.now().getTime() - doc.created_at.getTime() > this.options.notMadeAfterMs) {
        const failed = await this.fail(
          doc._id,
          { code: 'transfer_not_made', reason: 'O provedor não registrou este repasse: nada foi enviado. Crie outro repasse, com outra Idempotency-Key.' },
          null,
        );
        return failed ?? this.mustGet(doc._id);
      }
      // Still unknown (or the provider unreachable): look again later, less often each time.
      const backoff = Math.min(this.options.recheckMaxMs, this.options.recheckBaseMs * 2 ** Math.min(doc.checks, 20));
      const written = await this.store.update(doc, doc.status, { checks: doc.checks + 1, due_at: new Date(Date.now() + backoff) });
      if (code !== 'not_found') this.logger.warn({ payout_id: doc._id, code }, 'payout transfer could not be read; retried later');
      return written ?? this.mustGet(doc._id);
    }
  }

  async sync(scope: CallerScope, id: string): Promise<PayoutDoc> {
    const doc = await this.store.get(scope, id);
    if (doc.status !== 'pending' && doc.status !== 'processing') return doc;
    return this.check(doc);
  }

  // --- reads ------------------------------------------------------------------------------------

  get(scope: CallerScope, id: string): Promise<PayoutDoc> {
    return this.store.get(scope, id);
  }

  async list(scope: CallerScope, query: { status: string; providerAccountId: string; limit: number; startingAfter: string }) {
    if (query.status && !isPayoutStatus(query.status)) {
      throw new AppError('parameter_invalid', { param: 'status', message: 'O filtro status deve ser um entre pending, processing, paid, failed, canceled.' });
    }
    if (!Number.isInteger(query.limit) || query.limit < 0 || query.limit > MAX_LIST_LIMIT) {
      throw new AppError('parameter_invalid', { param: 'limit', message: `O parâmetro limit deve ser um inteiro de 1 a ${MAX_LIST_LIMIT}.` });
    }
    return this.store.list(scope, {
      limit: query.limit || 10,
      ...(query.status ? { status: query.status as PayoutStatus } : {}),
      ...(query.providerAccountId ? { providerAccountId: query.providerAccountId } : {}),
      ...(query.startingAfter ? { startingAfter: query.startingAfter } : {}),
    });
  }

  /** Every enabled account of the mode with its balance at the provider (never invented: an unreadable one says so). */
  async balances(scope: CallerScope): Promise<payouts.GetBalancesResponse> {
    const mode = modeFromName(scope.mode);
    const [{ accounts: connected }, { providers: catalog }, { settings }] = await Promise.all([
      this.providers.listAccounts({ merchant_id: scope.merchantId, mode }),
      this.providers.listProviders({}),
      this.owner.getPayoutSettings({ merchant_id: scope.merchantId, mode }),
    ]);
    const destinationsOf = new Map(catalog.filter((info) => info.capabilities?.payouts).map((info) => [info.code, info.capabilities?.payout_destinations ?? []]));
    const data = await Promise.all(
      connected
        .filter((account) => account.enabled)
        .map(async (account): Promise<payouts.AccountBalance> => {
          const base = {
            provider_account_id: account.id,
            provider: account.provider,
            name: account.name,
            currency: 'BRL',
            payouts_supported: destinationsOf.has(account.provider),
            destination_types: destinationsOf.get(account.provider) ?? [],
          };
          try {
            const balance = await this.balanceOf(scope, account.id);
            return {
              ...base,
              available: balance.available,
              ...(balance.pending !== undefined ? { pending: balance.pending } : {}),
              as_of: balance.as_of,
            };
          } catch (error) {
            const message = error instanceof AppError && error.code === 'provider_rejected' ? error.message : 'Não foi possível consultar o saldo neste provedor agora. Tente de novo em instantes.';
            return { ...base, error: message };
          }
        }),
    );
    return { data, payouts_api_enabled: settings?.api_enabled ?? false };
  }

  private async balanceOf(scope: CallerScope, accountId: string): Promise<providers.Balance> {
    const cached = this.balanceCache.get(accountId);
    if (cached && Date.now() - cached.at < this.options.balanceTtlMs) return cached.balance;
    const { balance } = await this.providers.getBalance({ account: ref(scope, accountId) });
    if (!balance) throw new AppError('provider_error');
    this.balanceCache.set(accountId, { at: Date.now(), balance });
    return balance;
  }

  async destinations(scope: CallerScope): Promise<payouts.PayoutDestinationView[]> {
    const { destinations } = await this.owner.listPayoutDestinations({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode) });
    return destinations.map((d) => ({ type: 'pix_key', destination_id: d.id, key_type: d.key_type, key: maskPixKey(d.key_type as PixKeyType, d.key), label: d.label }));
  }

  // --- helpers ----------------------------------------------------------------------------------

  private withdrawalSource(doc: PayoutDoc): Promise<providers.SubaccountSource> {
    if (!this.options.withdrawalSource) throw new Error(`payout ${doc._id} is a withdrawal: PayoutsOptions.withdrawalSource is required to read it back`);
    return this.options.withdrawalSource(doc);
  }

  private async mustGet(id: string): Promise<PayoutDoc> {
    const doc = await this.store.findById(id);
    if (!doc) throw new AppError('service_unavailable');
    return doc;
  }

  private async payingAccount(scope: CallerScope, accountId: string): Promise<providers.ProviderAccount> {
    if (!accountId) throw new AppError('parameter_missing', { param: 'provider_account_id', message: 'Informe provider_account_id: a conta de provedor de onde sai o repasse (GET /v1/balances).' });
    const { account } = await this.providers.getAccount({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode), account_id: accountId }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'not_found') {
        throw new AppError('parameter_invalid', { param: 'provider_account_id', message: `Não existe conta de provedor ${accountId} neste modo. Confira o id em GET /v1/balances.` });
      }
      throw error;
    });
    if (!account?.enabled) throw new AppError('parameter_invalid', { param: 'provider_account_id', message: `A conta ${accountId} está desativada. Ative-a antes de fazer repasses por ela.` });
    const { providers: catalog } = await this.providers.listProviders({});
    if (!catalog.find((info) => info.code === account.provider)?.capabilities?.payouts) {
      throw new AppError('parameter_invalid', {
        param: 'provider_account_id',
        message: `O provedor desta conta (${account.provider}) não faz repasses pela API. Faça o saque no painel do provedor, ou use uma conta que aceite repasses (veja payouts_supported em GET /v1/balances).`,
      });
    }
    return account;
  }

  private async destination(scope: CallerScope, input: { type: string; destinationId: string }): Promise<{ doc: PayoutDestinationDoc; transfer: providers.TransferDestination }> {
    if (input.type === 'account') {
      return { doc: { type: 'account', destination_id: '', key_type: '', key_masked: '', label: '' }, transfer: { type: 'account', key_type: '', key: '' } };
    }
    if (input.type !== 'pix_key') {
      throw new AppError('parameter_invalid', { param: 'destination.type', message: 'O campo destination.type deve ser account (a conta cadastrada no provedor) ou pix_key (uma chave Pix salva).' });
    }
    if (!input.destinationId) {
      throw new AppError('parameter_missing', { param: 'destination.destination_id', message: 'Informe destination.destination_id: uma chave Pix salva pelo dono da conta (GET /v1/payout-destinations).' });
    }
    const { destination } = await this.owner
      .getPayoutDestination({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode), destination_id: input.destinationId })
      .catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'not_found') {
          throw new AppError('parameter_invalid', {
            param: 'destination.destination_id',
            message: `Não existe chave Pix salva ${input.destinationId} neste modo. Veja as chaves em GET /v1/payout-destinations; só o dono da conta cadastra novas.`,
          });
        }
        throw error;
      });
    if (!destination) throw new AppError('service_unavailable');
    return {
      doc: { type: 'pix_key', destination_id: destination.id, key_type: destination.key_type, key_masked: maskPixKey(destination.key_type as PixKeyType, destination.key), label: destination.label },
      transfer: { type: 'pix_key', key_type: destination.key_type, key: destination.key },
    };
  }
}

/** Forward moves only (a paid payout the bank returned is the one move out of paid); the same status again is an update of its fields. */
function canMove(from: PayoutStatus, to: PayoutStatus): boolean {
  if (from === 'paid' && to === 'failed') return true;
  const order: Record<PayoutStatus, number> = { pending: 0, processing: 1, paid: 2, failed: 2, canceled: 2 };
  return order[to] > order[from];
}

function reasonFor(status: 'failed' | 'canceled'): string {
  return status === 'failed' ? 'O provedor informou que o repasse falhou.' : 'O provedor cancelou o repasse antes do envio.';
}

function refusalOf(error: AppError): NonNullable<PayoutDoc['refusal']> {
  if (error.code === 'insufficient_balance') return { code: 'insufficient_balance', message: error.message, param: 'amount' };
  return { code: 'payout_refused', message: `O provedor recusou o repasse: ${error.message}`, param: error.param ?? null };
}
