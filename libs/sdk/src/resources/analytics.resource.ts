import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { AnalyticsOverview, AnalyticsOverviewParams } from '../types/analytics.types';
import { Resource } from './resource';

/** /v1/analytics: volume, fees, counts and approval rate of the key's mode (full keys only). */
export class AnalyticsResource extends Resource {
  /** By provider account, by method and by São Paulo day; the last 30 days when called without params. */
  overview(params: AnalyticsOverviewParams = {}, options?: RequestOptions): Promise<WithLastResponse<AnalyticsOverview>> {
    return this.call({ method: 'GET', path: '/v1/analytics/overview', query: { days: params.days, start: params.start, end: params.end } }, options);
  }
}
