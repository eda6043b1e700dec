/**
 * Control routes that act "in Asaas's dashboard", behind the integrator's back, so reconciliation
 * can meet differences on purpose (issue 18):
 * - `POST /__control/dashboard-charges` makes a charge the integrator never asked for (no
 *   `externalReference`, a customer of the dashboard's), at any status and creation time;
 * - `POST /__control/charges/:id/status` moves a charge to another status WITHOUT a webhook.
 * Statuses are named the same way on every emulator and become Asaas ones here: pending
 * (PENDING), paid (RECEIVED; a card CONFIRMED), expired (OVERDUE), canceled (removed: `deleted`,
 * which takes it out of `GET /payments`), refunded (REFUNDED with a DONE refund of what was left).
 * Asaas has no failed charge status (a refused card leaves the charge open), so `failed` is refused.
 */
import { Router } from 'express';
import { z } from 'zod';
import { dashboardChargeSchema, dynamicBrCode, reachDashboardStatus, sendControlError as fail, type Merchant } from '../../kit';
import { accountIdFor, newCustomerId, newInvoiceNumber, newPaymentId } from './asaas-ids';
import { newStoredBoleto } from './boleto';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { sendJson } from './json-body';
import { createRefund, refundableCents, takeRefundedMoney } from './refunds';
import { spDate } from './sao-paulo-time';

export interface DashboardOptions {
  merchant: Merchant;
  locationHost: string;
  /** Asaas's fee on a charge, in cents (the emulator's one fee for every billing type). */
  pixFeeCents: number;
}

const STATUSES = ['pending', 'paid', 'canceled', 'expired', 'refunded'] as const;
type DashboardStatus = (typeof STATUSES)[number];

/** `account` is the account's API key. */
const createSchema = dashboardChargeSchema(STATUSES);

const statusSchema = z.object({ status: z.enum(STATUSES), account: z.string().min(1).optional() }).strict();

const OPEN = ['PENDING', 'OVERDUE'];

/** Moves `payment` to `target` with no webhook; a message when the move is not possible. */
function moveCharge(state: EmulatorState, payment: StoredPayment, target: DashboardStatus): string | undefined {
  if (payment.deleted) return 'charge was removed';
  switch (target) {
    case 'pending':
      return payment.status === 'PENDING' ? undefined : `a charge ${payment.status} cannot become PENDING again`;
    case 'paid':
      if (!OPEN.includes(payment.status)) return `charge is ${payment.status}, only PENDING or OVERDUE can be paid`;
      if (payment.billingType === 'CREDIT_CARD' || payment.billingType === 'UNDEFINED') state.confirmByCard(payment, { last4: '1111', brand: 'VISA' });
      else state.settlePayment(payment);
      return undefined;
    case 'expired':
      if (payment.status !== 'PENDING') return `charge is ${payment.status}, only PENDING can become OVERDUE`;
      payment.status = 'OVERDUE';
      return undefined;
    case 'canceled':
      if (!OPEN.includes(payment.status)) return `charge is ${payment.status}, only PENDING or OVERDUE can be removed`;
      payment.deleted = true;
      return undefined;
    case 'refunded': {
      if (payment.status !== 'RECEIVED' && payment.status !== 'CONFIRMED') return `charge is ${payment.status}, only RECEIVED or CONFIRMED can be refunded`;
      if (refundableCents(payment) <= 0) return 'nothing left to refund';
      const refund = createRefund(payment, undefined, 'Estorno pelo painel', state.now());
      takeRefundedMoney(state, payment, refund);
      refund.status = 'DONE';
      return undefined;
    }
  }
}

export function dashboardRoutes(state: EmulatorState, options: DashboardOptions, toJson: (p: StoredPayment) => unknown): Router {
  const routes = Router();

  routes.post('/__control/dashboard-charges', (req, res) => {
    const parsed = createSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { amount, method, status } = parsed.data;
    const account = state.accountByKey(parsed.data.account);
    if (!account) return fail(res, 404, 'account_not_found', 'unknown API key');
    const createdAt = parsed.data.created_at ? new Date(parsed.data.created_at) : state.now();
    const customer = state.createCustomer({ id: newCustomerId(), accountId: account.id, dateCreated: spDate(createdAt), name: 'Cliente do painel', cpfCnpj: '52998224725' });
    const id = newPaymentId();
    // Due the day after its creation, or today if that is later (a dashboard charge is due in the future when made).
    const dueDate = [spDate(new Date(createdAt.getTime() + 86_400_000)), spDate(state.now())].sort().at(-1) as string;
    const billingType = method === 'pix' ? 'PIX' : method === 'boleto' ? 'BOLETO' : 'CREDIT_CARD';
    const payment = state.createPayment({
      id,
      accountId: account.id,
      customerId: customer.id,
      createdAt,
      billingType,
      valueCents: amount,
      feeCents: Math.min(options.pixFeeCents, amount),
      description: 'Cobrança criada no painel',
      dueDate,
      status: 'PENDING',
      deleted: false,
      invoiceNumber: newInvoiceNumber(),
      brCode: dynamicBrCode(`${options.locationHost}/pixqrcode/cobv/${id}`, options.merchant),
      ...(billingType === 'BOLETO' ? { boleto: newStoredBoleto(amount, dueDate) } : {}),
    });
    reachDashboardStatus(status, (target) => moveCharge(state, payment, target));
    sendJson(res, 201, toJson(payment));
  });

  routes.post('/__control/charges/:id/status', (req, res) => {
    const parsed = statusSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const payment = state.findPayment(req.params['id'] ?? '');
    const owner = parsed.data.account ? accountIdFor(parsed.data.account) : undefined;
    if (!payment || (owner && payment.accountId !== owner)) return fail(res, 404, 'charge_not_found', `no charge ${req.params['id'] ?? ''}`);
    const refused = moveCharge(state, payment, parsed.data.status);
    if (refused) return fail(res, 409, 'status_change_refused', refused);
    sendJson(res, 200, toJson(payment));
  });

  return routes;
}
