/**
 * TikTok Events API 2.0 (ad-integrations.md §3): one `Purchase` when a sale is paid, `event_id` =
 * the payment id, e-mail and phone (E.164 with `+`) SHA-256 hashed, ttclid and the `_ttp` cookie
 * as captured. TikTok answers HTTP 200 even for errors: its `code` says (readAnswer).
 */
import type { AdTool, IntegrationConfig, KindDescription, OrderStage, Sale, ToolAnswer, ToolEvent, ToolPlan } from './ad-tool';
import { KIND_FIELDS } from '../domain/integration-input';
import { hashedEmail, sha256Hex, tiktokHashedPhone } from '../domain/normalize';
import { compact, defaultOutcome, notSent, olderThan, reais, trackingValue, unixSeconds } from './tool-common';

/** Events older than this are not sent (TikTok's web events window, as Meta's). */
export const TIKTOK_MAX_AGE_DAYS = 7;

/** TikTok Business API codes read as "try again later": rate limited, and its own failures (5xxxx). */
export const TIKTOK_RATE_LIMITED = 40100;

/**
 * TikTok's `code`: 0 delivered; 40100 (too many requests) and 5xxxx (TikTok's side) retried;
 * any other (4xxxx: auth 40104/40105, permission 40001, bad parameters 40002) refused for good.
 * A 2xx whose body is not TikTok's JSON is retried: event_id makes a repeat harmless.
 */
export function tiktokOutcome(status: number, body: string): ToolAnswer['outcome'] {
  if (status < 200 || status >= 300) return defaultOutcome(status);
  let code: unknown;
  try {
    code = (JSON.parse(body) as { code?: unknown }).code;
  } catch {
    return 'retry';
  }
  if (code === 0) return 'delivered';
  if (typeof code !== 'number') return 'retry';
  if (code === TIKTOK_RATE_LIMITED || code >= 50000) return 'retry';
  return 'refused';
}

export class TiktokTool implements AdTool {
  readonly kind = 'tiktok' as const;

  constructor(private readonly baseUrl: string) {}

  describe(): KindDescription {
    return {
      id: 'tiktok',
      name: 'TikTok (Events API)',
      description:
        'Envia uma compra (Purchase) quando a venda é aprovada, com o id do pagamento como event_id, e-mail e telefone (E.164) com hash SHA-256, ttclid e o cookie _ttp. Vendas de teste exigem o código de evento de teste.',
      credentials: KIND_FIELDS.tiktok.credentials.map(({ name, label, required, description }) => ({ name, label, required, description })),
      options: KIND_FIELDS.tiktok.options.map(({ name, label, required, description }) => ({ name, label, required, description })),
      sends: ['purchase'],
    };
  }

  eventsFor(stage: OrderStage): ToolEvent[] {
    return stage === 'paid' ? ['purchase'] : [];
  }

  plan(sale: Sale, event: ToolEvent, config: IntegrationConfig, { test, now }: { test: boolean; now: Date }): ToolPlan {
    if (event !== 'purchase') return notSent('not_for_tool');
    // A paid sale carries its approval; should an event lack it, the sale's creation stands in.
    const approvedAt = sale.approved_at ?? sale.created_at;
    const testCode = config.options['test_event_code'];
    if (test && !testCode) return notSent('missing_test_code');
    if (olderThan(approvedAt, TIKTOK_MAX_AGE_DAYS, now)) return notSent('too_old', 'O TikTok só recebe eventos de até 7 dias.');

    const email = hashedEmail(sale.customer.email);
    const phone = tiktokHashedPhone(sale.customer.phone);
    const document = sale.customer.document?.replace(/\D/g, '');
    const user = compact({
      email: email ? [email] : undefined,
      phone: phone ? [phone] : undefined,
      external_id: document ? [sha256Hex(document)] : undefined,
      ttclid: trackingValue(sale, 'ttclid') ?? undefined,
      ttp: trackingValue(sale, 'ttp') ?? undefined,
      ip: sale.visit?.ip ?? sale.customer.ip ?? undefined,
      user_agent: sale.visit?.user_agent ?? undefined,
    });
    const purchase = compact({
      event: 'Purchase',
      event_time: unixSeconds(approvedAt),
      event_id: sale.payment_id,
      user,
      properties: { value: reais(sale.amount), currency: 'BRL', order_id: sale.payment_id, content_type: 'product' },
      page: sale.visit?.url ? { url: sale.visit.url } : undefined,
    });
    const pixelCode = config.options['pixel_code'] ?? '';
    const body = { event_source: 'web', event_source_id: pixelCode, ...(test ? { test_event_code: testCode } : {}), data: [purchase] };
    return {
      send: true,
      request: {
        url: `${this.baseUrl.replace(/\/+$/, '')}/open_api/v1.3/event/track/`,
        headers: { 'content-type': 'application/json', 'Access-Token': config.credentials['access_token'] ?? '' },
        body,
        summary: {
          pixel_code: pixelCode,
          event: 'Purchase',
          event_id: sale.payment_id,
          event_time: purchase.event_time,
          value: purchase.properties?.value,
          currency: 'BRL',
          email: email ?? null,
          phone: phone ?? null,
          has_ttclid: Boolean(user.ttclid),
          has_ttp: Boolean(user.ttp),
          test_event_code: test ? testCode : null,
        },
      },
    };
  }

  readAnswer(status: number, body: string): ToolAnswer['outcome'] {
    return tiktokOutcome(status, body);
  }
}
