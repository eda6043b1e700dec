import type { Mode, PaymentMethod } from './common.types';

/** Query of GET /v1/analytics/overview: `days`, or `start` and `end` together (never both forms). */
export type AnalyticsOverviewParams =
  | {
      /** The last N days including today in America/Sao_Paulo, 1..366 (default 30). */
      days?: number;
      start?: never;
      end?: never;
    }
  | {
      days?: never;
      /** First São Paulo day, YYYY-MM-DD, included. */
      start: string;
      /** Last São Paulo day, YYYY-MM-DD, included (at most 366 days after start, counting both). */
      end: string;
    };

/** Money in cents and counts of payments (docs/analytics.md defines each). */
export interface AnalyticsFigures {
  gross: number;
  refunded: number;
  fees: number;
  net: number;
  created: number;
  approved: number;
  refused: number;
  canceled: number;
  pending: number;
  /** approved / (approved + refused), 0..1; null when nothing was approved or refused. */
  approval_rate: number | null;
}

export interface AnalyticsMethodFigures extends AnalyticsFigures {
  /** null for payments created without a method and never charged. */
  method: PaymentMethod | null;
}

export interface AnalyticsProviderFigures extends AnalyticsFigures {
  /** null (with provider) for payments no account charged. */
  provider_account_id: string | null;
  provider: string | null;
  by_method: AnalyticsMethodFigures[];
}

export interface AnalyticsDayFigures extends AnalyticsFigures {
  /** São Paulo day, YYYY-MM-DD. */
  date: string;
}

export interface AnalyticsOverview {
  object: 'analytics_overview';
  mode: Mode;
  start: string;
  end: string;
  timezone: 'America/Sao_Paulo';
  totals: AnalyticsFigures;
  by_provider: AnalyticsProviderFigures[];
  by_method: AnalyticsMethodFigures[];
  /** Every day of the range, in order, zeros included. */
  daily: AnalyticsDayFigures[];
}
