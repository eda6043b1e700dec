/**
 * Charges: `POST /payments` (billingType PIX, BOLETO, or CREDIT_CARD / UNDEFINED paid on the invoice page,
 * or CREDIT_CARD with the card in the call: card-payments.ts), `GET /payments` (filters `externalReference`,
 * `customer`, `status`, `dateCreated[ge]`, `dateCreated[le]`; newest first, `offset`/`limit`), `GET /payments/:id`, `DELETE /payments/:id` and
 * `GET /payments/:id/pixQrCode`, `GET /payments/:id/identificationField` (a BOLETO's linha
 * digitável: boleto.ts), plus `GET /pix/transactions/:id` for the EndToEndId of a paid one.
 * Shapes from docs.asaas.com "Criar nova cobrança", "Obter QR Code para pagamentos via Pix",
 * "Excluir cobrança".
 */
import { Router } from 'express';
import { asaasErrors } from './asaas-errors';
import { newInvoiceNumber, newPaymentId, newUuid } from './asaas-ids';
import { listJson, pageOf, paymentJson, pixTransactionJson } from './asaas-json';
import { accountOf } from './access-token';
import { dynamicBrCode, qrCodePngBase64, type Merchant } from '../../kit';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { sendJson } from './json-body';
import { reaisTextToCents } from './money-json';
import { asBody, optionalString, queryParam, requiredString, type Body } from './request-fields';
import { addMonths, isIsoDate, spDate } from './sao-paulo-time';
import { parseSplit } from './splits';
import { authorizeCard } from './card-payments';
import { identificationFieldJson, newStoredBoleto } from './boleto';
import type { WebhookSender } from './webhook-sender';

export interface PaymentRoutesOptions {
  merchant: Merchant;
  /** Host and path prefix of the payload locations in BR Codes. */
  locationHost: string;
  /** Base of `invoiceUrl` (Asaas's payment page). */
  invoiceBase: string;
  /** Asaas's fee on a received Pix, in cents (reported as `value - netValue`). */
  pixFeeCents: number;
}

/** Asaas's Pix QR code stays payable until 12 months after the due date, at 23:59:59. */
export function qrExpirationDate(dueDate: string): string {
  return `${addMonths(dueDate, 12)} 23:59:59`;
}

function parseValue(body: Body): number {
  const raw = body['value'];
  if (raw === undefined || raw === null) throw asaasErrors.invalid('value', 'O campo value deve ser informado.');
  const cents = typeof raw === 'string' ? reaisTextToCents(raw) : undefined;
  if (cents === undefined || cents <= 0) throw asaasErrors.invalid('value', 'O valor da cobrança é inválido.');
  return cents;
}

function parseDueDate(body: Body, today: string): string {
  const dueDate = requiredString(body, 'dueDate', 10);
  if (!isIsoDate(dueDate)) throw asaasErrors.invalid('dueDate', 'A data de vencimento informada é inválida.');
  if (dueDate < today) throw asaasErrors.invalid('dueDate', 'A data de vencimento não pode ser anterior à data atual.');
  return dueDate;
}

/** A `YYYY-MM-DD` list filter, when given; anything else is refused as Asaas refuses a bad date. */
function dateFilter(query: Record<string, unknown>, name: string): string | undefined {
  const value = queryParam(query, name);
  if (value === undefined) return undefined;
  if (!isIsoDate(value)) throw asaasErrors.invalid('dateCreated', `O parâmetro ${name} deve ser uma data no formato AAAA-MM-DD.`);
  return value;
}

