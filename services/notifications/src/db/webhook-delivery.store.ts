import { context, propagation } from '@opentelemetry/api';
import { AppError, isDuplicateKeyError, newId } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import type { DeliveryAttempt, DeliveryStatus, WebhookDeliveryDoc, WebhookDeliveryModel } from './webhook-delivery.model';
import type { Scope } from './webhook-endpoint.store';

/** What one attempt decided about the delivery. */
export interface AttemptOutcome {
  attempt: Omit<DeliveryAttempt, 'number' | 'manual'>;
  status: DeliveryStatus;
  due_at: Date | null;
}

/** Rounds of read-and-write an attempt's record gets before giving up on concurrent changes. */
const MAX_RECORD_ROUNDS = 5;

/**
 * Webhook deliveries and their attempts. Created once per (endpoint, event) by a unique index;
 * every later change is one conditional write on the delivery (no lock protocol): an attempt is
 * sent under the DueWorker's claim, and its record expects the state the claim left.
 */
export class WebhookDeliveryStore {
  constructor(readonly model: WebhookDeliveryModel) {}

  get collection(): Collection<Document> {
    return this.model.collection;
  }

  /**
   * Queues an event for an endpoint, due now, or already leased until `leasedUntil` by a caller
   * that attempts it at once (DueWorker.runLeased: no claim needed). Null when it was already
   * queued (a redelivered event).
   */
  async enqueue(input: Pick<WebhookDeliveryDoc, 'endpoint_id' | 'event_id' | 'event_type' | 'merchant_id' | 'mode'>, leasedUntil?: Date): Promise<WebhookDeliveryDoc | null> {
    const now = new Date();
    const trace: Record<string, string> = {};
    propagation.inject(context.active(), trace);
    const doc: WebhookDeliveryDoc = {
      _id: newId('webhookDelivery'),
      ...input,
      ...(Object.keys(trace).length > 0 ? { trace } : {}),
      status: 'pending',
      attempts: [],
      due_at: leasedUntil ?? now,
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

  /**
   * Appends the attempt made under a claim and stores the delivery's next state, in one write.
   * `claimed` is the delivery as the DueWorker claimed it (its due_at is the lease end). The write
   * expects the attempts it numbered from and the due_at it decided on; when a resend moved
   * due_at meanwhile, the attempt is still appended but the resend's schedule stays (that resend
   * is owed an attempt of its own).
   */
  async recordAttempt(claimed: WebhookDeliveryDoc, decide: (current: WebhookDeliveryDoc) => AttemptOutcome): Promise<WebhookDeliveryDoc> {
    let current: WebhookDeliveryDoc | null = claimed;
    for (let round = 0; round < MAX_RECORD_ROUNDS; round++) {
      if (!current) throw new Error(`delivery ${claimed._id} vanished while its attempt was recorded`);
      const outcome = decide(current);
      const attempt: DeliveryAttempt = { ...outcome.attempt, number: current.attempts.length + 1, manual: claimed.manual };
      const ownsSchedule = current.due_at !== null && claimed.due_at !== null && current.due_at.getTime() === claimed.due_at.getTime();
      const now = new Date();
      const set = ownsSchedule ? { status: outcome.status, due_at: outcome.due_at, manual: false, updated_at: now } : { updated_at: now };
      const updated = await this.model
        .findOneAndUpdate(
          { _id: claimed._id, due_at: current.due_at, attempts: { $size: current.attempts.length } },
          { $push: { attempts: attempt }, $set: set },
          { new: true },
        )
        .lean<WebhookDeliveryDoc>();
      if (updated) return updated;
      current = await this.model.findById(claimed._id).lean<WebhookDeliveryDoc>();
    }
    throw new Error(`delivery ${claimed._id} kept changing while its attempt was recorded`);
  }

  /**
   * Stops a delivery whose endpoint is gone or disabled, unless a resend moved it since the claim
   * (`claimed` is the delivery as the DueWorker claimed it).
   */
  async cancel(claimed: WebhookDeliveryDoc): Promise<void> {
    await this.model.updateOne(
      { _id: claimed._id, status: 'pending', due_at: claimed.due_at },
      { $set: { status: 'canceled', due_at: null, updated_at: new Date() } },
    );
  }

  /** Sends again now (POST …/resend), whatever its status; retries restart from now. */
  async resend(scope: Scope, id: string): Promise<WebhookDeliveryDoc> {
    const now = new Date();
    const doc = await this.model
      .findOneAndUpdate(
        { _id: id, ...scope },
        { $set: { status: 'pending', due_at: now, window_start: now, manual: true, updated_at: now } },
        { new: true },
      )
      .lean<WebhookDeliveryDoc>();
    if (!doc) throw notFound();
    return doc;
  }

  async get(scope: Scope, id: string): Promise<WebhookDeliveryDoc> {
    const doc = await this.model.findOne({ _id: id, ...scope }).lean<WebhookDeliveryDoc>();
    if (!doc) throw notFound();
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

function notFound(): AppError {
  return new AppError('not_found', { param: 'id', message: 'Entrega de webhook não encontrada. Confira o id (whd_…) e o modo da chave.' });
}
