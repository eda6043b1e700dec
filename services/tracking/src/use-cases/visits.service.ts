import type { tracking } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError } from '@orquestra/platform';
import type { VisitDoc, VisitModel } from '../db/visit.model';
import { modeOf } from './scope';

/** The longest value kept of a tracking key (spec §2 Tracking), a browser, an address. */
const TRACKING_VALUE_MAX = 500;
const TRACKING_KEYS_MAX = 20;
const TEXT_MAX = 1_000;

const bounded = (value: string, max: number): string | null => (value ? value.slice(0, max) : null);

/**
 * The payment page's visits (public path: the gateway calls without a caller, naming the
 * payment's merchant and mode as the payment page knows them). One document per payment, written
 * by one upsert: the first visit's tracking and time stay, the last IP and browser replace the
 * previous ones.
 */
export class VisitsService {
  constructor(private readonly visits: VisitModel) {}

  async record(request: tracking.RecordVisitRequest): Promise<void> {
    if (!request.payment_id.startsWith('pay_')) throw new AppError('parameter_invalid', { param: 'payment_id', message: 'payment_id deve ser o id de um pagamento (pay_…).' });
    if (!request.merchant_id) throw new AppError('parameter_missing', { param: 'merchant_id' });
    const mode = modeOf(request.mode);
    const tracking: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.tracking).slice(0, TRACKING_KEYS_MAX)) {
      if (typeof value === 'string' && value !== '') tracking[key.slice(0, 50)] = value.slice(0, TRACKING_VALUE_MAX);
    }
    const now = new Date();
    const update = {
      $setOnInsert: { merchant_id: request.merchant_id, mode, tracking, first_seen_at: now },
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
      await this.visits.collection.updateOne({ _id: request.payment_id } as never, update, { upsert: true });
    } catch (error) {
      // Two first visits at once: one inserted, the other updates it.
      if (!isDuplicateKeyError(error)) throw error;
      await this.visits.collection.updateOne({ _id: request.payment_id } as never, update);
    }
  }

  async get(paymentId: string): Promise<VisitDoc | null> {
    return this.visits.findById(paymentId).lean<VisitDoc>();
  }
}
