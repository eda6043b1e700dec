/**
 * Meta Conversions API (ad-integrations.md §2): one `Purchase` when a sale is paid, `event_id` =
 * the payment id (Meta deduplicates it with the browser pixel), e-mail and phone normalized and
 * SHA-256 hashed, click id and cookies unhashed.
 */
import type { AdTool, IntegrationConfig, KindDescription, OrderStage, Sale, ToolEvent, ToolPlan } from './ad-tool';
import { KIND_FIELDS } from '../domain/integration-input';
import { hashedEmail, metaHashedPhone, sha256Hex } from '../domain/normalize';
import { compact, notSent, olderThan, reais, trackingValue, unixSeconds } from './tool-common';

/** Meta refuses a whole request when one event is older than this. */
export const META_MAX_AGE_DAYS = 7;

/** `fb.<subdomain index>.<ms>.<fbclid>` and `fb.<index>.<ms>.<random number>` (the cookies' documented formats). */
const FBC_FORMAT = /^fb\.[0-2]\.\d{13}\.\S+$/;
const FBP_FORMAT = /^fb\.[0-2]\.\d{13}\.\d+$/;

/** The `_fbp` cookie as captured, when it has the cookie's format. */
export function metaFbp(sale: Sale): string | null {
  const fbp = trackingValue(sale, 'fbp');
  return fbp && FBP_FORMAT.test(fbp) ? fbp : null;
}

/**
 * `fbc` as Meta wants it: the `_fbc` cookie as captured, or built from the click id when only
 * `fbclid` is known: `fb.1.<ms the click was first seen>.<fbclid>` (fbclid's case kept).
 */
export function metaFbc(sale: Sale): string | null {
  // Tracking values are whatever the buyer's address carried: a malformed cookie is not passed
  // on (Meta would refuse the whole event), the click id is used instead when there is one.
  const fbc = trackingValue(sale, 'fbc');
  if (fbc && FBC_FORMAT.test(fbc)) return fbc;
  const fbclid = trackingValue(sale, 'fbclid');
  if (!fbclid) return null;
  const firstSeen = Date.parse(sale.visit?.first_seen_at ?? sale.created_at);
  return `fb.1.${firstSeen}.${fbclid}`;
}

/**
 * Meta's `action_source`: `website` when the buyer opened the payment page (its address and
 * browser are what a website event requires); otherwise `system_generated` for a subscription's
 * cycle (charged without the buyer) and `other` for a sale made where we saw no page (the
 * merchant's own checkout through the API).
 */
export function metaActionSource(sale: Sale): 'website' | 'system_generated' | 'other' {
  if (sale.visit?.url && sale.visit.user_agent) return 'website';
  return sale.subscription_id ? 'system_generated' : 'other';
}

export class MetaTool implements AdTool {
  readonly kind = 'meta' as const;

  constructor(
    private readonly graphBaseUrl: string,
    private readonly graphVersion: string,
  ) {}

  describe(): KindDescription {
    return {
      id: 'meta',
      name: 'Meta (API de Conversões)',
      description:
        'Envia uma compra (Purchase) quando a venda é aprovada, com o id do pagamento como event_id, e-mail e telefone normalizados e com hash SHA-256, fbc (montado a partir do fbclid quando preciso) e fbp. Vendas de teste exigem o código de evento de teste.',
      credentials: KIND_FIELDS.meta.credentials.map(({ name, label, required, description }) => ({ name, label, required, description })),
      options: KIND_FIELDS.meta.options.map(({ name, label, required, description }) => ({ name, label, required, description })),
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
    if (olderThan(approvedAt, META_MAX_AGE_DAYS, now)) return notSent('too_old', 'A Meta só aceita eventos de até 7 dias.');

    const em = hashedEmail(sale.customer.email);
    const ph = metaHashedPhone(sale.customer.phone);
    const document = sale.customer.document?.replace(/\D/g, '');
    const actionSource = metaActionSource(sale);
    const userData = compact({
      em: em ? [em] : undefined,
      ph: ph ? [ph] : undefined,
      // The buyer's CPF/CNPJ digits, hashed: a stable id of the person across their purchases.
      external_id: document ? [sha256Hex(document)] : undefined,
      country: [sha256Hex('br')],
      // Meta wants IP, browser and click cookies as they are (never hashed).
      client_ip_address: sale.visit?.ip ?? sale.customer.ip ?? undefined,
      client_user_agent: sale.visit?.user_agent ?? undefined,
      fbc: metaFbc(sale) ?? undefined,
      fbp: metaFbp(sale) ?? undefined,
    });
    const purchase = compact({
      event_name: 'Purchase',
      event_time: unixSeconds(approvedAt),
      event_id: sale.payment_id,
      action_source: actionSource,
      event_source_url: actionSource === 'website' ? sale.visit?.url : undefined,
      user_data: userData,
      custom_data: { value: reais(sale.amount), currency: 'BRL', order_id: sale.payment_id },
    });
    // The token travels in the body, never in the URL: HTTP client spans record the full URL with
    // its query string, and traces must never carry a credential (Graph takes access_token in a
    // POST body as well as in the query).
    const body = { data: [purchase], ...(test ? { test_event_code: testCode } : {}), access_token: config.credentials['access_token'] ?? '' };
    const pixelId = config.options['pixel_id'] ?? '';
    const base = this.graphBaseUrl.replace(/\/+$/, '');
    return {
      send: true,
      request: {
        url: `${base}/${this.graphVersion}/${encodeURIComponent(pixelId)}/events`,
        headers: { 'content-type': 'application/json' },
        body,
        summary: {
          pixel_id: pixelId,
          event_name: 'Purchase',
          event_id: sale.payment_id,
          event_time: purchase.event_time,
          action_source: actionSource,
          value: purchase.custom_data?.value,
          currency: 'BRL',
          em: em ?? null,
          ph: ph ?? null,
          has_fbc: Boolean(userData.fbc),
          has_fbp: Boolean(userData.fbp),
          test_event_code: test ? testCode : null,
        },
      },
    };
  }
}
