import { toPublicDispute } from '@orquestra/contracts';
import { AppError, newEvent, outboxEntries, withOutbox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { FilterQuery } from 'mongoose';
import { ACTIVE_DISPUTE_STATUSES, canTransitionDispute, type DisputeStatus } from '../domain/disputes';
import { toProtoDispute } from './dispute.mapper';
import type { DisputeDoc, DisputeModel } from './dispute.model';
import { LOST_RACE, retryLostRaces } from './lost-race';

/** What a change of a dispute sets, with the status it moves to and the event it announces. */
export interface DisputeChange {
  status: DisputeStatus;
  set: Partial<Omit<DisputeDoc, '_id' | 'status' | 'version' | 'outbox' | 'outbox_since' | 'outbox_lease'>>;
  event: 'dispute.updated' | 'dispute.closed';
}

/**
 * Persistence of disputes. Every change is one conditional write on the dispute's version,
 * carrying its public event in the document's outbox; a change that lost a race to another writer
 * is computed again from a fresh read.
 */
export class DisputeStore {
  constructor(
    readonly model: DisputeModel,
    private readonly outbox: OutboxRelay,
  ) {}

  /** The driver collection, for the outbox relay and the due-work worker. */
  get collection(): Collection<Document> {
    return this.model.collection;
  }

  event(type: string, doc: DisputeDoc): EventEnvelope {
    return newEvent(type, doc, toPublicDispute(toProtoDispute(doc)) as unknown as Record<string, unknown>);
  }

  /** Stores a new dispute with its `dispute.created` (one insert; a taken `_id` throws 11000). */
  async insert(doc: Omit<DisputeDoc, 'outbox' | 'outbox_since'>): Promise<DisputeDoc> {
    const base: DisputeDoc = { ...doc, outbox: [], outbox_since: null };
    const stored: DisputeDoc = { ...base, version: 0, outbox: outboxEntries([this.event('dispute.created', base)]), outbox_since: new Date() };
    await this.model.create(stored);
    void this.outbox.flush(this.collection, doc._id);
    return stored;
  }

  async find(id: string, scope: { merchantId: string; mode: 'test' | 'live' }): Promise<DisputeDoc> {
    const doc = await this.model.findOne({ _id: id, merchant_id: scope.merchantId, mode: scope.mode }).lean<DisputeDoc>();
    if (!doc) throw new AppError('not_found', { param: 'id', message: 'Disputa não encontrada. Confira o id (dp_…) e se a chave é do mesmo modo (teste/produção).' });
    return doc;
  }

  findById(id: string): Promise<DisputeDoc | null> {
    return this.model.findById(id).lean<DisputeDoc>();
  }

  /** The payment's dispute still awaiting an answer or a decision, if any. */
  activeFor(paymentId: string): Promise<DisputeDoc | null> {
    return this.model.findOne({ payment_id: paymentId, status: { $in: [...ACTIVE_DISPUTE_STATUSES] } }).lean<DisputeDoc>();
  }

  async list(filter: FilterQuery<DisputeDoc>, limit: number, startingAfter?: DisputeDoc): Promise<{ disputes: DisputeDoc[]; hasMore: boolean }> {
    const page: FilterQuery<DisputeDoc> = startingAfter
      ? {
          ...filter,
          $or: [{ created_at: { $lt: startingAfter.created_at } }, { created_at: startingAfter.created_at, _id: { $lt: startingAfter._id } }],
        }
      : filter;
    const found = await this.model.find(page).sort({ created_at: -1, _id: -1 }).limit(limit + 1).lean<DisputeDoc[]>();
    return { disputes: found.slice(0, limit), hasMore: found.length > limit };
  }

  /**
   * Applies `change` to the current dispute when the status move is allowed. Returns the updated
   * dispute, or null when the dispute is no longer in a state `change` accepts.
   */
  async change(id: string, change: (fresh: DisputeDoc) => DisputeChange | null): Promise<DisputeDoc | null> {
    const updated = await retryLostRaces(`dispute ${id}`, async () => {
      const fresh = await this.findById(id);
      if (!fresh) return null;
      const next = change(fresh);
      if (!next || (next.status !== fresh.status && !canTransitionDispute(fresh.status, next.status))) return null;
      const now = new Date();
      const event = this.event(next.event, { ...fresh, ...next.set, status: next.status, updated_at: now });
      const written = await this.model
        .findOneAndUpdate(
          { _id: id, version: fresh.version ?? null },
          withOutbox({ $set: { ...next.set, status: next.status, updated_at: now }, $inc: { version: 1 } }, [event]),
          { returnDocument: 'after' },
        )
        .lean<DisputeDoc>();
      return written ?? LOST_RACE;
    });
    if (updated) void this.outbox.flush(this.collection, id);
    return updated;
  }

  /**
   * Ends the due work of a dispute that needs no decision here, unless it changed since the
   * worker claimed it (`claimed` carries the claim's due time).
   */
  async clearDueWork(claimed: Pick<DisputeDoc, '_id' | 'status' | 'due_at'>): Promise<void> {
    await this.model.updateOne({ _id: claimed._id, status: claimed.status, due_at: claimed.due_at }, { $set: { due_at: null } });
  }
}
