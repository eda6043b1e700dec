import { isDuplicateKeyError, withOutbox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import { OPEN_CYCLE_STATUSES, type CycleDoc, type CycleModel, type CycleStatus } from './cycle.model';

export type NewCycle = Omit<CycleDoc, 'outbox' | 'outbox_since' | 'outbox_lease'>;

/**
 * Cycles and their events. The insert on `<subscription>:<sequence>` (and on the request's
 * Idempotency-Key) is what keeps a cycle from being charged twice; every later change is one
 * conditional update whose filter holds the state it was read in.
 */
export class CycleStore {
  constructor(
    private readonly model: CycleModel,
    private readonly outbox: OutboxRelay,
  ) {}

  get collection(): Collection<Document> {
    return this.model.collection;
  }

  /** Inserts the cycle; `false` when that cycle (or that Idempotency-Key's) exists already. */
  async insert(doc: NewCycle): Promise<boolean> {
    try {
      await this.model.create({ ...doc, outbox: [], outbox_since: null });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  findById(id: string): Promise<CycleDoc | null> {
    return this.model.findById(id).lean<CycleDoc>().exec();
  }

  findByIdempotencyRef(ref: string): Promise<CycleDoc | null> {
    return this.model.findOne({ idempotency_ref: ref }).lean<CycleDoc>().exec();
  }

  findByPayment(paymentId: string): Promise<CycleDoc | null> {
    return this.model.findOne({ payment_id: paymentId }).lean<CycleDoc>().exec();
  }

  findByProviderCharge(subscriptionId: string, providerChargeId: string): Promise<CycleDoc | null> {
    return this.model.findOne({ subscription_id: subscriptionId, provider_charge_id: providerChargeId }).lean<CycleDoc>().exec();
  }

  listOf(subscriptionId: string): Promise<CycleDoc[]> {
    return this.model.find({ subscription_id: subscriptionId }).sort({ sequence: -1 }).lean<CycleDoc[]>().exec();
  }

  listOpen(subscriptionId: string): Promise<CycleDoc[]> {
    return this.model.find({ subscription_id: subscriptionId, status: { $in: OPEN_CYCLE_STATUSES } }).lean<CycleDoc[]>().exec();
  }

  /**
   * A cycle still `sending` moves to where its payment is (its charge id recorded), with its event.
   * Null when something else moved it first (a payment event already said paid or failed).
   */
  async markSent(cycle: CycleDoc, to: CycleStatus, providerChargeId: string, events: EventEnvelope[]): Promise<CycleDoc | null> {
    return this.write({ _id: cycle._id, status: 'sending' }, { status: to, provider_charge_id: providerChargeId, due_at: null }, events);
  }

  /** An open cycle of this payment becomes `to` (paid, failed, canceled): the payment said so. */
  async settle(paymentId: string, to: Extract<CycleStatus, 'paid' | 'failed' | 'canceled'>, events: EventEnvelope[], providerChargeId = ''): Promise<CycleDoc | null> {
    // The charge id too, when the payment says it and the sender had not recorded it yet: later
    // reports of that charge find the cycle.
    return this.write(
      { payment_id: paymentId, status: { $in: OPEN_CYCLE_STATUSES } },
      { status: to, due_at: null, next_attempt_date: null, ...(providerChargeId ? { provider_charge_id: providerChargeId } : {}) },
      events,
    );
  }

  /** A failed debit with another attempt to come: counted once per attempt, however often reported. */
  async recordFailedAttempt(cycle: CycleDoc, failedAttempts: number, nextAttemptDate: string | null): Promise<CycleDoc | null> {
    return this.write(
      { _id: cycle._id, status: { $in: ['scheduled', 'retrying'] }, failed_attempts: { $lt: failedAttempts } },
      { status: 'retrying', failed_attempts: failedAttempts, next_attempt_date: nextAttemptDate },
      [],
    );
  }

  /** Undoes recordFailedAttempt when the retry it was counted for could not be asked for. */
  async uncountFailedAttempt(counted: CycleDoc, failedAttempts: number, nextAttemptDate: string | null): Promise<void> {
    await this.write({ _id: counted._id, failed_attempts: counted.failed_attempts }, { failed_attempts: failedAttempts, next_attempt_date: nextAttemptDate }, []);
  }

  private async write(filter: Record<string, unknown>, set: Partial<CycleDoc>, events: EventEnvelope[]): Promise<CycleDoc | null> {
    const update = { $set: { ...set, updated_at: new Date() } };
    const written = await this.model
      .findOneAndUpdate(filter, events.length > 0 ? withOutbox(update, events) : update, { new: true })
      .lean<CycleDoc>()
      .exec();
    if (written && events.length > 0) void this.outbox.flush(this.collection, written._id);
    return written;
  }
}
