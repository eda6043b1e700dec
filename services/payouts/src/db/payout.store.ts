import { AppError, isDuplicateKeyError, newEvent, outboxEntries, withOutbox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { FilterQuery } from 'mongoose';
import { canTransition, type PayoutStatus } from '../domain/payout-states';
import { publicPayoutObject } from './payout.mapper';
import type { PayoutDoc, PayoutModel } from './payout.model';

export interface CallerScope {
  merchantId: string;
  mode: 'test' | 'live';
}

export type NewPayout = Omit<PayoutDoc, 'outbox' | 'outbox_since' | 'outbox_lease'>;

/** The fields a change may set besides the status. */
export type PayoutChange = Partial<
  Pick<PayoutDoc, 'amount' | 'whole_balance' | 'provider_transfer_id' | 'fee' | 'failure_code' | 'failure_reason' | 'paid_at' | 'uncertain' | 'checks' | 'due_at' | 'limit_released' | 'refusal'>
>;

export function payoutEvent(type: string, doc: PayoutDoc): EventEnvelope {
  return newEvent(type, doc, publicPayoutObject(doc));
}

/**
 * Payouts and their events. The creation is one insert (unique Idempotency-Key per merchant and
 * mode) carrying `payout.created`; every change one conditional update with the state read in its
 * filter and its event in the same write, so of racing writers (a webhook, a poll, a sync) one
 * applies and the event is sent once.
 */
export class PayoutStore {
  constructor(
    private readonly model: PayoutModel,
    private readonly outbox: OutboxRelay,
  ) {}

  get collection(): Collection<Document> {
    return this.model.collection;
  }

  /** Inserts with `payout.created`; null when the Idempotency-Key was used already. */
  async insert(doc: NewPayout): Promise<PayoutDoc | null> {
    const full = { ...doc, outbox: [], outbox_since: null } as PayoutDoc;
    try {
      await this.model.create({ ...full, outbox: outboxEntries([payoutEvent('payout.created', full)]), outbox_since: new Date() });
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
    void this.outbox.flush(this.collection, doc._id);
    return full;
  }

  findByKey(scope: CallerScope, idempotencyKey: string): Promise<PayoutDoc | null> {
    return this.model.findOne({ merchant_id: scope.merchantId, mode: scope.mode, idempotency_key: idempotencyKey }).lean<PayoutDoc>().exec();
  }

  findById(id: string): Promise<PayoutDoc | null> {
    return this.model.findById(id).lean<PayoutDoc>().exec();
  }

  findByTransfer(accountId: string, providerTransferId: string): Promise<PayoutDoc | null> {
    return this.model.findOne({ provider_account_id: accountId, provider_transfer_id: providerTransferId }).lean<PayoutDoc>().exec();
  }

  async get(scope: CallerScope, id: string): Promise<PayoutDoc> {
    const doc = await this.model.findOne({ _id: id, merchant_id: scope.merchantId, mode: scope.mode }).lean<PayoutDoc>().exec();
    if (!doc) throw new AppError('not_found', { param: 'id', message: `Não existe repasse ${id} neste modo.` });
    return doc;
  }

  async list(
    scope: CallerScope,
    query: { status?: PayoutStatus; providerAccountId?: string; subaccountId?: string; limit: number; startingAfter?: string },
  ): Promise<{ data: PayoutDoc[]; hasMore: boolean }> {
    const filter: FilterQuery<PayoutDoc> = { merchant_id: scope.merchantId, mode: scope.mode };
    if (query.subaccountId) filter.subaccount_id = query.subaccountId;
    if (query.status) filter.status = query.status;
    if (query.providerAccountId) filter.provider_account_id = query.providerAccountId;
    if (query.startingAfter) filter._id = { $lt: query.startingAfter };
    const docs = await this.model.find(filter).sort({ _id: -1 }).limit(query.limit + 1).lean<PayoutDoc[]>().exec();
    return { data: docs.slice(0, query.limit), hasMore: docs.length > query.limit };
  }

  /**
   * `current` (as read) moves to `to` with `change`, its event in the same write; a change within
   * the same status (`to` equal to the status read: a fee, a check count) sends `event` only when given.
   * Null when another writer moved it first.
   */
  async update(current: PayoutDoc, to: PayoutStatus, change: PayoutChange, event?: string): Promise<PayoutDoc | null> {
    if (to !== current.status && !canTransition(current.status, to)) throw new Error(`payout ${current._id}: ${current.status} → ${to} is not a transition`);
    const after: PayoutDoc = { ...current, ...change, status: to, updated_at: new Date() };
    const type = to !== current.status ? `payout.${to}` : event;
    const update = { $set: { ...change, status: to, updated_at: after.updated_at } };
    const written = await this.model
      .findOneAndUpdate(
        { _id: current._id, status: current.status, uncertain: current.uncertain, checks: current.checks },
        type ? withOutbox(update, [payoutEvent(type, after)]) : update,
        { new: true },
      )
      .lean<PayoutDoc>()
      .exec();
    if (written && type) void this.outbox.flush(this.collection, current._id);
    return written;
  }
}
