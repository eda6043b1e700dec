/**
 * `POST /orders` (a Pix, boleto or credit card order: one item list, one customer, one payment →
 * one charge with its QR code, its boleto line, or its card transaction, card-payments.ts), `GET /orders` and `GET /orders/:id`, mounted under `/core/v5` behind the secret-key
 * check, which leaves the caller's account id in `res.locals.accountId`.
 */
import { Router, type Response } from 'express';
import { dynamicBrCode } from '../../kit';
import { merchantFor } from './emv-merchant';
import type { EmulatorState, StoredCustomer, StoredOrder } from './emulator-state';
import { idempotentReplay } from './idempotency';
import { orderJson, type QrCodeUrl } from './order-json';
import { parseCreateOrder, type CreateOrderRequest } from './order-validation';
import { customerIdFor, newGatewayId, newId, newLocationToken } from './pagarme-ids';
import { pagarmeErrors } from './pagarme-errors';
import type { BoletoDetails } from './emulator-records';
import { newBoleto } from '../../kit';
import { storedRules } from './split-rules';
import { authorize, maskCardFields, type CardTransactionDetails } from './card-payments';
import { publishTransition } from './webhook-events';
import type { WebhookSender } from './webhook-sender';
import { listOrderPage, pagingOf } from './charge-listing';

export interface OrderRoutesOptions {
  /** City written into BR Codes. */
  merchantCity: string;
  /** Host and path prefix of payload locations, e.g. `pix.pagarme-emulator.local/pix/v2`. */
  locationBase: string;
  qrCodeUrl: QrCodeUrl;
  /** Where a boleto transaction's voucher is served (`url`; `pdf` is `url` + `/pdf`). */
  boletoUrl: (transactionId: string) => string;
}

/** Pagar.me's default when neither `expires_in` nor `expires_at` is sent is not documented; one day here. */
const DEFAULT_PIX_EXPIRES_IN_SECONDS = 86_400;

export function accountOf(res: Response): string {
  return res.locals['accountId'] as string;
}

function customerFor(state: EmulatorState, accountId: string, order: CreateOrderRequest): StoredCustomer {
  const at = state.now();
  const request = order.customer;
  if (!request) {
    const known = state.getCustomer(accountId, order.customer_id ?? '');
    if (!known) throw pagarmeErrors.customerNotFound();
    return known;
  }
  return state.saveCustomer(accountId, {
    id: customerIdFor(accountId, request.document ?? `${request.name}|${request.email ?? ''}`),
    name: request.name,
    ...(request.email ? { email: request.email } : {}),
    ...(request.document ? { document: request.document } : {}),
    documentType: request.document_type ?? (request.document?.length === 14 ? 'CNPJ' : 'CPF'),
    ...(request.type ? { type: request.type } : {}),
    phones: request.phones ?? {},
    createdAt: at,
    updatedAt: at,
  });
}

/**
 * A boleto of `amount` due at `due_at` (three days ahead, end of day at UTC−03:00, when absent),
 * with a linha digitável whose check digits hold; its voucher is served at `boletoUrl`.
 */
