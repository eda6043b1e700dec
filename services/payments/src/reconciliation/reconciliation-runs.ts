/**
 * Over 300 lines: the run's slice loop, matching and fixes share one idempotency rule
 * (deterministic ids, counts recomputed, one conditional run write) that reads best whole; matching
 * rules themselves live in matching.ts.
 */
import { chargeStatusFromProto, modeFromName, providers as providersContract, type providers } from '@orquestra/contracts';
import { AppError, DueWorker, isDuplicateKeyError, newEvent, newId, withOutbox, type EventEnvelope, type OutboxRelay, type RpcClient } from '@orquestra/platform';
import type { FilterQuery, Model, UpdateQuery } from 'mongoose';
import type { Logger } from 'pino';
import type { PaymentDoc, PaymentModel } from '../db/payment.model';
import type { CallerScope } from '../db/payment-filters';
import { chargeUnknown } from '../orchestration/charge-state';
import { differences, findingId, FINDING_KINDS, ourValues, paymentIdOf, seenId, statusesAgree, theirValues, type FindingKind, type TheirCharge } from './matching';
import { publicRunObject } from './reconciliation.mapper';
import type { AccountCounts, FindingDoc, ReconciliationModels, RunAccountDoc, RunDoc, SeenDoc } from './reconciliation.model';

/** The payments service's own sync of one payment (PaymentSync.sync): how fix: true resolves a status difference. */
export type SyncPayment = (paymentId: string, scope: CallerScope, requestId: string) => Promise<Pick<PaymentDoc, 'status'>>;

export type ReconciliationProviders = Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'listAccounts' | 'listCharges' | 'getCharge'>;

/** Our payments the list did not show, looked up at the provider (GetCharge) per slice. */
const LOOKUPS_PER_SLICE = 50;
/** Our payments examined per slice in the missing phase (most were seen in the list). */
const SCAN_PER_SLICE = 500;
/** Failed tries of one slice before its account is given up (failed). */
const MAX_TRIES = 5;
/** Errors that another try cannot mend: the account fails at once. */
const FINAL_CODES = new Set(['invalid_credentials', 'not_found', 'parameter_invalid', 'parameter_missing', 'provider_rejected']);
const DIFFERENCE_KINDS: FindingKind[] = ['status_difference', 'amount_difference', 'fee_difference', 'refund_difference'];

type Scope = Pick<CallerScope, 'merchantId' | 'mode'>;

/** The charge as GetCharge answers it, in the list's terms (refunds summed as the lists report them). */
export function chargeAsListed(charge: providers.Charge): TheirCharge {
  return {
    provider_payment_id: charge.provider_payment_id,
    status: chargeStatusFromProto(charge.status),
    amount: charge.amount,
    amount_refunded: charge.refunds.filter((refund) => refund.status === providersContract.RefundStatus.REFUND_STATUS_SUCCEEDED).reduce((sum, refund) => sum + refund.amount, 0),
    fee: charge.provider_fee ?? null,
  };
}

function listedCharge(charge: providers.ListedCharge): TheirCharge & { method: string; created_at: string; reference: string } {
  return {
    provider_payment_id: charge.provider_payment_id,
    status: charge.status,
    amount: charge.amount,
    amount_refunded: charge.amount_refunded,
    fee: charge.fee ?? null,
    method: charge.method,
    created_at: charge.created_at,
    reference: charge.reference,
  };
}

/** The missing phase's position: the last payment examined, in (created_at, _id) order. */
interface MissingCursor {
  at: string;
  id: string;
}

/**
 * Reconciliation runs (docs/reconciliation.md): created queued and due at once, then worked by a
 * DueWorker in slices. A slice is one page of one account's charge list (or one batch of our
 * payments the list did not show), and ends in one conditional write of the run (its account's
 * cursor and status). Everything a slice records besides the run (seen markers, findings) has a
 * deterministic id and is inserted once, so a slice done again after a crash or a lost write adds
 * nothing; counters are counted from those records when the account is done, never incremented.
 */
export class ReconciliationRuns {
  readonly worker: DueWorker<RunDoc>;

