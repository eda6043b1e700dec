import { isTrackingKey, MAX_TRACKING_VALUE, type tracking } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError } from '@orquestra/platform';
import type { VisitDoc, VisitModel } from '../db/visit.model';
import { modeOf } from './scope';

/** The longest browser or address kept. */
const TEXT_MAX = 1_000;
/** Tries of the fill of missing tracking keys against concurrent visits of the same payment. */
const FILL_TRIES = 4;

const bounded = (value: string, max: number): string | null => (value ? value.slice(0, max) : null);

/**
 * The payment page's visits (public path: the gateway calls without a caller, naming the
 * payment's merchant and mode as the payment page knows them). One document per payment, written
 * by one upsert: the first visit's time stays, the last IP and browser replace the previous ones.
 * Tracking keys are filled like the payment's (payments RecordPageTracking): a key a visit brings
 * is kept unless an earlier visit brought it, so a first visit without UTMs does not freeze an
 * empty set.
 */
export class VisitsService {
  constructor(private readonly visits: VisitModel) {}

  async record(request: tracking.RecordVisitRequest): Promise<void> {
    if (!request.payment_id.startsWith('pay_')) throw new AppError('parameter_invalid', { param: 'payment_id', message: 'payment_id deve ser o id de um pagamento (pay_…).' });
    if (!request.merchant_id) throw new AppError('parameter_missing', { param: 'merchant_id' });
    const mode = modeOf(request.mode);
    // The spec's keys only; a value over the limit is not taken (a cut click id would credit a click that never happened).
    const tracking: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.tracking)) {
      if (isTrackingKey(key) && typeof value === 'string' && value !== '' && value.length <= MAX_TRACKING_VALUE) tracking[key] = value;
    }
    const now = new Date();
    const update = {
      $setOnInsert: { merchant_id: request.merchant_id, mode, tracking: {}, first_seen_at: now },
      $set: {
        ip: bounded(request.ip, 100),
        user_agent: bounded(request.user_agent, TEXT_MAX),
        url: bounded(request.url, TEXT_MAX * 2),
        referrer: bounded(request.referrer, TEXT_MAX * 2),
        last_seen_at: now,
      },
      $inc: { count: 1 },
    };
    try {
      // Every field is in the update: no schema default is added to the insert (setDefaultsOnInsert).
      await this.visits.updateOne({ _id: request.payment_id }, update, { upsert: true, setDefaultsOnInsert: false });
    } catch (error) {
      // Two first visits at once: one inserted, the other updates it.
      if (!isDuplicateKeyError(error)) throw error;
      await this.visits.updateOne({ _id: request.payment_id }, update);
    }
    await this.fillMissingTracking(request.payment_id, tracking);
  }

  /**
   * Sets the keys the visit stored so far lacks, in one conditional write (those keys still
   * absent); a concurrent visit that filled one of them first makes it read again and retry.
   */
  private async fillMissingTracking(paymentId: string, tracking: Record<string, string>): Promise<void> {
    for (let attempt = 0; attempt < FILL_TRIES; attempt++) {
      const current = await this.visits.findOne({ _id: paymentId }, { tracking: 1 }).lean<Pick<VisitDoc, '_id' | 'tracking'>>().exec();
      const stored = current?.tracking ?? {};
      const missing = Object.keys(tracking).filter((key) => !(key in stored));
      if (missing.length === 0) return;
      const filter = Object.fromEntries([['_id', paymentId], ...missing.map((key) => [`tracking.${key}`, { $exists: false }])]);
      const set = Object.fromEntries(missing.map((key) => [`tracking.${key}`, tracking[key]]));
      const result = await this.visits.updateOne(filter, { $set: set });
      if (result.modifiedCount === 1) return;
    }
  }

  async get(paymentId: string): Promise<VisitDoc | null> {
    return this.visits.findById(paymentId).lean<VisitDoc>();
  }
}
