import type { IntegrationKindId } from '@orquestra/contracts';

/**
 * The seam between the tracking service's core (sales, deliveries, retries) and each ad tool
 * (Utmify-style attribution tool, Meta Conversions API, TikTok Events API). A tool only turns a
 * sale into the one HTTP request the tool documents, or says why it does not fit; the core stores,
 * schedules and retries. Facts about each tool: ../shared/providers/ad-integrations.md.
 */

/** The kinds of integration (GET /integration-kinds): one list, in libs/contracts. */
export { INTEGRATION_KINDS, type IntegrationKindId } from '@orquestra/contracts';

/**
 * Where a sale stands for the attribution tool's order (its `status`), in rank order: an order
 * never moves to a lower rank (waiting_payment 0; paid and refused 1; refunded and chargedback 2),
 * and of two stages of one rank the first one reached stays.
 */
export const ORDER_STAGES = ['waiting_payment', 'paid', 'refused', 'refunded', 'chargedback'] as const;
export type OrderStage = (typeof ORDER_STAGES)[number];

/** What one delivery sends: an order stage (attribution tool) or the purchase (Meta, TikTok). */
export type ToolEvent = OrderStage | 'purchase';

/**
 * A sale as tracking knows it, kept from the payments, refunds and disputes events (the public
 * payment object of `data.object`) and the payment page's visit. Money in integer cents.
 */
export interface Sale {
  payment_id: string;
  merchant_id: string;
  mode: 'test' | 'live';
  method: 'pix' | 'card' | 'boleto' | null;
  stage: OrderStage;
  amount: number;
  amount_refunded: number;
  /** The provider's fee and what is left (null until known). */
  fee: number | null;
  net: number | null;
  description: string | null;
  customer: { name: string | null; email: string | null; phone: string | null; document: string | null; ip: string | null };
  /** The payment's tracking as stored (spec §2 Tracking: the 13 keys). */
  tracking: Record<string, string>;
  subscription_id: string | null;
  /** ISO 8601 instants. */
  created_at: string;
  approved_at: string | null;
  refunded_at: string | null;
  chargedback_at: string | null;
  /** The payment page's visit (first seen, last IP and browser), when the buyer opened it. */
  visit: { ip: string | null; user_agent: string | null; url: string | null; first_seen_at: string } | null;
}

/** One integration as a tool needs it: options in plain text, credentials opened from their seal. */
export interface IntegrationConfig {
  kind: IntegrationKindId;
  options: Record<string, string>;
  credentials: Record<string, string>;
}

/** The request a tool documents, ready to send; `summary` is what the delivery log keeps. */
export interface ToolRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** No credentials (not even in the URL), no raw e-mail or phone: safe to store and show. */
  summary: Record<string, unknown>;
}

/** Why a sale is not sent to a tool (a short code; the Portuguese text goes with it). */
export const NOT_SENT_REASONS = ['missing_email', 'too_old', 'missing_test_code', 'not_for_tool'] as const;
export type NotSentReason = (typeof NOT_SENT_REASONS)[number];

export type ToolPlan = { send: true; request: ToolRequest } | { send: false; reason: NotSentReason; reasonText: string };

/** How a send ended: taken (2xx), refused for good (4xx other than 408/429), or to be retried. */
export interface ToolAnswer {
  outcome: 'delivered' | 'refused' | 'retry';
  /** HTTP status, 0 when there was no answer (timeout, connection failure). */
  status: number;
  /** The answer's body (or the transport error), truncated to 2 000 characters. */
  body: string;
}

/** Field descriptions shown by GET /integration-kinds. */
export interface KindField {
  name: string;
  label: string;
  required: boolean;
  description: string;
}

export interface KindDescription {
  id: IntegrationKindId;
  name: string;
  description: string;
  credentials: KindField[];
  options: KindField[];
  sends: string[];
}

export interface AdTool {
  readonly kind: IntegrationKindId;
  describe(): KindDescription;
  /**
   * The deliveries a sale reaching `stage` calls for: the attribution tool sends every stage as
   * the same order updated; Meta and TikTok send `purchase` when the sale is paid, nothing else.
   */
  eventsFor(stage: OrderStage): ToolEvent[];
  /**
   * The request for one delivery, or why it is not sent (age limits judged at `now`, e-mail
   * required, test sales without a test code). `test` marks a test send: a test-mode sale, or
   * POST /integrations/{id}/test.
   */
  plan(sale: Sale, event: ToolEvent, config: IntegrationConfig, options: { test: boolean; now: Date }): ToolPlan;
  /**
   * How the tool's answer to a send counts, when HTTP status alone does not say it (TikTok answers
   * 200 with `code` ≠ 0 for errors). Absent: 2xx delivered, 408/429/5xx/no answer retried, other
   * 4xx refused. `status` 0 means no answer (timeout, connection failure); `body` is the raw text.
   */
  readAnswer?(status: number, body: string): ToolAnswer['outcome'];
}