  constructor(
    private readonly deps: {
      models: ReconciliationModels;
      payments: PaymentModel;
      providers: ReconciliationProviders;
      sync: SyncPayment;
      outbox: OutboxRelay;
      logger: Logger;
      pollIntervalMs?: number;
      leaseMs?: number;
    },
  ) {
    this.worker = new DueWorker<RunDoc>({
      name: 'reconciliation-runs',
      collection: deps.models.runs.collection,
      filter: { status: { $in: ['queued', 'running'] } },
      handle: (run, logger) => this.slice(run, logger),
      logger: deps.logger,
      leaseMs: deps.leaseMs ?? 120_000,
      pollIntervalMs: deps.pollIntervalMs ?? 1_000,
      concurrency: 2,
    });
  }

  get collection() {
    return this.deps.models.runs.collection;
  }

  /** A new run, queued and due now. */
  async create(scope: Scope & { sourceKeyId: string }, period: { start: Date; end: Date }, fix: boolean): Promise<RunDoc> {
    const now = new Date();
    const run: RunDoc = {
      _id: newId('reconciliationRun'),
      merchant_id: scope.merchantId,
      mode: scope.mode,
      source_key_id: scope.sourceKeyId,
      status: 'queued',
      start: period.start,
      end: period.end,
      fix,
      accounts: null,
      failure_reason: '',
      version: 0,
      created_at: now,
      updated_at: now,
      completed_at: null,
      outbox: [],
      outbox_since: null,
      due_at: now,
    };
    await this.deps.models.runs.create(run);
    this.worker.kickAt(now);
    return run;
  }

  async find(id: string, scope: Scope): Promise<RunDoc> {
    const run = id ? await this.deps.models.runs.findOne({ _id: id, merchant_id: scope.merchantId, mode: scope.mode }).lean<RunDoc>() : null;
    if (!run) throw new AppError('not_found', { param: 'id', message: 'Conciliação não encontrada. Confira o id (rec_…) e se a chave é do mesmo modo (teste/produção).' });
    return run;
  }

  /** Newest first; `startingAfter` is a run id (ids sort by creation time). */
  async list(scope: Scope, limit: number, startingAfter: string): Promise<{ runs: RunDoc[]; hasMore: boolean }> {
    const filter: FilterQuery<RunDoc> = { merchant_id: scope.merchantId, mode: scope.mode, ...(startingAfter ? { _id: { $lt: startingAfter } } : {}) };
    const found = await this.deps.models.runs.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<RunDoc[]>();
    return { runs: found.slice(0, limit), hasMore: found.length > limit };
  }

  /** The run's findings in the order found; `startingAfter` is a finding id of the run. */
  async findings(run: RunDoc, limit: number, startingAfter: string, kind: string): Promise<{ findings: FindingDoc[]; hasMore: boolean }> {
    const base: FilterQuery<FindingDoc> = { run_id: run._id, ...(kind ? { kind } : {}) };
    let filter = base;
    if (startingAfter) {
      const after = await this.deps.models.findings.findOne({ _id: startingAfter, run_id: run._id }).lean<FindingDoc>();
      if (!after) throw new AppError('not_found', { param: 'starting_after', message: 'starting_after não é uma divergência desta conciliação (rcf_…).' });
      filter = { ...base, $or: [{ created_at: { $gt: after.created_at } }, { created_at: after.created_at, _id: { $gt: after._id } }] };
    }
    const found = await this.deps.models.findings.find(filter).sort({ created_at: 1, _id: 1 }).limit(limit + 1).lean<FindingDoc[]>();
    return { findings: found.slice(0, limit), hasMore: found.length > limit };
  }