export function paymentRoutes(state: EmulatorState, sender: WebhookSender, options: PaymentRoutesOptions): Router {
  const router = Router();
  const json = (payment: StoredPayment) => paymentJson(payment, options.invoiceBase);

  router.post('/payments', (req, res) => {
    const account = accountOf(res);
    const body = asBody(req.body);
    const customerId = requiredString(body, 'customer', 64);
    if (!state.getCustomer(account.id, customerId)) throw asaasErrors.invalid('customer', 'Cliente inválido ou não informado.');
    const billingType = requiredString(body, 'billingType', 20);
    if (billingType !== 'PIX' && billingType !== 'BOLETO' && billingType !== 'CREDIT_CARD' && billingType !== 'UNDEFINED') {
      throw asaasErrors.invalid('billingType', 'Emulador: billingType deve ser PIX, BOLETO, CREDIT_CARD ou UNDEFINED.');
    }
    const valueCents = parseValue(body);
    const dueDate = parseDueDate(body, spDate(state.now()));
    // A card in the create call (card-payments.ts) is authorized now; without one, the card is typed
    // on the invoice page (invoiceUrl).
    const withCard = body['creditCard'] !== undefined || body['creditCardToken'] !== undefined;
    if (withCard && billingType !== 'CREDIT_CARD') throw asaasErrors.invalid('billingType', 'Os dados do cartão só são aceitos em cobranças CREDIT_CARD.');
    const description = optionalString(body, 'description', 500);
    const externalReference = optionalString(body, 'externalReference', 100);
    // A Pix Automático cycle (pix-automatic.ts): the authorization's rules apply.
    const pixAutomaticAuthorizationId = optionalString(body, 'pixAutomaticAuthorizationId', 64);
    if (pixAutomaticAuthorizationId !== undefined) {
      if (billingType !== 'PIX') throw asaasErrors.invalid('billingType', 'Uma cobrança de Pix Automático deve ser PIX.');
      const authorization = state.pixAutomatic.get(account.id, pixAutomaticAuthorizationId);
      const counting = state.listPayments(account.id, (p) => p.pixAutomaticAuthorizationId === authorization.id);
      state.pixAutomatic.checkCycle(authorization, customerId, dueDate, valueCents, counting.map((p) => p.dueDate));
    }
    const feeCents = Math.min(options.pixFeeCents, valueCents);
    const split = parseSplit(body, account, valueCents - feeCents, (walletId) => state.accountByWallet(walletId), newUuid);
    // After every other check: a refused card creates no charge.
    const card = withCard ? authorizeCard(state, account.id, customerId, body) : undefined;
    const id = newPaymentId();
    const payment = state.createPayment({
      id,
      accountId: account.id,
      customerId,
      createdAt: state.now(),
      billingType,
      valueCents,
      feeCents,
      ...(split.length > 0 ? { split } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(externalReference !== undefined ? { externalReference } : {}),
      ...(pixAutomaticAuthorizationId !== undefined ? { pixAutomaticAuthorizationId } : {}),
      dueDate,
      status: 'PENDING',
      deleted: false,
      invoiceNumber: newInvoiceNumber(),
      brCode: dynamicBrCode(`${options.locationHost}/pixqrcode/cobv/${id}`, options.merchant),
      ...(billingType === 'BOLETO' ? { boleto: newStoredBoleto(valueCents, dueDate) } : {}),
    });
    sender.paymentEvent(payment, 'PAYMENT_CREATED', json);
    if (card) {
      state.confirmByCard(payment, card);
      sender.paymentEvent(payment, 'PAYMENT_CONFIRMED', json);
    }
    sendJson(res, 200, json(payment));
  });

  router.get('/payments', (req, res) => {
    const query = req.query as Record<string, unknown>;
    const externalReference = queryParam(query, 'externalReference');
    const customer = queryParam(query, 'customer');
    const status = queryParam(query, 'status');
    // Creation day bounds (São Paulo calendar dates, both inclusive), as Asaas filters `dateCreated`.
    const createdFrom = dateFilter(query, 'dateCreated[ge]');
    const createdTo = dateFilter(query, 'dateCreated[le]');
    const found = state.listPayments(
      accountOf(res).id,
      (p) =>
        (externalReference === undefined || p.externalReference === externalReference) &&
        (customer === undefined || p.customerId === customer) &&
        (status === undefined || p.status === status) &&
        (createdFrom === undefined || spDate(p.createdAt) >= createdFrom) &&
        (createdTo === undefined || spDate(p.createdAt) <= createdTo),
    );
    sendJson(res, 200, listJson(found, pageOf(query), json));
  });

  router.get('/payments/:id', (req, res) => {
    sendJson(res, 200, json(state.getPayment(accountOf(res).id, req.params['id'] ?? '')));
  });

  router.delete('/payments/:id', (req, res) => {
    const account = accountOf(res);
    const wasDeleted = state.getPayment(account.id, req.params['id'] ?? '').deleted;
    const payment = state.deletePayment(account.id, req.params['id'] ?? '');
    if (!wasDeleted) sender.paymentEvent(payment, 'PAYMENT_DELETED', json);
    sendJson(res, 200, { deleted: true, id: payment.id });
  });

  router.get('/payments/:id/pixQrCode', async (req, res) => {
    const payment = state.getPayment(accountOf(res).id, req.params['id'] ?? '');
    if (payment.deleted) throw asaasErrors.notFound('Cobrança');
    if (payment.billingType === 'CREDIT_CARD' || payment.billingType === 'BOLETO') throw asaasErrors.invalid('billingType', 'Esta cobrança não é paga por Pix.');
    sendJson(res, 200, {
      encodedImage: await qrCodePngBase64(payment.brCode),
      payload: payment.brCode,
      expirationDate: qrExpirationDate(payment.dueDate),
      description: payment.description ?? null,
    });
  });

  router.get('/payments/:id/identificationField', (req, res) => {
    const payment = state.getPayment(accountOf(res).id, req.params['id'] ?? '');
    if (payment.deleted) throw asaasErrors.notFound('Cobrança');
    if (!payment.boleto) throw asaasErrors.invalid('billingType', 'Esta cobrança não é um boleto.');
    sendJson(res, 200, identificationFieldJson(payment.boleto));
  });

  router.get('/pix/transactions/:id', (req, res) => {
    const transaction = state.getPixTransaction(accountOf(res).id, req.params['id'] ?? '');
    const payment = state.findPayment(transaction.paymentId);
    sendJson(res, 200, pixTransactionJson(transaction, payment?.description ?? null));
  });

  return router;
}
