/**
 * Pix Automático on the API port (`/v3/pix/automatic/authorizations`: POST, GET list with
 * `status`/`customerId`, GET one, DELETE to cancel), what the passing of time does (expiring
 * authorizations, creating SUBSCRIPTION cycles), and the payer's bank on the control port:
 * `POST /__control/pix-automatic/authorizations/:id/refuse` and
 * `POST /__control/charges/:id/fail` (a cycle's debit fails). Approval is paying the immediate
 * QR code's charge (`/__control/charges/:id/pay`, which calls `activateByPayment`).
 * Rules and decisions: pix-automatic.ts.
 */
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { qrCodePngBase64, recurrenceBrCode, isCalendarDate, sendControlError as fail, dynamicBrCode } from '../../kit';
import { accountOf } from './access-token';
import { asaasErrors } from './asaas-errors';
import { newInvoiceNumber, newPaymentId } from './asaas-ids';
import { listJson, pageOf } from './asaas-json';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { sendJson } from './json-body';
import { reaisTextToCents } from './money-json';
import type { PaymentRoutesOptions } from './payments.routes';
import { AUTHORIZATION_EVENTS, authorizationJson, FREQUENCIES, type StoredAuthorization } from './pix-automatic';
import { asBody, optionalString, queryParam, requiredString, type Body } from './request-fields';
import { spDate } from './sao-paulo-time';
import type { WebhookSender } from './webhook-sender';

type PaymentJson = (p: StoredPayment) => unknown;

export interface PixAutomaticDeps {
  state: EmulatorState;
  sender: WebhookSender;
  payments: PaymentRoutesOptions;
  json: PaymentJson;
}

function optionalCents(body: Body, field: string): number | undefined {
  const raw = body[field];
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === 'string' ? reaisTextToCents(raw) : undefined;
  if (value === undefined || value <= 0) throw asaasErrors.invalid(field, `O campo ${field} é inválido.`);
  return value;
}

function requiredCents(body: Body, field: string): number {
  const value = optionalCents(body, field);
  if (value === undefined) throw asaasErrors.invalid(field, `O campo ${field} deve ser informado.`);
  return value;
}

function optionalDate(body: Body, field: string): string | undefined {
  const value = optionalString(body, field, 10);
  if (value !== undefined && !isCalendarDate(value)) throw asaasErrors.invalid(field, `A data ${field} é inválida.`);
  return value;
}

function requiredDate(body: Body, field: string): string {
  requiredString(body, field, 10);
  return optionalDate(body, field) as string;
}

function oneOf<T extends string>(body: Body, field: string, allowed: readonly T[]): T {
  const value = requiredString(body, field, 20) as T;
  if (!allowed.includes(value)) throw asaasErrors.invalid(field, `O campo ${field} deve ser ${allowed.join(', ')}.`);
  return value;
}

/** A Pix charge the emulator creates itself (the immediate QR code, a SUBSCRIPTION cycle). */
function createPixPayment(
  { state, sender, payments, json }: PixAutomaticDeps,
  fields: Pick<StoredPayment, 'accountId' | 'customerId' | 'valueCents' | 'dueDate'> & { description?: string | undefined; pixAutomaticAuthorizationId?: string },
  brCode?: (id: string) => string,
): StoredPayment {
  const { description, ...rest } = fields;
  const id = newPaymentId();
  const payment = state.createPayment({
    ...rest,
    ...(description !== undefined ? { description } : {}),
    id,
    createdAt: state.now(),
    billingType: 'PIX',
    feeCents: Math.min(payments.pixFeeCents, fields.valueCents),
    status: 'PENDING',
    deleted: false,
    invoiceNumber: newInvoiceNumber(),
    brCode: brCode ? brCode(id) : dynamicBrCode(`${payments.locationHost}/pixqrcode/cobv/${id}`, payments.merchant),
  });
  sender.paymentEvent(payment, 'PAYMENT_CREATED', json);
  return payment;
}