function boletoOf(
  request: { due_at?: string; instructions?: string } | undefined,
  amount: number,
  at: Date,
  transactionId: string,
  options: OrderRoutesOptions,
): BoletoDetails {
  const localToday = new Date(at.getTime() - 3 * 3_600_000);
  localToday.setUTCDate(localToday.getUTCDate() + 3);
  const dueAt = request?.due_at ? new Date(Date.parse(request.due_at)) : new Date(Date.parse(`${localToday.toISOString().slice(0, 10)}T23:59:59-03:00`));
  const dueDate = new Date(dueAt.getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
  const { barcode, digitableLine } = newBoleto(amount, dueDate, '237');
  const url = options.boletoUrl(transactionId);
  return { line: digitableLine, barcode, url, pdf: `${url}/pdf`, dueAt, ...(request?.instructions ? { instructions: request.instructions } : {}) };
}

/**
 * A credit_card payment's transaction: the card sent in full (saved to the customer) or a saved
 * `card_id` of this account, and the acquirer's answer (card-payments.ts).
 */
function cardTransaction(state: EmulatorState, accountId: string, customerId: string, request: NonNullable<CreateOrderRequest['payments'][0]['credit_card']>, body: unknown): CardTransactionDetails {
  const base = { installments: request.installments ?? 1, ...(request.statement_descriptor ? { statementDescriptor: request.statement_descriptor } : {}) };
  if (request.card_id) {
    const saved = state.cards.get(request.card_id);
    if (!saved || saved.accountId !== accountId) throw pagarmeErrors.invalid({ 'order.payments[0].credit_card.card_id': ['Card not found.'] }, maskCardFields(body));
    return { ...base, card: saved, approved: true, acquirerReturnCode: '00', acquirerMessage: 'Transação capturada com sucesso' };
  }
  const judged = authorize(request.card ?? {}, { cardId: newId('card'), accountId, customerId });
  state.cards.set(judged.stored.id, judged.stored);
  return { ...base, card: judged.stored, approved: judged.approved, acquirerReturnCode: judged.code, acquirerMessage: judged.message };
}

export function createOrder(state: EmulatorState, accountId: string, body: unknown, options: OrderRoutesOptions): StoredOrder {
  const at = state.now();
  const request = parseCreateOrder(body, at, (recipientId) => state.splitRecipientOwner(accountId, recipientId));
  const customer = customerFor(state, accountId, request);
  const pix = request.payments[0]?.pix;
  const amount = request.items.reduce((sum, item) => sum + item.amount * item.quantity, 0);
  const creditCard = request.payments[0]?.payment_method === 'credit_card' ? request.payments[0].credit_card : undefined;
  const card = creditCard ? cardTransaction(state, accountId, customer.id, creditCard, body) : undefined;
  const transactionId = newId('tran');
  const boleto = request.payments[0]?.payment_method === 'boleto' ? boletoOf(request.payments[0]?.boleto, amount, at, transactionId, options) : undefined;
  const expiresAt = boleto
    ? boleto.dueAt
    : pix?.expires_at
    ? new Date(Date.parse(pix.expires_at))
    : new Date(at.getTime() + (pix?.expires_in ?? DEFAULT_PIX_EXPIRES_IN_SECONDS) * 1000);
  const orderId = newId('or');
  const code = request.code ?? orderId.slice(3, 13).toUpperCase();
  const location = `${options.locationBase}/${newLocationToken()}`;
  const order = state.addOrder({
    accountId,
    id: orderId,
    code,
    amount,
    items: request.items.map((item) => ({ ...item, id: newId('oi') })),
    customer,
    status: 'pending',
    metadata: request.metadata ?? {},
    createdAt: at,
    updatedAt: at,
    charge: {
      id: newId('ch'),
      orderId,
      code,
      amount,
      status: 'pending',
      createdAt: at,
      updatedAt: at,
      ...(request.payments[0]?.split ? { split: storedRules(request.payments[0].split, (recipientId) => state.splitRecipientOwner(accountId, recipientId), () => newId('sr')) } : {}),
      transaction: {
        id: transactionId,
        status: card ? (card.approved ? 'captured' : 'not_authorized') : boleto ? 'generated' : 'waiting_payment',
        qrCode: boleto || card ? '' : dynamicBrCode(location, merchantFor(state.accountName(accountId), options.merchantCity)),
        ...(boleto ? { boleto } : {}),
        ...(card ? { card } : {}),
        expiresAt,
        pixProviderTid: newGatewayId(),
        ...(pix?.additional_information ? { additionalInformation: pix.additional_information } : {}),
        createdAt: at,
        updatedAt: at,
      },
    },
  });
  // A card is authorized and captured now: paid, or failed with the acquirer's answer.
  if (card?.approved) state.settleCard(order);
  else if (card) {
    order.charge.status = 'failed';
    order.status = 'failed';
  }
  return order;
}

export function orderRoutes(state: EmulatorState, options: OrderRoutesOptions, sender?: WebhookSender): Router {
  const router = Router();

  // Pagar.me answers a created order with 200 (not 201), with its charges.
  router.post('/orders', idempotentReplay(state), (req, res) => {
    const order = createOrder(state, accountOf(res), req.body, options);
    // A card order is final at once: its webhooks go out as for a paid (or failed) charge.
    if (order.charge.transaction.card && sender) publishTransition(sender, order, order.charge.status === 'paid' ? 'paid' : 'expired', options.qrCodeUrl);
    res.status(200).json(orderJson(order, options.qrCodeUrl));
  });

  // By code, status and creation period, page by page (charge-listing.ts).
  router.get('/orders', (req, res) => {
    const listed = listOrderPage(state, accountOf(res), req);
    res.status(200).json({ data: listed.data.map((o) => orderJson(o, options.qrCodeUrl)), paging: pagingOf(req, listed) });
  });

  router.get('/orders/:id', (req, res) => {
    res.status(200).json(orderJson(state.getOrder(accountOf(res), req.params['id'] ?? ''), options.qrCodeUrl));
  });

  return router;
}
