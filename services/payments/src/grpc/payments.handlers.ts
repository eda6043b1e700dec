import { modeName, type common, type payments } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import type { CallerScope } from '../db/payment-filters';
import { toProtoPayment, toProtoRefund } from '../db/payment.mapper';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { PaymentLinks } from '../domain/payment-links';
import { isPaymentStatus, type PaymentStatus } from '../domain/payment-status';
import { toPaymentPage } from '../db/payment-page.mapper';
import type { AvailableMethods } from '../orchestration/available-methods';
import type { AwaitingMethodPayments } from '../orchestration/awaiting-method';
import type { PaymentCancellation } from '../orchestration/cancel-payment';
import type { PaymentCreator } from '../orchestration/create-payment';
import type { CyclePayments } from '../orchestration/cycle-payments';
import type { PageTracking } from '../orchestration/page-tracking';
import type { PaymentRefunds } from '../orchestration/refund-payment';
import type { PaymentSimulation } from '../orchestration/simulate-payment';
import type { PaymentSync } from '../orchestration/sync-payment';

const MAX_LIMIT = 100;
/** A split was settled to the subaccount once the payment was paid, refunds after that included. */
const SPLIT_PAID: readonly PaymentStatus[] = ['succeeded', 'partially_refunded', 'refunded'];
/** Still to be paid: the split reaches the subaccount if it is. */
const SPLIT_PENDING: readonly PaymentStatus[] = ['requires_method', 'pending', 'processing'];

export function scopeOf(caller: common.Caller | undefined): CallerScope {
  if (!caller || !caller.merchant_id) throw new AppError('unauthenticated');
  return {
    merchantId: caller.merchant_id,
    mode: modeName(caller.mode),
    // A restricted key sees only the payments it created.
    ...(caller.restricted ? { restrictedKeyId: caller.key_id } : {}),
  };
}

export interface PaymentsHandlersDeps {
  store: PaymentStore;
  creator: PaymentCreator;
  cancellation: PaymentCancellation;
  simulation: PaymentSimulation;
  sync: PaymentSync;
  methods: AvailableMethods;
  links: PaymentLinks;
  refunds: PaymentRefunds;
  awaitingMethod: AwaitingMethodPayments;
  cyclePayments: CyclePayments;
  pageTracking: PageTracking;
}

export function paymentsHandlers(deps: PaymentsHandlersDeps): Handlers<typeof payments.PaymentsServiceService> {
  const { store, creator, cancellation, simulation, sync, methods, links, refunds, awaitingMethod, cyclePayments, pageTracking } = deps;
  /** Public (no caller): the payment page's view, with the methods offered while the buyer has not chosen. */
  const pageOf = async (paymentId: string, requestId: string) => {
    let doc = await store.findById(paymentId);
    if (!doc) throw new AppError('not_found', { param: 'id' });
    if (doc.status === 'requires_method' && awaitingMethod.isPastExpiry(doc)) {
      // Due work may lag by a poll interval: the page never offers a choice that ran out.
      await awaitingMethod.expire(doc);
      doc = (await store.findById(paymentId)) ?? doc;
    }
    const offer = doc.status === 'requires_method' ? await methods.offer(doc, requestId) : { methods: [], vaultCards: false, cardFields: false };
    return toPaymentPage(doc, offer.methods, offer.cardFields);
  };
  const toProto = (doc: PaymentDoc): payments.Payment => ({ ...toProtoPayment(doc), payment_url: links.paymentUrl(doc._id) });

  return {
    async createPayment(request, context) {
      const { payment, replayed } = await creator.create(request, context.requestId);
      return { payment: toProto(payment), replayed };
    },

    async getPayment(request) {
      return { payment: toProto(await store.findForCaller(request.payment_id, scopeOf(request.caller))) };
    },

    async listPayments(request) {
      const scope = scopeOf(request.caller);
      const limit = Math.min(Math.max(request.limit || 10, 1), MAX_LIMIT);
      let status: PaymentStatus | undefined;
      if (request.status) {
        if (!isPaymentStatus(request.status)) throw new AppError('parameter_invalid', { param: 'status' });
        status = request.status;
      }
      const { data, hasMore } = await store.list(
        scope,
        {
          status,
          method: request.method,
          provider: request.provider,
          startingAfter: request.starting_after,
          q: request.q,
          ...(request.subscription_id ? { subscriptionId: request.subscription_id } : {}),
        },
        limit,
      );
      return { data: data.map(toProto), has_more: hasMore };
    },

    async cancelPayment(request, context) {
      return { payment: toProto(await cancellation.cancel(request.payment_id, scopeOf(request.caller), context.requestId)) };
    },

    async simulatePayment(request, context) {
      return { payment: toProto(await simulation.simulate(request.payment_id, scopeOf(request.caller), context.requestId)) };
    },

    async syncPayment(request, context) {
      return { payment: toProto(await sync.sync(request.payment_id, scopeOf(request.caller), context.requestId)) };
    },

    async refundPayment(request, context) {
      const { refund, payment, replayed } = await refunds.refund(request, context.requestId);
      return { refund: toProtoRefund(refund, payment._id), payment: toProto(payment), replayed };
    },

    async getPaymentPage({ payment_id }, context) {
      return { page: await pageOf(payment_id, context.requestId) };
    },

    async choosePaymentMethod({ payment_id, method, card }, context) {
      await awaitingMethod.choose(payment_id, method, context.requestId, card?.token ? { token: card.token } : undefined);
      return { page: await pageOf(payment_id, context.requestId) };
    },

    // Public (the payment page, no caller): the page's address fills the tracking keys still absent.
    async recordPageTracking({ payment_id, tracking }) {
      return { tracking: await pageTracking.record(payment_id, tracking) };
    },

    // Internal (the subscriptions service): no API key, the merchant and mode are in the request.
    async createCyclePayment(request, context) {
      const { payment, created } = await cyclePayments.create(request, context.requestId);
      return { payment: toProto(payment), created };
    },

    async getSplitSummary(request) {
      const scope = scopeOf(request.caller);
      if (scope.restrictedKeyId) throw new AppError('restricted_key');
      if (!request.subaccount_id) throw new AppError('parameter_missing', { param: 'subaccount_id' });
      const recentLimit = Math.min(Math.max(request.recent_limit || 10, 1), 50);
      const { byStatus, recent } = await store.splitSummary(scope, request.subaccount_id, recentLimit);
      const sum = (statuses: readonly string[], field: 'payments' | 'amount') =>
        byStatus.filter((group) => statuses.includes(group.status)).reduce((total, group) => total + group[field], 0);
      return {
        totals: {
          payments: byStatus.reduce((total, group) => total + group.payments, 0),
          paid_payments: sum(SPLIT_PAID, 'payments'),
          paid_amount: sum(SPLIT_PAID, 'amount'),
          pending_amount: sum(SPLIT_PENDING, 'amount'),
        },
        recent: recent.map((doc) => ({
          payment_id: doc._id,
          status: doc.status,
          method: doc.method,
          payment_amount: doc.amount,
          amount: doc.splits?.find((split) => split.subaccount_id === request.subaccount_id)?.amount ?? 0,
          created_at: doc.created_at.toISOString(),
        })),
      };
    },

    async getPaymentQrCode({ payment_id }) {
      // Public route: only the Pix text of an open payment, nothing else about it.
      const qrCode = await store.openPixCode(payment_id);
      if (!qrCode) throw new AppError('not_found', { param: 'id' });
      return { qr_code: qrCode };
    },
  };
}
