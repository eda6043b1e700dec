/**
 * A stored payment as `GET /v1/payments/{id}` answers it: the documented Pix fields (status,
 * status_detail, transaction_amount in reais, date_of_expiration, point_of_interaction.
 * transaction_data{qr_code, qr_code_base64, ticket_url}, fee_details, transaction_details), plus
 * the common envelope fields integrators read. Unused card/marketplace fields are left out.
 */
import { centsToReais, mpDate } from './mp-format';
import type { StoredPayment } from './emulator-state';
import { refundJson } from './refunds';

export function paymentJson(payment: StoredPayment) {
  const { request } = payment;
  const amount = centsToReais(request.amountCents);
  // A refunded payment was approved first: its fee and net amount stay reported.
  const approved = payment.status === 'approved' || payment.status === 'refunded';
  const refundedCents = (payment.refunds ?? []).filter((r) => r.status === 'approved').reduce((sum, r) => sum + r.amountCents, 0);
  const feeCents = payment.feeCents ?? 0;
  const kind = request.kind ?? 'pix';
  const methodId = request.paymentMethodId ?? 'pix';
  const typeId = kind === 'pix' ? 'bank_transfer' : kind === 'boleto' ? 'ticket' : 'credit_card';
  return {
    id: payment.id,
    date_created: mpDate(payment.createdAt),
    date_approved: payment.approvedAt ? mpDate(payment.approvedAt) : null,
    date_last_updated: mpDate(payment.updatedAt),
    date_of_expiration: mpDate(request.expiresAt),
    money_release_date: payment.approvedAt ? mpDate(payment.approvedAt) : null,
    operation_type: 'regular_payment',
    issuer_id: null,
    payment_method_id: methodId,
    payment_type_id: typeId,
    payment_method: { id: methodId, type: typeId, issuer_id: null },
    status: payment.status,
    status_detail: payment.statusDetail,
    currency_id: 'BRL',
    description: request.description ?? null,
    live_mode: false,
    collector_id: payment.userId,
    payer: {
      id: null,
      type: null,
      email: request.payer.email,
      first_name: request.payer.first_name ?? null,
      last_name: request.payer.last_name ?? null,
      identification: request.payer.identification ?? { type: null, number: null },
    },
    metadata: request.metadata,
    external_reference: request.externalReference ?? null,
    transaction_amount: amount,
    transaction_amount_refunded: centsToReais(refundedCents),
    coupon_amount: 0,
    installments: request.installments ?? 1,
    transaction_details: {
      net_received_amount: approved ? centsToReais(request.amountCents - feeCents) : 0,
      total_paid_amount: amount,
      overpaid_amount: 0,
      external_resource_url: payment.boleto?.pdfUrl ?? null,
      ...(payment.boleto ? { digitable_line: payment.boleto.digitableLine } : {}),
      installment_amount: kind === 'card' ? Math.floor(request.amountCents / (request.installments ?? 1)) / 100 : 0,
      financial_institution: null,
      payment_method_reference_id: null,
    },
    fee_details: approved ? [{ type: 'mercadopago_fee', amount: centsToReais(feeCents), fee_payer: 'collector' }] : [],
    captured: true,
    binary_mode: false,
    notification_url: request.notificationUrl ?? null,
    refunds: (payment.refunds ?? []).map(refundJson),
    ...(payment.boleto ? { barcode: { content: payment.boleto.barcode } } : {}),
    ...(payment.card
      ? {
          card: {
            first_six_digits: payment.card.firstSix,
            last_four_digits: payment.card.lastFour,
            expiration_month: payment.card.expMonth,
            expiration_year: payment.card.expYear,
            cardholder: { name: payment.card.holderName },
          },
        }
      : {}),
    processing_mode: 'aggregator',
    point_of_interaction: kind !== 'pix' ? { type: 'UNSPECIFIED' } : {
      type: 'PIX',
      sub_type: null,
      application_data: { name: null, version: null },
      transaction_data: {
        qr_code: payment.qrCode,
        qr_code_base64: payment.qrCodeBase64,
        ticket_url: payment.ticketUrl,
        ...(payment.endToEndId ? { e2e_id: payment.endToEndId } : {}),
      },
    },
  };
}
