import type { Mode, PageParams } from './common.types';

/** One API call the merchant's keys made (GET /v1/request-logs): never a body, a header or a query string. */
export interface RequestLog {
  /** `rlog_…`; sorts by time. */
  id: string;
  object: 'request_log';
  /** The X-Request-Id of the call (quote it when asking for support). */
  request_id: string;
  method: string;
  /** The path without its query string, e.g. /v1/payments/pay_…/refund. */
  path: string;
  /** The HTTP status answered. */
  status: number;
  /** Milliseconds the gateway took to answer. */
  duration_ms: number;
  mode: Mode;
  /** The key (or OAuth grant) that made the call. */
  key_id: string;
  /** Last 4 characters of the API key, empty for an OAuth access token. */
  key_last4: string;
  /** ISO 8601 with milliseconds. */
  created_at: string;
}

export interface ListRequestLogsParams extends PageParams {
  /** Only this status class (`2xx`, `4xx`, `5xx`) or exact status (`404`). */
  status?: string;
}