function notify(deps: PixAutomaticDeps, authorization: StoredAuthorization): void {
  const immediate = deps.state.findPayment(authorization.immediate.paymentId);
  deps.sender.accountEvent(authorization.accountId, AUTHORIZATION_EVENTS[authorization.status], 'authorization', authorizationJson(authorization, immediate?.brCode ?? ''));
}

/** Journey 3: paying the immediate QR code's charge activates its authorization (and may create cycles). */
export function activateByPayment(deps: PixAutomaticDeps, payment: StoredPayment): void {
  const authorization = deps.state.pixAutomatic.activatedBy(payment.id);
  if (!authorization || !deps.state.pixAutomatic.decide(authorization, 'ACTIVE')) return;
  notify(deps, authorization);
  pixAutomaticTick(deps);
}

/** What time did: immediate QR codes expired unpaid, authorizations past their end, SUBSCRIPTION cycles whose charge is due to be created. */
export function pixAutomaticTick(deps: PixAutomaticDeps): void {
  for (const authorization of deps.state.pixAutomatic.expireDue()) notify(deps, authorization);
  for (const { authorization, dueDate } of deps.state.pixAutomatic.cyclesToCreate()) {
    createPixPayment(deps, {
      accountId: authorization.accountId,
      customerId: authorization.customerId,
      valueCents: authorization.valueCents ?? 0,
      dueDate,
      description: authorization.description,
      pixAutomaticAuthorizationId: authorization.id,
    });
  }
}

export function pixAutomaticRoutes(deps: PixAutomaticDeps): Router {
  const { state } = deps;
  const router = Router();
  const answer = async (a: StoredAuthorization) => {
    const payload = state.findPayment(a.immediate.paymentId)?.brCode ?? '';
    return { ...authorizationJson(a, payload), immediateQrCode: { ...authorizationJson(a, payload).immediateQrCode, encodedImage: await qrCodePngBase64(payload) } };
  };

  router.post('/pix/automatic/authorizations', async (req, res) => {
    const account = accountOf(res);
    const body = asBody(req.body);
    const customerId = requiredString(body, 'customerId', 64);
    if (!state.getCustomer(account.id, customerId)) throw asaasErrors.invalid('customerId', 'Cliente inválido ou não informado.');
    const frequency = oneOf(body, 'frequency', FREQUENCIES);
    const contractId = requiredString(body, 'contractId', 35);
    const startDate = requiredDate(body, 'startDate');
    const finishDate = optionalDate(body, 'finishDate');
    const today = spDate(state.now());
    if (startDate < today) throw asaasErrors.invalid('startDate', 'A data de início não pode ser anterior à data atual.');
    if (finishDate !== undefined && finishDate < startDate) throw asaasErrors.invalid('finishDate', 'A data de término deve ser posterior à data de início.');
    const paymentCreationMode = oneOf(body, 'paymentCreationMode', ['MANUAL', 'SUBSCRIPTION'] as const);
    const valueCents = paymentCreationMode === 'SUBSCRIPTION' ? requiredCents(body, 'value') : optionalCents(body, 'value');
    const description = optionalString(body, 'description', 140);
    // Asaas offers journey 3 only: the immediate QR code is what the payer pays to approve.
    const immediateRaw = body['immediateQrCode'];
    if (typeof immediateRaw !== 'object' || immediateRaw === null || Array.isArray(immediateRaw)) throw asaasErrors.invalid('immediateQrCode', 'O campo immediateQrCode deve ser informado.');
    const immediateBody = immediateRaw as Body;
    const originalValueCents = requiredCents(immediateBody, 'originalValue');
    const expirationSeconds = Number(immediateBody['expirationSeconds'] ?? 86_400);
    if (!Number.isInteger(expirationSeconds) || expirationSeconds <= 0) throw asaasErrors.invalid('expirationSeconds', 'O campo expirationSeconds é inválido.');
    const immediateDescription = optionalString(immediateBody, 'description', 140);

    const recLocation = `${deps.payments.locationHost}/pixqrcode/rec/${randomBytes(16).toString('hex')}`;
    const immediate = createPixPayment(
      deps,
      { accountId: account.id, customerId, valueCents: originalValueCents, dueDate: today, description: immediateDescription },
      (id) => recurrenceBrCode(recLocation, deps.payments.merchant, `${deps.payments.locationHost}/pixqrcode/cobv/${id}`),
    );
    const authorization = state.pixAutomatic.create({
      accountId: account.id,
      customerId,
      contractId,
      frequency,
      startDate,
      ...(finishDate !== undefined ? { finishDate } : {}),
      ...(valueCents !== undefined ? { valueCents } : {}),
      paymentCreationMode,
      ...(description !== undefined ? { description } : {}),
      immediate: {
        paymentId: immediate.id,
        originalValueCents,
        expiresAt: new Date(state.now().getTime() + expirationSeconds * 1000),
        ...(immediateDescription !== undefined ? { description: immediateDescription } : {}),
      },
    });
    notify(deps, authorization);
    sendJson(res, 200, await answer(authorization));
  });

  router.get('/pix/automatic/authorizations', (req, res) => {
    const query = req.query as Record<string, unknown>;
    const status = queryParam(query, 'status');
    const customerId = queryParam(query, 'customerId');
    const found = state.pixAutomatic.list(accountOf(res).id, (a) => (!status || a.status === status) && (!customerId || a.customerId === customerId));
    sendJson(res, 200, listJson(found, pageOf(query), (a) => authorizationJson(a, state.findPayment(a.immediate.paymentId)?.brCode ?? '')));
  });

  router.get('/pix/automatic/authorizations/:id', async (req, res) => {
    sendJson(res, 200, await answer(state.pixAutomatic.get(accountOf(res).id, req.params['id'] ?? '')));
  });

  router.delete('/pix/automatic/authorizations/:id', async (req, res) => {
    const authorization = state.pixAutomatic.get(accountOf(res).id, req.params['id'] ?? '');
    state.pixAutomatic.cancel(authorization);
    for (const payment of state.listPayments(authorization.accountId, (p) => p.pixAutomaticAuthorizationId === authorization.id && (p.status === 'PENDING' || p.status === 'OVERDUE'))) {
      state.deletePayment(payment.accountId, payment.id);
      deps.sender.paymentEvent(payment, 'PAYMENT_DELETED', deps.json);
    }
    notify(deps, authorization);
    sendJson(res, 200, await answer(authorization));
  });

  return router;
}