  /** One slice of a claimed run. */
  private async slice(run: RunDoc, logger: Logger): Promise<void> {
    const requestId = `${run._id}:${run.version}`;
    if (!run.accounts) {
      // The accounts are fixed here, once: an account connected mid-run waits for the next run.
      let accounts: providers.ProviderAccount[];
      try {
        ({ accounts } = await this.deps.providers.listAccounts({ merchant_id: run.merchant_id, mode: modeFromName(run.mode) }, { requestId }));
      } catch (error) {
        const tries = (run.tries ?? 0) + 1;
        logger.warn({ tries, err: (error as Error).message }, 'reconciliation could not list the provider accounts');
        if (tries < MAX_TRIES) return this.write(run, { tries, due_at: new Date(Date.now() + retryDelayMs(tries)) });
        return this.write(run, this.completion(run, [], 'Não foi possível obter as contas de provedor do lojista. Crie outra conciliação mais tarde.'));
      }
      const fixed: RunAccountDoc[] = accounts.map((account) => ({
        provider_account_id: account.id,
        provider: account.provider,
        status: 'pending',
        phase: 'listing',
        cursor: '',
        tries: 0,
        error: '',
        notes: [],
        counts: null,
      }));
      if (fixed.length === 0) return this.write(run, this.completion(run, []));
      return this.write(run, { accounts: fixed, status: 'running', due_at: new Date() });
    }
    const index = run.accounts.findIndex((account) => account.status === 'pending' || account.status === 'running');
    const account = run.accounts[index];
    if (!account) return this.write(run, this.completion(run, run.accounts));
    let next: RunAccountDoc;
    let dueAt = new Date();
    try {
      next = account.phase === 'listing' ? await this.listingSlice(run, account, requestId) : await this.missingSlice(run, account, requestId);
      if (next.status === 'done') next = { ...next, counts: await this.counts(run, account.provider_account_id) };
    } catch (error) {
      const tries = account.tries + 1;
      const code = error instanceof AppError ? error.code : 'internal_error';
      logger.warn({ account: account.provider_account_id, phase: account.phase, tries, code, err: (error as Error).message }, 'reconciliation slice failed');
      if (tries < MAX_TRIES && !FINAL_CODES.has(code)) {
        next = { ...account, tries };
        dueAt = new Date(Date.now() + retryDelayMs(tries));
      } else {
        next = { ...account, status: 'failed', tries, error: failureText(code, error), counts: await this.counts(run, account.provider_account_id) };
      }
    }
    const accounts = run.accounts.map((current, position) => (position === index ? next : current));
    const ended = accounts.every((current) => current.status !== 'pending' && current.status !== 'running');
    await this.write(run, ended ? this.completion(run, accounts) : { accounts, status: 'running', due_at: dueAt });
  }

  /**
   * The write that ends the run, with its event (one write: the state and its event together):
   * completed once every account is done, unsupported or failed; failed (with why) only when the
   * run could not even learn its accounts.
   */
  private completion(run: RunDoc, accounts: RunAccountDoc[], failureReason?: string): { set: Partial<RunDoc>; events: EventEnvelope[] } {
    const completedAt = new Date();
    const set: Partial<RunDoc> = failureReason
      ? { accounts, status: 'failed', failure_reason: failureReason, completed_at: completedAt, due_at: null }
      : { accounts, status: 'completed', completed_at: completedAt, due_at: null };
    const object = publicRunObject({ ...run, ...set, updated_at: completedAt } as RunDoc);
    return { set, events: [newEvent('reconciliation_run.completed', run, object)] };
  }

  /** The slice's one write, only while the run is as the slice read it (its version). */
  private async write(run: RunDoc, change: Partial<RunDoc> | { set: Partial<RunDoc>; events: EventEnvelope[] }): Promise<void> {
    const { set, events } = 'set' in change && 'events' in change ? change : { set: change as Partial<RunDoc>, events: [] as EventEnvelope[] };
    const update = { $set: { ...set, updated_at: new Date() }, $inc: { version: 1 } };
    const written = await this.deps.models.runs.updateOne(
      { _id: run._id, version: run.version },
      (events.length > 0 ? withOutbox(update, events) : update) as UpdateQuery<RunDoc>,
    );
    if (written.modifiedCount !== 1) {
      // Another worker wrote the run first (it took over after the lease): its write stands, and
      // what this slice recorded is the same records, already there or inserted once.
      this.deps.logger.warn({ run_id: run._id, version: run.version }, 'reconciliation slice lost its write; the run moved on without it');
      return;
    }
    if (events.length > 0) void this.deps.outbox.flush(this.collection, run._id);
    if (set.due_at) this.worker.kickAt(set.due_at);
  }

  private ref(run: RunDoc, account: RunAccountDoc) {
    return { merchant_id: run.merchant_id, mode: modeFromName(run.mode), account_id: account.provider_account_id };
  }

