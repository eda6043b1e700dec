import { toPublicDispute, disputes as disputesContract, modeFromName } from '@orquestra/contracts';
import { AppError, LockManager, newId, outboxEntries, withOutbox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Collection, Document, Filter } from 'mongodb';
import { canTransitionDispute, type DisputeKind, type DisputeStatus } from '../domain/disputes';

/** A dispute as stored (collection `disputes` of the payments database). */
export interface DisputeDoc {
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  payment_id: string;
  provider: string;
  provider_account_id: string;
  kind: DisputeKind;
  status: DisputeStatus;
  amount: number;
  reason: string;
  /** The public `due_at`: when the merchant's answer is due. */
  answer_due_at: Date;
  evidence: { text: string; urls: string[]; submitted_at: Date } | null;
  /** The source key of the disputed payment (restricted keys see their own payments' events). */
  source_key_id: string;
  created_at: Date;
  updated_at: Date;
  closed_at: Date | null;
  /** Opened at the provider (reported by webhook or poll) or simulated here (absent: simulated). */
  source?: 'provider' | 'simulation';
  /** Set with source provider: the provider's id of the dispute, its own status, whether it takes a defense by API. */
  provider_dispute_id?: string;
  provider_status?: string;
  accepts_evidence?: boolean;
  /** Due work (DueWorker): the answer deadline while open, the sandbox decision after evidence; null when closed or decided by the provider. */
  due_at: Date | null;
  outbox: EventEnvelope[];
  outbox_since: Date | null;
}

export function toProtoDispute(doc: DisputeDoc): disputesContract.Dispute {
  return {
    id: doc._id,
    kind: doc.kind,
    status: doc.status,
    amount: doc.amount,
    reason: doc.reason,
    due_at: doc.answer_due_at.toISOString(),
    payment_id: doc.payment_id,
    provider: doc.provider,
    provider_account_id: doc.provider_account_id,
    ...(doc.evidence ? { evidence: { text: doc.evidence.text, urls: doc.evidence.urls, submitted_at: doc.evidence.submitted_at.toISOString() } } : {}),
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
    closed_at: doc.closed_at ? doc.closed_at.toISOString() : '',
    mode: modeFromName(doc.mode),
  };
}

/**
 * Persistence of disputes. Every change is one write under the dispute's document lock (FerretDB
 * updates are not atomic), carrying its public event in the document's outbox.
 */
export class DisputeStore {
  constructor(
    readonly collection: Collection<Document>,
    private readonly locks: LockManager,
    private readonly outbox: OutboxRelay,
  ) {}

  static async ensureIndexes(collection: Collection<Document>): Promise<void> {
    await collection.createIndex({ merchant_id: 1, mode: 1, created_at: -1 });
    await collection.createIndex({ payment_id: 1 });
    await collection.createIndex({ due_at: 1 });
    await collection.createIndex({ outbox_since: 1 });
  }

  event(type: string, doc: DisputeDoc): EventEnvelope {
    return {
      id: newId('event'),
      type,
      created: Math.floor(Date.now() / 1000),
      merchant_id: doc.merchant_id,
      mode: doc.mode,
      source: doc.source_key_id || null,
      data: { object: toPublicDispute(toProtoDispute(doc)) as unknown as Record<string, unknown> },
    };
  }

  async insert(doc: Omit<DisputeDoc, 'outbox' | 'outbox_since'>): Promise<DisputeDoc> {
    const base: DisputeDoc = { ...doc, outbox: [], outbox_since: null };
    const stored: DisputeDoc = { ...base, outbox: outboxEntries([this.event('dispute.created', base)]), outbox_since: new Date() };
    await this.collection.insertOne(stored as never);
    void this.outbox.flush(this.collection, doc._id);
    return stored;
  }

  async find(id: string, scope: { merchantId: string; mode: 'test' | 'live' }): Promise<DisputeDoc> {
    const doc = (await this.collection.findOne({ _id: id as never, merchant_id: scope.merchantId, mode: scope.mode })) as DisputeDoc | null;
    if (!doc) throw new AppError('not_found', { param: 'id', message: 'Disputa não encontrada. Confira o id (dp_…) e se a chave é do mesmo modo (teste/produção).' });
    return doc;
  }

  async list(filter: Filter<Document>, limit: number, startingAfter?: DisputeDoc): Promise<{ disputes: DisputeDoc[]; hasMore: boolean }> {
    const page: Filter<Document> = startingAfter
      ? ({
          ...filter,
          $or: [{ created_at: { $lt: startingAfter.created_at } }, { created_at: startingAfter.created_at, _id: { $lt: startingAfter._id } }],
        } as Filter<Document>)
      : filter;
    const found = (await this.collection.find(page).sort({ created_at: -1, _id: -1 }).limit(limit + 1).toArray()) as unknown as DisputeDoc[];
    return { disputes: found.slice(0, limit), hasMore: found.length > limit };
  }

  /**
   * Applies `change` to the current dispute under its lock when the status move is allowed.
   * Returns the updated dispute, or null when the dispute is no longer in a state `change` accepts.
   */
  async change(
    id: string,
    change: (fresh: DisputeDoc) => { status: DisputeStatus; set: Partial<DisputeDoc>; event: 'dispute.updated' | 'dispute.closed' } | null,
  ): Promise<DisputeDoc | null> {
    const updated = await this.locks.withLock(LockManager.documentLock(this.collection.collectionName, id), async () => {
      const fresh = (await this.collection.findOne({ _id: id as never })) as DisputeDoc | null;
      if (!fresh) return null;
      const next = change(fresh);
      if (!next || (next.status !== fresh.status && !canTransitionDispute(fresh.status, next.status))) return null;
      const now = new Date();
      const doc: DisputeDoc = { ...fresh, ...next.set, status: next.status, updated_at: now };
      const event = this.event(next.event, doc);
      const { outbox: _o, outbox_since: _s, _id, ...fields } = doc;
      void _o;
      void _s;
      void _id;
      await this.collection.updateOne({ _id: id as never }, withOutbox({ $set: fields }, [event]));
      return doc;
    });
    if (updated) void this.outbox.flush(this.collection, id);
    return updated;
  }
}
