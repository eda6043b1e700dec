import type { SealedSecret, SecretBox } from '@orquestra/platform';
import type { Model } from 'mongoose';
import type { Logger } from 'pino';

interface SealedDoc {
  _id: string;
  number_sealed: SealedSecret | null;
  cvc_sealed: SealedSecret | null;
}

export interface RotationResult {
  /** Documents whose number and/or security code were sealed again with the current key. */
  resealed: number;
  /** Documents already sealed with the current key, or changed meanwhile (deleted, code gone). */
  skipped: number;
  /** Still sealed with an older key after the run (changed while it ran): run it again. */
  remaining: number;
}

const BATCH = 200;

/**
 * Seals again, with the current (first) key of CARD_ENCRYPTION_KEYS, every stored number and
 * security code still sealed with an older key: saved cards and card tokens. Each document is one
 * conditional write on the sealed values it read, so a card deleted or a code removed meanwhile is
 * never brought back; documents are walked in id order. Idempotent (a second run finds nothing to
 * do) and resumable (stopping anywhere leaves every document readable with the configured keys).
 */
export async function rotateSealedCardData(models: Array<Model<never>>, box: SecretBox, logger: Logger): Promise<RotationResult> {
  const current = box.seal('').key_id;
  const result: RotationResult = { resealed: 0, skipped: 0, remaining: 0 };
  const stale = {
    $or: [
      { number_sealed: { $ne: null }, 'number_sealed.key_id': { $ne: current } },
      { cvc_sealed: { $ne: null }, 'cvc_sealed.key_id': { $ne: current } },
    ],
  };
  for (const model of models) {
    const collection = model.collection;
    let after = '';
    for (;;) {
      const page = (await collection
        .find({ ...stale, ...(after ? { _id: { $gt: after } } : {}) } as never)
        .sort({ _id: 1 })
        .limit(BATCH)
        .project({ _id: 1, number_sealed: 1, cvc_sealed: 1 })
        .toArray()) as unknown as SealedDoc[];
      if (page.length === 0) break;
      for (const doc of page) {
        after = doc._id;
        const set: Record<string, SealedSecret> = {};
        const filter: Record<string, unknown> = { _id: doc._id };
        for (const field of ['number_sealed', 'cvc_sealed'] as const) {
          const sealed = doc[field];
          filter[field] = sealed;
          if (sealed && box.needsReseal(sealed)) set[field] = box.seal(box.open(sealed));
        }
        if (Object.keys(set).length === 0) {
          result.skipped += 1;
          continue;
        }
        const written = await collection.updateOne(filter as never, { $set: set });
        if (written.modifiedCount === 1) result.resealed += 1;
        else result.skipped += 1;
      }
      logger.info({ collection: collection.collectionName, resealed: result.resealed, skipped: result.skipped }, 'key rotation progress');
    }
    result.remaining += await collection.countDocuments(stale as never);
  }
  return result;
}
