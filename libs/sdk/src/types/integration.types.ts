import type { PageParams } from './common.types';

/** The ad tools: utmify (attribution: the order with UTMs, amount, fee, net), meta (Conversions API), tiktok (Events API). */
export type IntegrationKindId = 'utmify' | 'meta' | 'tiktok';

/** Which sales an integration receives. */
export type IntegrationSales = 'live' | 'test' | 'both';

/** A credential or option of a kind (GET /v1/integration-kinds). */
export interface IntegrationField {
  name: string;
  /** Portuguese label for screens. */
  label: string;
  required: boolean;
  description: string | null;
}

export interface IntegrationKind {
  id: IntegrationKindId;
  object: 'integration_kind';
  name: string;
  description: string;
  /** Sealed at rest; only their last 4 characters are ever shown. */
  credentials: IntegrationField[];
  /** Plain text, shown as sent. */
  options: IntegrationField[];
  /** The events sent to the tool: the `event` values of its deliveries. */
  sends: IntegrationDeliveryEvent[];
}

export interface Integration {
  id: string;
  object: 'integration';
  kind: IntegrationKindId;
  name: string | null;
  enabled: boolean;
  sales: IntegrationSales;
  options: Record<string, string>;
  /** The last 4 characters of each credential, by its name (empty for one shorter than 8); credentials are never returned. */
  credentials_last4: Record<string, string>;
  created_at: string;
  updated_at: string;
}

/** Returned by DELETE: the integration as it was. */
export interface DeletedIntegration extends Integration {
  deleted: true;
}

/** What a delivery sends: an order status (attribution tool) or the purchase (Meta, TikTok). */
export type IntegrationDeliveryEvent = 'waiting_payment' | 'paid' | 'refused' | 'refunded' | 'chargedback' | 'purchase';

export interface IntegrationDeliveryResponse {
  /** HTTP status; null without an answer (timeout, connection refused). */
  status: number | null;
  /** The answer's body (or the connection error), truncated. */
  body: string | null;
}

/** One send of one sale to one tool, and its retries. */
export interface IntegrationDelivery {
  id: string;
  object: 'integration_delivery';
  integration_id: string;
  payment_id: string;
  event: IntegrationDeliveryEvent;
  /** A test sale, or a send by `integrations.test`. */
  test: boolean;
  /**
   * pending (to be sent or retried), delivered, failed (4xx refusal, or retries ran out), not_sent
   * (does not fit the tool's rules: see reason), superseded (a later status of the order went instead).
   */
  status: 'pending' | 'delivered' | 'failed' | 'not_sent' | 'superseded';
  /** not_sent / failed: missing_email, too_old, missing_test_code, not_for_tool, tool_refused, retries_exhausted. */
  reason: string | null;
  /** The reason in Portuguese. */
  reason_text: string | null;
  attempts: number;
  next_attempt_at: string | null;
  /** What was sent, summarized (no credentials, no raw e-mail or phone); null when nothing was sent. */
  request: Record<string, unknown> | null;
  /** The tool's last answer; null when nothing was sent yet. */
  response: IntegrationDeliveryResponse | null;
  created_at: string;
  updated_at: string;
  delivered_at: string | null;
}

export interface CreateIntegrationParams {
  kind: IntegrationKindId;
  name?: string;
  /** Omitted: the key's mode. */
  sales?: IntegrationSales;
  /** Option names from `integrationKinds.list()`; text values ≤ 500 characters. */
  options?: Record<string, string>;
  /** Credential names from `integrationKinds.list()`; text values of 1 to 500 characters. */
  credentials: Record<string, string>;
  /** Omitted: true. */
  enabled?: boolean;
}

export interface UpdateIntegrationParams {
  name?: string;
  enabled?: boolean;
  sales?: IntegrationSales;
  /** Merged into the current options; an empty value removes the option. */
  options?: Record<string, string>;
  /** Each credential sent replaces the stored one. */
  credentials?: Record<string, string>;
}

export interface ListIntegrationDeliveriesParams extends PageParams {
  /** Only the sends of this payment. */
  payment_id?: string;
}
