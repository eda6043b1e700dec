import { context, propagation } from '@opentelemetry/api';
import { AppError, isDuplicateKeyError, LockManager, newId } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { DeliveryAttempt, DeliveryStatus, WebhookDeliveryDoc, WebhookDeliveryModel } from './webhook-delivery.model';
import type { Scope } from './webhook-endpoint.store';

/** What one attempt decided about the delivery. */
export interface AttemptOutcome {
  attempt: Omit<DeliveryAttempt, 'number' | 'manual'>;
  status: DeliveryStatus;
  due_at: Date | null;
}

/**
 * Webhook deliveries and their attempts. Created once per (endpoint, event) by a unique index;
 * every later write holds the delivery's document lock.
 */
export class WebhookDeliveryStore {
  constructor(
    readonly model: WebhookDeliveryModel,
    private readonly locks: LockManager,
  ) {}

  get collection(): Collection<Document> {
    return this.model.collection as unknown as Collection<Document>;
  }

  private lockName(id: string): string {
    return LockManager.documentLock(this.collection.collectionName, id);
  }

  /** Queues an event for an endpoint, due now. Null when it was already queued (a redelivered event). */
  async enqueue(input: Pick<WebhookDeliveryDoc, 'endpoint_id' | 'event_id' | 'event_type' | 'merchant_id' | 'mode'>): Promise<WebhookDeliveryDoc | null> {
    const now = new Date();
    const trace: Record<string, string> = {};
    propagation.inject(context.active(), trace);
    const doc: WebhookDeliveryDoc = {
      _id: newId('webhookDelivery'),
      ...input,
      ...(Object.keys(trace).length > 0 ? { trace } : {}),
      status: 'pending',
      attempts: [],
      due_at: now,
      window_start: now,
      manual: false,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.model.create(doc);
      return doc;
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  /** Stores an attempt and the delivery's next state, unless the delivery changed since `dueAt`. */
  async recordAttempt(id: string, dueAt: Date, decide: (current: WebhookDeliveryDoc) => AttemptOutcome): Promise<WebhookDeliveryDoc | null> {
    return this.locks.withLock(this.lockName(id), async () => {
      const current = await this.model.findById(id).lean<WebhookDeliveryDoc>();
      if (!current) return null;
      const outcome = decide(current);
      const attempt: DeliveryAttempt = { ...outcome.attempt, number: current.attempts.length + 1, manual: current.manual };
      // A resend asked for while this attempt was in flight stays due (its due_at moved on).
      const resentMeanwhile = current.due_at !== null && current.due_at.getTime() !== dueAt.getTime();
      const set = resentMeanwhile
        ? { updated_at: new Date() }
        : { status: outcome.status, due_at: outcome.due_at, manual: false, updated_at: new Date() };
      await this.model.updateOne({ _id: id }, { $push: { attempts: attempt }, $set: set });
      return this.model.findById(id).lean<WebhookDeliveryDoc>();
    });
  }

  /** Stops a delivery whose endpoint is gone or disabled. */
  async cancel(id: string): Promise<void> {
    await this.locks.withLock(this.lockName(id), async () => {
      await this.model.updateOne({ _id: id, status: 'pending' }, { $set: { status: 'canceled', due_at: null, updated_at: new Date() } });
    });
  }

  /** Sends again now (POST …/resend), whatever its status; retries restart from now. */
  async resend(scope: Scope, id: string): Promise<WebhookDeliveryDoc> {
    return this.locks.withLock(this.lockName(id), async () => {
      await this.get(scope, id);
      const now = new Date();
      await this.model.updateOne({ _id: id }, { $set: { status: 'pending', due_at: now, window_start: now, manual: true, updated_at: now } });
      return this.get(scope, id);
    });
  }

  async get(scope: Scope, id: string): Promise<WebhookDeliveryDoc> {
    const doc = await this.model.findOne({ _id: id, ...scope }).lean<WebhookDeliveryDoc>();
    if (!doc) throw new AppError('not_found', { param: 'id', message: 'Entrega de webhook não encontrada. Confira o id (whd_…) e o modo da chave.' });
    return doc;
  }

  async list(
    scope: Scope,
    query: { endpoint_id: string; status: string; event_id: string; limit: number; starting_after: string },
  ): Promise<{ data: WebhookDeliveryDoc[]; has_more: boolean }> {
    const filter: Record<string, unknown> = { ...scope, endpoint_id: query.endpoint_id };
    if (query.status) filter.status = query.status;
    if (query.event_id) filter.event_id = query.event_id;
    if (query.starting_after) filter._id = { $lt: query.starting_after };
    const docs = await this.model.find(filter).sort({ _id: -1 }).limit(query.limit + 1).lean<WebhookDeliveryDoc[]>();
    return { data: docs.slice(0, query.limit), has_more: docs.length > query.limit };
  }
}
