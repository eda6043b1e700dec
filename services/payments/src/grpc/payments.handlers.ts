import { modeName, type common, type payments } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import type { FilterQuery } from 'mongoose';
import { toProtoPayment, toProtoRefund } from '../db/payment.mapper';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { PaymentLinks } from '../domain/payment-links';
import { searchFilter } from '../domain/payment-search';
import { isPaymentStatus } from '../domain/payment-status';
import { toPaymentPage } from '../db/payment-page.mapper';
import type { AwaitingMethodPayments } from '../orchestration/awaiting-method';
import type { PaymentCreator } from '../orchestration/create-payment';
import type { CallerScope, PaymentActions } from '../orchestration/payment-actions';
import type { PaymentRefunds } from '../orchestration/refund-payment';

const MAX_LIMIT = 100;

export function scopeOf(caller: common.Caller | undefined): CallerScope {
  if (!caller || !caller.merchant_id) throw new AppError('unauthenticated');
  return {
    merchantId: caller.merchant_id,
    mode: modeName(caller.mode),
    // A restricted key sees only the payments it created.
    ...(caller.restricted ? { restrictedKeyId: caller.key_id } : {}),
  };
}

export function paymentsHandlers(deps: {
  store: PaymentStore;
  creator: PaymentCreator;
  actions: PaymentActions;
  links: PaymentLinks;
  refunds: PaymentRefunds;
  awaitingMethod: AwaitingMethodPayments;
}): Handlers<typeof payments.PaymentsServiceService> {
  const { store, creator, actions, links, refunds, awaitingMethod } = deps;
  /** Public (no caller): the payment page's view, with the methods offered while the buyer has not chosen. */
  const pageOf = async (paymentId: string, requestId: string) => {
    let doc = await store.model.findById(paymentId).lean<PaymentDoc>();
    if (!doc) throw new AppError('not_found', { param: 'id' });
    if (doc.status === 'requires_method' && awaitingMethod.isPastExpiry(doc)) {
      // Due work may lag by a poll interval: the page never offers a choice that ran out.
      await awaitingMethod.expire(doc);
      doc = (await store.model.findById(paymentId).lean<PaymentDoc>()) ?? doc;
    }
    const methods = doc.status === 'requires_method' ? (await creator.methods.offer(doc, requestId)).methods : [];
    return toPaymentPage(doc, methods);
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
      const filter: FilterQuery<PaymentDoc> = { merchant_id: scope.merchantId, mode: scope.mode };
      if (scope.restrictedKeyId) filter.source_key_id = scope.restrictedKeyId;
      if (request.status) {
        if (!isPaymentStatus(request.status)) throw new AppError('parameter_invalid', { param: 'status' });
        filter.status = request.status;
      }
      if (request.method) filter.method = request.method;
      if (request.provider) filter.provider = request.provider;
      // Ids sort by creation time (ULID), so a cursor stays correct while payments are created.
      if (request.starting_after) filter._id = { $lt: request.starting_after };
      // Search (q) narrows the same page: ids sort by creation, so the cursor stays correct.
      const query = request.q ? ({ $and: [filter, searchFilter(request.q)] } as FilterQuery<PaymentDoc>) : filter;
      const docs = await store.model.find(query).sort({ _id: -1 }).limit(limit + 1).lean<PaymentDoc[]>();
      return { data: docs.slice(0, limit).map(toProto), has_more: docs.length > limit };
    },

    async cancelPayment(request, context) {
      return { payment: toProto(await actions.cancel(request.payment_id, scopeOf(request.caller), context.requestId)) };
    },

    async simulatePayment(request, context) {
      return { payment: toProto(await actions.simulate(request.payment_id, scopeOf(request.caller), context.requestId)) };
    },

    async syncPayment(request, context) {
      return { payment: toProto(await actions.sync(request.payment_id, scopeOf(request.caller), context.requestId)) };
    },

    async refundPayment(request, context) {
      const { refund, payment, replayed } = await refunds.refund(request, context.requestId);
      return { refund: toProtoRefund(refund, payment._id), payment: toProto(payment), replayed };
    },

    async getPaymentPage({ payment_id }, context) {
      return { page: await pageOf(payment_id, context.requestId) };
    },

    async choosePaymentMethod({ payment_id, method }, context) {
      await awaitingMethod.choose(payment_id, method, context.requestId);
      return { page: await pageOf(payment_id, context.requestId) };
    },

    async getPaymentQrCode({ payment_id }) {
      // Public route: only the Pix text of an open payment, nothing else about it.
      const doc = await store.model.findOne({ _id: payment_id, status: 'pending' }, { next_action: 1 }).lean<PaymentDoc>();
      const qrCode = doc?.next_action?.type === 'pix_qr' ? doc.next_action.qr_code : '';
      if (!qrCode) throw new AppError('not_found', { param: 'id' });
      return { qr_code: qrCode };
    },
  };
}
