import { modeName, type analytics, type common } from '@orquestra/contracts';
import {
  ANALYTICS_METHODS,
  type AnalyticsFiguresJson,
  type AnalyticsMethodFiguresJson,
  type AnalyticsOverviewJson,
} from '../schemas/analytics.response.schema';
import { ANALYTICS_TIMEZONE } from '../schemas/analytics.schema';
import { oneOf } from './narrow';
import { nullIfEmpty } from './nullable';

/** The figures of one line; a line the service sent without figures is all zeros (proto3 leaves empty messages out). */
export function toFiguresJson(figures: analytics.Figures | undefined): AnalyticsFiguresJson {
  return {
    gross: figures?.gross ?? 0,
    refunded: figures?.refunded ?? 0,
    fees: figures?.fees ?? 0,
    net: figures?.net ?? 0,
    created: figures?.created ?? 0,
    approved: figures?.approved ?? 0,
    refused: figures?.refused ?? 0,
    canceled: figures?.canceled ?? 0,
    pending: figures?.pending ?? 0,
    approval_rate: figures?.approval_rate ?? null,
  };
}

/** "none" (a payment created without a method and never charged) is null, as on the payment itself. */
function toMethodFiguresJson(line: analytics.MethodFigures): AnalyticsMethodFiguresJson {
  const method = line.method === 'none' ? null : oneOf(ANALYTICS_METHODS, line.method, 'analytics.method');
  return { method, ...toFiguresJson(line.figures) };
}

/** The overview as the public API shows it; the mode is the key's (the service answered for it). */
export function toAnalyticsOverviewJson(response: analytics.GetOverviewResponse, mode: common.Mode): AnalyticsOverviewJson {
  if (response.timezone !== '' && response.timezone !== ANALYTICS_TIMEZONE) {
    throw new Error(`the payments service counted days in ${JSON.stringify(response.timezone)}, not ${ANALYTICS_TIMEZONE}`);
  }
  return {
    object: 'analytics_overview',
    mode: modeName(mode),
    start: response.start_date,
    end: response.end_date,
    timezone: ANALYTICS_TIMEZONE,
    totals: toFiguresJson(response.totals),
    by_provider: response.by_provider.map((line) => ({
      provider_account_id: nullIfEmpty(line.provider_account_id),
      provider: nullIfEmpty(line.provider),
      ...toFiguresJson(line.figures),
      by_method: line.by_method.map(toMethodFiguresJson),
    })),
    by_method: response.by_method.map(toMethodFiguresJson),
    daily: response.daily.map((day) => ({ date: day.date, ...toFiguresJson(day.figures) })),
  };
}
