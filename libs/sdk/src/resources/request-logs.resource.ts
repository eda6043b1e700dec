import type { RequestOptions } from '../http/transport';
import type { ListRequestLogsParams, RequestLog } from '../types/request-log.types';
import { Resource, type ListPromise } from './resource';

/** /v1/request-logs: the recent API calls of the key's merchant and mode, newest first (kept 7 days). */
export class RequestLogsResource extends Resource {
  list(params: ListRequestLogsParams = {}, options?: RequestOptions): ListPromise<RequestLog> {
    return this.pageList<RequestLog>('/v1/request-logs', params, options);
  }

  listAll(params: ListRequestLogsParams = {}, options?: RequestOptions): AsyncGenerator<RequestLog> {
    return this.paginate<RequestLog>('/v1/request-logs', params, options);
  }
}
