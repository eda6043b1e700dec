import { Schema, type Connection, type Model } from 'mongoose';

/** How long an API call stays in the request log (the TTL index removes it after). */
export const REQUEST_LOG_RETENTION_DAYS = 7;

/** One API call made with a merchant's key (GET /v1/request-logs). No body, header or query string. */
export interface RequestLogDoc {
  /** rlog_… (a ULID of when the gateway answered): newest first is a plain `_id` order. */
  _id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  key_id: string;
  key_last4: string;
  method: string;
  path: string;
  status: number;
  request_id: string;
  duration_ms: number;
  created_at: Date;
}

const requestLogSchema = new Schema<RequestLogDoc>(
  {
    _id: { type: String, required: true },
    merchant_id: { type: String, required: true },
    mode: { type: String, enum: ['test', 'live'], required: true },
    key_id: { type: String, default: '' },
    key_last4: { type: String, default: '' },
    method: { type: String, required: true },
    path: { type: String, required: true },
    status: { type: Number, required: true },
    request_id: { type: String, default: '' },
    duration_ms: { type: Number, required: true },
    created_at: { type: Date, required: true },
  },
  { versionKey: false },
);
// The list: one merchant and mode, newest first (by _id), optionally one status range.
requestLogSchema.index({ merchant_id: 1, mode: 1, _id: -1 });
requestLogSchema.index({ created_at: 1 }, { expireAfterSeconds: REQUEST_LOG_RETENTION_DAYS * 24 * 60 * 60 });

export function registerRequestLogModel(connection: Connection): Model<RequestLogDoc> {
  return connection.model<RequestLogDoc>('RequestLog', requestLogSchema, 'request_logs');
}
