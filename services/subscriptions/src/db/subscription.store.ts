import { AppError, isDuplicateKeyError, outboxEntries, withOutbox, type OutboxRelay } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { FilterQuery } from 'mongoose';
import { canTransition, type SubscriptionStatus } from '../domain/subscription-states';
import { subscriptionEvent } from './subscription-events';
import type { SubscriptionDoc, SubscriptionModel } from './subscription.model';

/** Whose subscriptions a caller may see: its merchant and mode; a restricted key only those it created. */
export interface CallerScope {
  merchantId: string;
  mode: 'test' | 'live';
  restrictedKeyId?: string;
}

export interface SubscriptionListQuery {
  status?: SubscriptionStatus;
  limit: number;
  /** Cursor: the last id of the previous page. */
  startingAfter?: string;
}

function scopeFilter(scope: CallerScope): FilterQuery<SubscriptionDoc> {
  return { merchant_id: scope.merchantId, mode: scope.mode, ...(scope.restrictedKeyId ? { source_key_id: scope.restrictedKeyId } : {}) };
}

/** A change of status and the fields that go with it (approval, next charge date). */
export interface Transition {
  to: SubscriptionStatus;
  set?: Partial<Pick<SubscriptionDoc, 'approval' | 'next_charge_date'>>;
  event: string;
}

/**
 * Subscriptions and their events. Every write is one single-document write carrying its event in
 * the outbox: the creation is one insert on a unique `_id`, each change one conditional update with
 * the status it was read in in the filter, so of racing writers exactly one applies.
 */
export class SubscriptionStore {
  constructor(
    private readonly model: SubscriptionModel,
    private readonly outbox: OutboxRelay,
  ) {}

  get collection(): Collection<Document> {
    return this.model.collection;
  }

  /** Inserts with `subscription.created`; false when a subscription with this id exists already. */
  async insertCreated(doc: Omit<SubscriptionDoc, 'outbox' | 'outbox_since'>): Promise<boolean> {
    const full = { ...doc, outbox: [], outbox_since: null } as SubscriptionDoc;
    try {
      await this.model.create({ ...full, outbox: outboxEntries([subscriptionEvent('subscription.created', full)]), outbox_since: new Date() });
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
    void this.outbox.flush(this.collection, doc._id);
    return true;
  }

  findById(id: string): Promise<SubscriptionDoc | null> {
    return this.model.findById(id).lean<SubscriptionDoc>().exec();
  }

  async get(scope: CallerScope, id: string): Promise<SubscriptionDoc> {
    const doc = await this.model.findOne({ _id: id, ...scopeFilter(scope) }).lean<SubscriptionDoc>().exec();
    if (!doc) throw new AppError('not_found', { param: 'id', message: `Não existe assinatura ${id} neste modo para esta chave.` });
    return doc;
  }

  async list(scope: CallerScope, query: SubscriptionListQuery): Promise<{ data: SubscriptionDoc[]; hasMore: boolean }> {
    const filter: FilterQuery<SubscriptionDoc> = scopeFilter(scope);
    if (query.status) filter.status = query.status;
    if (query.startingAfter) filter._id = { $lt: query.startingAfter };
    const docs = await this.model.find(filter).sort({ _id: -1 }).limit(query.limit + 1).lean<SubscriptionDoc[]>().exec();
    return { data: docs.slice(0, query.limit), hasMore: docs.length > query.limit };
  }

  /** The subscription of a provider's recurrence (provider reports name only theirs). */
  findByRecurrence(accountId: string, providerRecurrenceId: string): Promise<SubscriptionDoc | null> {
    return this.model.findOne({ provider_account_id: accountId, provider_recurrence_id: providerRecurrenceId }).lean<SubscriptionDoc>().exec();
  }

  /**
   * Active subscriptions whose next cycle the scheduler sends (fixed amount, cycles sent by us) and
   * is due on or before `latestDue`. Only those: others (variable amounts, provider-made cycles)
   * keep an old next_charge_date by design and must not crowd the scan.
   */
  findWithCycleDueBy(latestDue: string, limit: number): Promise<SubscriptionDoc[]> {
    return this.model
      .find({ status: 'active', cycles: 'ours', amount: { $ne: null }, next_charge_date: { $ne: null, $lte: latestDue } })
      .sort({ next_charge_date: 1 })
      .limit(limit)
      .lean<SubscriptionDoc[]>()
      .exec();
  }

  /**
   * Active subscriptions that ended: no cycle left and end_date before `today`, or end_date before
   * `graceEnd` whatever the next charge date (a variable amount's last cycle the merchant never
   * charged, a provider's last cycle it never made).
   */
  findEnded(today: string, graceEnd: string, limit: number): Promise<SubscriptionDoc[]> {
    return this.model
      .find({ status: 'active', end_date: { $ne: null }, $or: [{ next_charge_date: null, end_date: { $lt: today } }, { end_date: { $lt: graceEnd } }] })
      .limit(limit)
      .lean<SubscriptionDoc[]>()
      .exec();
  }

  /** Records the payer's customer record once (the first cycle payment that linked one). */
  async linkCustomer(id: string, customerId: string): Promise<void> {
    await this.model.updateOne({ _id: id, customer_id: { $in: ['', null] } }, { $set: { customer_id: customerId } }).exec();
  }

  /**
   * Moves the next cycle past `charged` (monotonic: a stale writer that read an earlier
   * next_cycle changes nothing). `next` is the cycle after it, or null when none is left.
   */
  async advanceNextCycle(id: string, charged: number, next: { sequence: number; due_date: string } | null): Promise<boolean> {
    const wrote = await this.model
      .updateOne(
        { _id: id, next_cycle: { $lte: charged } },
        { $set: { next_cycle: next?.sequence ?? charged + 1, next_charge_date: next?.due_date ?? null, updated_at: new Date() } },
      )
      .exec();
    return wrote.modifiedCount === 1;
  }

  /**
   * Applies `transition` to `current` as read: one conditional write whose filter is the status
   * read. Null when another writer changed the status first (the caller reads again and decides).
   */
  async transition(current: SubscriptionDoc, transition: Transition): Promise<SubscriptionDoc | null> {
    if (!canTransition(current.status, transition.to)) throw new Error(`subscription ${current._id}: ${current.status} → ${transition.to} is not a transition`);
    const after: SubscriptionDoc = { ...current, ...transition.set, status: transition.to, updated_at: new Date() };
    const wrote = await this.model
      .findOneAndUpdate(
        { _id: current._id, status: current.status },
        withOutbox({ $set: { status: after.status, updated_at: after.updated_at, ...transition.set } }, [subscriptionEvent(transition.event, after)]),
        { new: true },
      )
      .lean<SubscriptionDoc>()
      .exec();
    if (wrote) void this.outbox.flush(this.collection, current._id);
    return wrote;
  }
}