const failSchema = z.object({ account: z.string().optional() }).strict();

export function pixAutomaticControlRoutes(deps: PixAutomaticDeps): Router {
  const { state } = deps;
  const routes = Router();

  // The payer declines the authorization in the bank app.
  routes.post('/__control/pix-automatic/authorizations/:id/refuse', (req, res) => {
    const authorization = state.pixAutomatic.find(req.params['id'] ?? '');
    if (!authorization) return fail(res, 404, 'authorization_not_found', 'unknown authorization');
    if (!state.pixAutomatic.decide(authorization, 'REFUSED')) return fail(res, 409, 'invalid_state', `authorization is ${authorization.status}`);
    notify(deps, authorization);
    res.status(200).json({ id: authorization.id, status: authorization.status });
  });

  // The payer's bank could not debit a cycle on its due date (no balance, say).
  routes.post('/__control/charges/:id/fail', (req, res) => {
    const parsed = failSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const payment = state.findPayment(req.params['id'] ?? '');
    if (!payment?.pixAutomaticAuthorizationId) return fail(res, 404, 'charge_not_found', 'no Pix Automático cycle with this id');
    if (payment.deleted || payment.status !== 'PENDING') return fail(res, 409, 'charge_not_payable', `charge is ${payment.deleted ? 'deleted' : payment.status}`);
    if (payment.dueDate > spDate(state.now())) return fail(res, 409, 'not_due', `the debit is scheduled for ${payment.dueDate}`);
    payment.status = 'OVERDUE';
    deps.sender.paymentEvent(payment, 'PAYMENT_OVERDUE', deps.json);
    res.status(200).json({ id: payment.id, status: payment.status });
  });

  return routes;
}
