import { modeName, type accounts } from '@orquestra/contracts';
import type { RequestLogJson, RequestLogListJson } from '../schemas/request-log.response.schema';

export function toRequestLogJson(entry: accounts.RequestLogEntry): RequestLogJson {
  return {
    id: entry.id,
    object: 'request_log',
    request_id: entry.request_id,
    method: entry.method,
    path: entry.path,
    status: entry.status,
    duration_ms: entry.duration_ms,
    mode: modeName(entry.mode),
    key_id: entry.key_id,
    key_last4: entry.key_last4,
    created_at: entry.created_at,
  };
}

export function toRequestLogListJson(response: accounts.ListRequestLogsResponse): RequestLogListJson {
  return { object: 'list', data: response.data.map(toRequestLogJson), has_more: response.has_more };
}
