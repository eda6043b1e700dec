/**
 * The attribution tool (Utmify orders API, ad-integrations.md §1): every stage of a sale is the
 * same order (`orderId` = the payment id) posted again in full; never moving backwards is the
 * core's job (domain/order-stage.ts `canMove`).
 */
import type { AdTool, IntegrationConfig, KindDescription, OrderStage, Sale, ToolAnswer, ToolEvent, ToolPlan } from './ad-tool';
import { KIND_FIELDS } from '../domain/integration-input';
import { brazilianPhoneDigits, normalizeEmail } from '../domain/normalize';
import { defaultOutcome, notSent, olderThan, trackingValue } from './tool-common';

export const UTMIFY_TRACKING_KEYS = ['src', 'sck', 'utm_source', 'utm_campaign', 'utm_medium', 'utm_content', 'utm_term'] as const;

const PAYMENT_METHOD = { pix: 'pix', boleto: 'boleto', card: 'credit_card' } as const;

/** `YYYY-MM-DD HH:MM:SS` in UTC, the tool's only date format. */
export function utmifyDate(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19).replace('T', ' ');
}

/** Orders older than this (by createdAt) are refused by the tool: 7 days, 45 for refunds and chargebacks. */
export const utmifyMaxAgeDays = (stage: OrderStage): number => (stage === 'refunded' || stage === 'chargedback' ? 45 : 7);

export class UtmifyTool implements AdTool {
  readonly kind = 'utmify' as const;

  constructor(private readonly baseUrl: string) {}

  describe(): KindDescription {
    return {
      id: 'utmify',
      name: 'Ferramenta de atribuição (Utmify)',
      description:
        'Envia cada venda como um pedido com UTMs, valor, taxa e líquido: gerado (Pix ou boleto aguardando), aprovado, recusado, cancelado (enviado como recusado) e reembolsado, sempre o mesmo pedido atualizado e nunca voltando de status.',
      credentials: KIND_FIELDS.utmify.credentials.map(({ name, label, required, description }) => ({ name, label, required, description })),
      options: KIND_FIELDS.utmify.options.map(({ name, label, required, description }) => ({ name, label, required, description })),
      sends: ['waiting_payment', 'paid', 'refused', 'refunded', 'chargedback'],
    };
  }

  eventsFor(stage: OrderStage): ToolEvent[] {
    return [stage];
  }

  plan(sale: Sale, event: ToolEvent, config: IntegrationConfig, { test, now }: { test: boolean; now: Date }): ToolPlan {
    if (event === 'purchase') return notSent('not_for_tool');
    const status: OrderStage = event;
    const email = normalizeEmail(sale.customer.email);
    if (!email) return notSent('missing_email');
    if (olderThan(sale.created_at, utmifyMaxAgeDays(status), now)) return notSent('too_old', `Criada em ${utmifyDate(sale.created_at)} UTC.`);
    if (!sale.method) return notSent('not_for_tool', 'A venda ainda não tem meio de pagamento.');

    const fee = sale.fee ?? 0;
    // A chargeback is the money going back too: the tool has one date for both (refundedAt). The
    // tool requires the date with those statuses (and approvedDate with paid): when an event came
    // without it, the instant we learned of it stands in.
    const refundedAt =
      status === 'refunded' ? (sale.refunded_at ?? now.toISOString()) : status === 'chargedback' ? (sale.chargedback_at ?? sale.refunded_at ?? now.toISOString()) : null;
    const approvedAt = status === 'waiting_payment' || status === 'refused' ? null : (sale.approved_at ?? (status === 'paid' ? now.toISOString() : null));
    const trackingParameters = Object.fromEntries(UTMIFY_TRACKING_KEYS.map((key) => [key, trackingValue(sale, key)]));
    const body = {
      orderId: sale.payment_id,
      platform: config.options['platform'] || 'Orquestra',
      paymentMethod: PAYMENT_METHOD[sale.method],
      status,
      // The same createdAt on every update: the tool keys its age limit and the order on it.
      createdAt: utmifyDate(sale.created_at),
      approvedDate: approvedAt ? utmifyDate(approvedAt) : null,
      refundedAt: refundedAt ? utmifyDate(refundedAt) : null,
      customer: {
        // The tool requires a name; the e-mail is what it identifies the buyer by anyway.
        name: sale.customer.name?.trim() || email,
        email,
        phone: brazilianPhoneDigits(sale.customer.phone),
        document: sale.customer.document ? sale.customer.document.replace(/\D/g, '') || null : null,
        country: 'BR',
        ip: sale.visit?.ip ?? sale.customer.ip ?? null,
      },
      products: [
        {
          id: sale.subscription_id ?? sale.payment_id,
          name: sale.description?.trim() || `Pagamento ${sale.payment_id}`,
          planId: sale.subscription_id,
          planName: sale.subscription_id ? sale.description?.trim() || null : null,
          quantity: 1,
          priceInCents: sale.amount,
        },
      ],
      trackingParameters,
      commission: {
        totalPriceInCents: sale.amount,
        gatewayFeeInCents: fee,
        userCommissionInCents: sale.net ?? sale.amount - fee,
        currency: 'BRL',
      },
      ...(test ? { isTest: true } : {}),
    };
    return {
      send: true,
      request: {
        url: `${this.baseUrl.replace(/\/+$/, '')}/api-credentials/orders`,
        headers: { 'content-type': 'application/json', 'x-api-token': config.credentials['api_token'] ?? '' },
        body,
        summary: {
          orderId: body.orderId,
          status,
          paymentMethod: body.paymentMethod,
          createdAt: body.createdAt,
          approvedDate: body.approvedDate,
          refundedAt: body.refundedAt,
          commission: body.commission,
          trackingParameters,
          isTest: test,
          has_phone: body.customer.phone !== null,
        },
      },
    };
  }

  readAnswer(status: number): ToolAnswer['outcome'] {
    return defaultOutcome(status);
  }
}

