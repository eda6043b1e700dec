import { modeName, type common, type payments } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import type { FilterQuery } from 'mongoose';
import { toProtoPayment, toProtoRefund } from '../db/payment.mapper';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import type { PaymentLinks } from '../domain/payment-links';
import { isPaymentStatus } from '../domain/payment-status';
import type { PaymentCreator } from '../orchestration/create-payment';
import type { CallerScope, PaymentActions } from '../orchestration/payment-actions';
import type { PaymentRefunds } from '../orchestration/refund-payment';

const MAX_LIMIT = 100;

function scopeOf(caller: common.Caller | undefined): CallerScope {
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
}): Handlers<typeof payments.PaymentsServiceService> {
  const { store, creator, actions, links, refunds } = deps;
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
      const docs = await store.model.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<PaymentDoc[]>();
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

    async getPaymentQrCode({ payment_id }) {
      // Public route: only the Pix text of an open payment, nothing else about it.
      const doc = await store.model.findOne({ _id: payment_id, status: 'pending' }, { next_action: 1 }).lean<PaymentDoc>();
      const qrCode = doc?.next_action?.type === 'pix_qr' ? doc.next_action.qr_code : '';
      if (!qrCode) throw new AppError('not_found', { param: 'id' });
      return { qr_code: qrCode };
    },
  };
}
