import { accounts, common, modeFromName, modeName } from '@orquestra/contracts';
import { AppError, hasPrefix } from '@orquestra/platform';
import type { FilterQuery, Model } from 'mongoose';
import type { RequestLogDoc } from './request-log.model';

/** At most this many entries per RecordRequestLogs (the gateway sends up to its batch size). */
export const MAX_ENTRIES_PER_BATCH = 1000;

const STATUS_FILTER = /^([1-5])(xx|\d\d)$/;

function toEntry(doc: RequestLogDoc): accounts.RequestLogEntry {
  return {
    id: doc._id,
    merchant_id: doc.merchant_id,
    mode: modeFromName(doc.mode),
    key_id: doc.key_id,
    key_last4: doc.key_last4,
    method: doc.method,
    path: doc.path,
    status: doc.status,
    request_id: doc.request_id,
    duration_ms: doc.duration_ms,
    created_at: doc.created_at.toISOString(),
  };
}

/** What the gateway sent, checked and cut to size (it is trusted, but a bad entry must not poison a batch). */
function toDoc(entry: accounts.RequestLogEntry): RequestLogDoc | null {
  const created = new Date(entry.created_at);
  if (!hasPrefix(entry.id, 'requestLog') || !entry.merchant_id || Number.isNaN(created.getTime())) return null;
  if (entry.mode !== common.Mode.MODE_TEST && entry.mode !== common.Mode.MODE_LIVE) return null;
  return {
    _id: entry.id.slice(0, 64),
    merchant_id: entry.merchant_id,
    mode: modeName(entry.mode),
    key_id: entry.key_id.slice(0, 64),
    key_last4: entry.key_last4.slice(-4),
    method: entry.method.slice(0, 10),
    path: entry.path.slice(0, 500),
    status: Math.trunc(entry.status),
    request_id: entry.request_id.slice(0, 128),
    duration_ms: Math.round(Math.max(0, entry.duration_ms) * 10) / 10,
    created_at: created,
  };
}

/** The request log: batched inserts from the gateway, read newest first per merchant and mode. */
export class RequestLogStore {
  constructor(private readonly logs: Model<RequestLogDoc>) {}

  /** One unordered insertMany: a replayed batch's duplicates (same ids) are skipped, the rest kept. */
  async record(entries: readonly accounts.RequestLogEntry[]): Promise<number> {
    if (entries.length > MAX_ENTRIES_PER_BATCH) {
      throw new AppError('parameter_invalid', { param: 'entries', message: `No máximo ${MAX_ENTRIES_PER_BATCH} registros por lote.` });
    }
    const docs = entries.map(toDoc).filter((doc): doc is RequestLogDoc => doc !== null);
    if (docs.length === 0) return 0;
    try {
      const inserted = await this.logs.insertMany(docs, { ordered: false, lean: true });
      return inserted.length;
    } catch (error) {
      // Duplicate ids (the gateway retried a batch that had landed) are not a failure.
      const result = (error as { insertedDocs?: unknown[]; writeErrors?: Array<{ code?: number; err?: { code?: number } }> });
      const onlyDuplicates = result.writeErrors?.every((writeError) => (writeError.code ?? writeError.err?.code) === 11000);
      if (onlyDuplicates) return result.insertedDocs?.length ?? 0;
      throw error;
    }
  }

  async list(request: accounts.ListRequestLogsRequest): Promise<accounts.ListRequestLogsResponse> {
    const caller = request.caller;
    if (!caller?.merchant_id) throw new AppError('unauthenticated');
    const size = Math.min(Math.max(request.limit || 10, 1), 100);
    const filter: FilterQuery<RequestLogDoc> = { merchant_id: caller.merchant_id, mode: modeName(caller.mode) };
    if (request.starting_after) filter._id = { $lt: request.starting_after };
    if (request.status) {
      const match = STATUS_FILTER.exec(request.status);
      if (!match) {
        throw new AppError('parameter_invalid', { param: 'status', message: 'Use uma classe de status (2xx, 4xx, 5xx) ou um status (404).' });
      }
      const hundreds = Number(match[1]) * 100;
      filter.status = match[2] === 'xx' ? { $gte: hundreds, $lt: hundreds + 100 } : Number(request.status);
    }
    const docs = await this.logs.find(filter).sort({ _id: -1 }).limit(size + 1).lean<RequestLogDoc[]>();
    return { data: docs.slice(0, size).map(toEntry), has_more: docs.length > size };
  }
}