  /** One page of the provider's list. */
  private async listingSlice(run: RunDoc, before: RunAccountDoc, requestId: string): Promise<RunAccountDoc> {
    const page = await this.deps.providers.listCharges(
      { account: this.ref(run, before), from: run.start.toISOString(), to: run.end.toISOString(), cursor: before.cursor },
      { requestId },
    );
    if (!page.supported) return { ...before, status: 'unsupported', tries: 0, error: '' };
    // What the list could not tell stays on the account, once each (a page done again adds nothing).
    const notes = [...new Set([...(before.notes ?? []), ...(page.notes ?? [])])];
    const account: RunAccountDoc = notes.length > 0 ? { ...before, notes } : before;
    // A list may show a charge twice (Asaas's offsets shift while charges are created): once is enough.
    const unique = new Map(page.charges.map((charge) => [charge.provider_payment_id, charge]));
    for (const charge of unique.values()) await this.reconcile(run, account, listedCharge(charge), 'list', requestId);
    if (page.next_cursor && page.next_cursor !== account.cursor) return { ...account, status: 'running', cursor: page.next_cursor, tries: 0 };
    return { ...account, status: 'running', phase: 'missing', cursor: '', tries: 0 };
  }

  /**
   * Our payments of the account created in the period, with a charge, that the list did not show.
   * Lists and our clock disagree by seconds at the period's edges, so each is asked for by id
   * (GetCharge) before it is called missing: found, it is compared like a listed charge.
   */
  private async missingSlice(run: RunDoc, account: RunAccountDoc, requestId: string): Promise<RunAccountDoc> {
    const position: MissingCursor | null = account.cursor ? (JSON.parse(account.cursor) as MissingCursor) : null;
    const filter: FilterQuery<PaymentDoc> = {
      provider_account_id: account.provider_account_id,
      merchant_id: run.merchant_id,
      mode: run.mode,
      created_at: { $gte: run.start, $lt: run.end },
      provider_payment_id: { $ne: '' },
      // Pix Automático cycle charges are read through their recurrence, not the charge list.
      provider_recurrence_id: { $exists: false },
      ...(position
        ? { $or: [{ created_at: { $gt: new Date(position.at) } }, { created_at: new Date(position.at), _id: { $gt: position.id } }] }
        : {}),
    };
    const scanned = await this.deps.payments.find(filter).sort({ created_at: 1, _id: 1 }).limit(SCAN_PER_SLICE).lean<PaymentDoc[]>();
    const seen = new Set(
      (await this.deps.models.seen.find({ _id: { $in: scanned.map((payment) => seenId(run._id, account.provider_account_id, payment.provider_payment_id)) } }, { _id: 1 }).lean<Array<Pick<SeenDoc, '_id'>>>()).map(
        (marker) => marker._id,
      ),
    );
    let lookups = 0;
    let last: PaymentDoc | undefined;
    for (const payment of scanned) {
      if (!seen.has(seenId(run._id, account.provider_account_id, payment.provider_payment_id))) {
        if (lookups === LOOKUPS_PER_SLICE) break;
        lookups += 1;
        await this.lookUp(run, account, payment, requestId);
      }
      last = payment;
    }
    const more = scanned.length === SCAN_PER_SLICE || (last !== undefined && last !== scanned[scanned.length - 1]);
    if (more && last) return { ...account, cursor: JSON.stringify({ at: last.created_at.toISOString(), id: last._id } satisfies MissingCursor), tries: 0 };
    return { ...account, status: 'done', cursor: '', tries: 0 };
  }

  private async lookUp(run: RunDoc, account: RunAccountDoc, payment: PaymentDoc, requestId: string): Promise<void> {
    const ref = { ...this.ref(run, account), provider_payment_id: payment.provider_payment_id };
    const found = await this.deps.providers.getCharge({ ref }, { requestId }).then(
      (answer) => answer.charge,
      (error: unknown) => {
        if (chargeUnknown(error)) return undefined;
        throw error;
      },
    );
    if (found) return this.reconcile(run, account, chargeAsListed(found), 'lookup', requestId, payment);
    // Providers that delete an unpaid charge when it is canceled (Woovi's DELETE, Asaas's removed
    // payments) no longer know it: for a payment canceled here, both sides agree nothing was paid.
    if (payment.status === 'canceled' && payment.amount_refunded === 0) return this.markSeen(run, account, payment.provider_payment_id, payment._id, 'lookup');
    await this.insertFinding(run, account, 'missing_at_provider', payment._id, payment.provider_payment_id, ourValues(payment), {});
    await this.markSeen(run, account, payment.provider_payment_id, payment._id, 'missing');
  }

