import type { ServiceMetrics } from '@orquestra/platform';
import type { Logger } from '@orquestra/platform';
import type { RequestHandler, Router } from 'express';
import type { KeyRevocations } from '../auth/key-revocations';
import type { DownstreamClients } from '../grpc/downstream.clients';
import type { ReadinessCheck } from '../health/readiness.probe';
import type { OAuthEdge } from '../oauth/oauth.server';
import type { RequestLogRecorder } from '../request-logs/request-log.recorder';

/** Tunables of the HTTP edge (from config in production, chosen freely by tests). */
export interface GatewaySettings {
  createPaymentDeadlineMs: number;
  keyCacheTtlMs: number;
  keyCacheMaxEntries: number;
  /** Express `trust proxy` value: addresses/subnets, a hop count, or true/false (config TRUST_PROXY). */
  trustProxy: boolean | number | string;
  publicBaseUrl: string;
  /** Base of the buyer's payment page (`payment_url` = `<base>/<id>`); default `<publicBaseUrl>/pay`. */
  payBaseUrl?: string;
}

/** Everything `createApp` needs; pass fakes or clients of real services. */
export interface GatewayDeps {
  clients: DownstreamClients;
  logger: Logger;
  readiness: ReadinessCheck;
  settings: GatewaySettings;
  /** Where request metrics go (served by main.ts on METRICS_PORT); absent in most unit tests. */
  metrics?: ServiceMetrics;
  /** API key revocations broadcast by accounts (main.ts subscribes); absent, cached keys live their TTL. */
  keyRevocations?: KeyRevocations;
  /** More /dashboard/api routes behind the owner's session and CSRF (the OAuth apps' pages). */
  dashboardRoutes?: Router[];
  /** The OAuth server (/oauth) and its /v1 access-token check; absent, only API keys work. */
  oauth?: OAuthEdge;
  /** Where /v1 calls made with a key are logged for GET /v1/request-logs; absent, nothing is. */
  requestLog?: RequestLogRecorder;
}

/** What route factories receive: the deps plus the shared auth middleware instance. */
export interface RouteContext extends GatewayDeps {
  authenticate: RequestHandler;
}