  /** One charge of the provider against our payment: findings first, the seen marker last. */
  private async reconcile(run: RunDoc, account: RunAccountDoc, theirs: TheirCharge & { reference?: string }, source: 'list' | 'lookup', requestId: string, known?: PaymentDoc): Promise<void> {
    const payment = known ?? (await this.match(run, account, theirs));
    if (!payment) {
      // A failover's earlier try at this account (its reference names a payment charged elsewhere
      // that tried here first): canceled or failed, both sides agree nothing was charged; paid, it
      // is reported, saying whose try it was.
      const orphanOf = await this.orphanOf(run, account, theirs);
      if (orphanOf && (theirs.status === 'canceled' || theirs.status === 'failed')) return this.markSeen(run, account, theirs.provider_payment_id, '', source);
      const note: Record<string, string> = orphanOf ? { note: `cobrança de uma tentativa do pagamento ${orphanOf} que foi cobrado em outra conta (failover)` } : {};
      await this.insertFinding(run, account, 'unknown_to_orquestra', '', theirs.provider_payment_id, {}, { ...theirValues(theirs), ...note });
      return this.markSeen(run, account, theirs.provider_payment_id, '', source);
    }
    // A Pix Automático cycle debit follows its recurrence (its own status mapping: an OVERDUE
    // debit is failed there, pending in the plain list): read through the recurrence, not compared here.
    if (payment.provider_recurrence_id) return this.markSeen(run, account, theirs.provider_payment_id, payment._id, source);
    for (const difference of differences(payment, theirs)) {
      const finding = await this.insertFinding(run, account, difference.kind, payment._id, theirs.provider_payment_id, difference.ours, difference.theirs);
      if (difference.kind === 'status_difference' && run.fix && !finding.fix_result) await this.fix(run, finding, theirs.status, requestId);
    }
    await this.markSeen(run, account, theirs.provider_payment_id, payment._id, source);
  }

  /** Our payment for a charge: by its provider id at this account, else by the payment id its reference carries. */
  private async match(run: RunDoc, account: RunAccountDoc, theirs: TheirCharge & { reference?: string }): Promise<PaymentDoc | null> {
    const byId = await this.deps.payments
      .findOne({ provider_account_id: account.provider_account_id, provider_payment_id: theirs.provider_payment_id, merchant_id: run.merchant_id, mode: run.mode })
      .lean<PaymentDoc>();
    if (byId) return byId;
    const paymentId = theirs.reference ? paymentIdOf(theirs.reference) : null;
    if (!paymentId) return null;
    const byReference = await this.deps.payments.findOne({ _id: paymentId, merchant_id: run.merchant_id, mode: run.mode }).lean<PaymentDoc>();
    // A payment whose charge is another one (an earlier try at another account, or a second
    // charge) does not own this charge: it stays unknown, its reference shown.
    if (!byReference || (byReference.provider_payment_id && byReference.provider_payment_id !== theirs.provider_payment_id)) return null;
    return byReference;
  }

  /** The payment whose failover tried this account first and made this charge, when its reference says so. */
  private async orphanOf(run: RunDoc, account: RunAccountDoc, theirs: TheirCharge & { reference?: string }): Promise<string | null> {
    const paymentId = theirs.reference ? paymentIdOf(theirs.reference) : null;
    if (!paymentId) return null;
    const payment = await this.deps.payments.findOne({ _id: paymentId, merchant_id: run.merchant_id, mode: run.mode }, { attempts: 1 }).lean<Pick<PaymentDoc, '_id' | 'attempts'>>();
    return payment?.attempts?.some((attempt) => attempt.provider_account_id === account.provider_account_id) ? payment._id : null;
  }

  /** fix: true: the payment is synced from the provider and the finding records how it ended. */
  private async fix(run: RunDoc, finding: FindingDoc, theirStatus: string, requestId: string): Promise<void> {
    let result: string;
    let fixed = false;
    try {
      const synced = await this.deps.sync(finding.payment_id, { merchantId: run.merchant_id, mode: run.mode }, requestId);
      fixed = statusesAgree(synced.status, theirStatus);
      result = fixed ? `sincronizado: ${synced.status}` : `sincronizado: ${synced.status} (o provedor informa ${theirStatus}; a diferença continua)`;
    } catch (error) {
      // Only a message written for merchants (an AppError's, in Portuguese) goes into the finding
      // and its CSV; anything else is logged here and summarized.
      if (error instanceof AppError) result = `falhou: ${error.message}`;
      else {
        this.deps.logger.warn({ err: (error as Error).message, payment_id: finding.payment_id }, 'reconciliation fix failed');
        result = 'falhou: erro interno ao sincronizar; tente de novo com outra conciliação.';
      }
    }
    await this.deps.models.findings.updateOne({ _id: finding._id, fix_result: '' }, { $set: { fix_result: result, fixed } });
  }

  /** Inserts the finding once (its id is the run, account, charge and kind); answers the stored one. */
  private async insertFinding(
    run: RunDoc,
    account: RunAccountDoc,
    kind: FindingKind,
    paymentId: string,
    providerPaymentId: string,
    ours: Record<string, string>,
    theirs: Record<string, string>,
  ): Promise<FindingDoc> {
    const finding: FindingDoc = {
      _id: findingId(run._id, account.provider_account_id, providerPaymentId, kind),
      run_id: run._id,
      merchant_id: run.merchant_id,
      mode: run.mode,
      provider_account_id: account.provider_account_id,
      kind,
      payment_id: paymentId,
      provider_payment_id: providerPaymentId,
      ours,
      theirs,
      fix_result: '',
      fixed: false,
      created_at: new Date(),
    };
    try {
      await this.deps.models.findings.create(finding);
      return finding;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return (await this.deps.models.findings.findById(finding._id).lean<FindingDoc>()) ?? finding;
    }
  }

  private async markSeen(run: RunDoc, account: RunAccountDoc, providerPaymentId: string, paymentId: string, source: SeenDoc['source']): Promise<void> {
    const marker: SeenDoc = {
      _id: seenId(run._id, account.provider_account_id, providerPaymentId),
      run_id: run._id,
      provider_account_id: account.provider_account_id,
      provider_payment_id: providerPaymentId,
      payment_id: paymentId,
      source,
      created_at: new Date(),
    };
    await insertOnce(this.deps.models.seen, marker);
  }

  /** The account's counters, counted from what the run recorded (so a page done twice counts once). */
  private async counts(run: RunDoc, accountId: string): Promise<AccountCounts> {
    const { seen, findings } = this.deps.models;
    const scope = { run_id: run._id, provider_account_id: accountId };
    const byKind = async (kind: FindingKind) => findings.countDocuments({ ...scope, kind });
    const withDifference = await findings.distinct('provider_payment_id', { ...scope, kind: { $in: DIFFERENCE_KINDS } });
    const ours = await seen.countDocuments({ ...scope, payment_id: { $ne: '' }, source: { $ne: 'missing' } });
    return {
      listed: await seen.countDocuments({ ...scope, source: 'list' }),
      matched: ours - withDifference.length,
      missing_at_provider: await byKind('missing_at_provider'),
      unknown_to_orquestra: await byKind('unknown_to_orquestra'),
      status_differences: await byKind('status_difference'),
      amount_differences: await byKind('amount_difference'),
      fee_differences: await byKind('fee_difference'),
      refund_differences: await byKind('refund_difference'),
      fixed: await findings.countDocuments({ ...scope, kind: 'status_difference', fixed: true }),
    };
  }
}

/** Waits between failed tries of a slice: 2 s, 4 s, 8 s, 16 s (at most a minute). */
function retryDelayMs(tries: number): number {
  return Math.min(60_000, 2_000 * 2 ** (tries - 1));
}

async function insertOnce<T>(model: Model<T>, document: T): Promise<void> {
  try {
    await model.create(document);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
  }
}

/** Why an account failed, in Portuguese (shown to the merchant). */
function failureText(code: string, error: unknown): string {
  if (code === 'invalid_credentials') return 'As credenciais desta conta foram recusadas pelo provedor: atualize-as e crie outra conciliação.';
  if (code === 'not_found') return 'A conta do provedor não foi encontrada (removida durante a conciliação?).';
  const detail = error instanceof AppError ? error.message : '';
  return `Não foi possível ler as cobranças do provedor depois de ${MAX_TRIES} tentativas${detail ? `: ${detail}` : ''}. Crie outra conciliação mais tarde.`;
}

export { FINDING_KINDS };
