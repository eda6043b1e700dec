/**
 * Pix Automático subscriptions on the API port (`POST|GET /api/v1/subscriptions`, `GET|DELETE
 * /api/v1/subscriptions/:id`, by globalID or correlationID), the cycle charges Woovi creates as the
 * clock moves, and the payer's bank on the control port: approve or refuse an ONLY_RECURRENCY
 * subscription, and fail a cycle's debit (`/__control/charges/:id/fail`); paying a charge
 * (`/__control/charges/:id/pay`) settles a cycle on its debit date or approves a
 * PAYMENT_ON_APPROVAL subscription (`onChargePaid`). Rules and decisions: pix-recurring.ts.
 */
import { randomBytes } from 'node:crypto';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { addDays, dynamicBrCode, isCalendarDate, recurrenceBrCode, saoPauloDate, sendControlError as fail, taxIdType } from '../../kit';
import { accountOf } from './auth';
import type { ExpiryScheduler } from './charge-expiry';
import { feeFor, type ChargeRoutesOptions } from './charge.routes';
import type { EmulatorState, StoredCharge } from './emulator-state';
import { SUBSCRIPTION_EVENTS, subscriptionJson, type StoredSubscription } from './pix-recurring';
import type { WebhookSender } from './webhook-sender';
import { newGlobalId, newPaymentLinkId, newTransactionId } from './woovi-ids';
import { wooviErrors } from './woovi-errors';

export interface RecurringDeps {
  state: EmulatorState;
  sender: WebhookSender;
  expiry: ExpiryScheduler;
  charges: ChargeRoutesOptions;
}

const date = z.string().refine(isCalendarDate, 'data inválida (AAAA-MM-DD)');
const subscriptionSchema = z
  .object({
    type: z.literal('PIX_RECURRING', { errorMap: () => ({ message: 'Emulador: só type PIX_RECURRING é suportado' }) }),
    correlationID: z.string().min(1).max(300),
    value: z.number().int('value deve ser um inteiro em centavos').positive('value deve ser maior que zero'),
    customer: z.object({ name: z.string().trim().min(1), taxID: z.string() }).passthrough(),
    comment: z.string().max(140).optional(),
    frequency: z.enum(['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUALLY', 'ANNUALLY']).default('MONTHLY'),
    startDate: date.optional(),
    endDate: date.optional(),
    pixRecurringOptions: z.object({ journey: z.enum(['ONLY_RECURRENCY', 'PAYMENT_ON_APPROVAL']), retryPolicy: z.enum(['NAO_PERMITE', 'PERMITE_3R_7D']).default('NAO_PERMITE') }).strict(),
  })
  .passthrough();

/** A charge Woovi creates itself (an approval charge, a cycle), notified as CHARGE_CREATED. */
function createCharge({ state, sender, expiry, charges }: RecurringDeps, s: StoredSubscription, correlationID: string, expiresIn: number, brCode?: (location: string) => string): StoredCharge {
  const now = state.now();
  const transactionID = newTransactionId();
  const location = `${charges.locationHost}/api/openpix/qr/v1/${transactionID}`;
  const charge = state.createCharge({
    accountId: s.accountId,
    correlationID,
    globalID: newGlobalId('Charge'),
    transactionID,
    paymentLinkID: newPaymentLinkId(),
    value: s.value,
    comment: s.comment ?? '',
    customer: { ...s.customer, correlationID: newPaymentLinkId() },
    additionalInfo: [],
    expiresIn,
    createdAt: now,
    updatedAt: now,
    status: 'ACTIVE',
    brCode: brCode ? brCode(location) : dynamicBrCode(location, charges.merchant),
    fee: feeFor(s.value, charges.feeBasisPoints),
    publicBase: s.publicBase,
  });
  expiry.schedule(charge);
  sender.notify('OPENPIX:CHARGE_CREATED', charge);
  return charge;
}

function notify(deps: RecurringDeps, s: StoredSubscription): void {
  if (s.status === 'PENDING') return;
  deps.sender.notifyAccount(SUBSCRIPTION_EVENTS[s.status], s.accountId, { event: SUBSCRIPTION_EVENTS[s.status], subscription: subscriptionJson(s) }, s.correlationID);
}

/** What time did: approval charges expired unpaid, cycle charges due to be created, charges past their retry window. */
export function recurringTick(deps: RecurringDeps): void {
  const { state } = deps;
  for (const s of state.recurring.all()) {
    if (s.status === 'PENDING' && s.approvalCorrelationID && state.findCharge(s.accountId, s.approvalCorrelationID)?.status === 'EXPIRED' && state.recurring.decide(s, 'EXPIRED')) notify(deps, s);
    for (const cycle of s.cycles) state.findCharge(s.accountId, cycle.correlationID);
  }
  for (const { subscription, cycle } of state.recurring.cyclesToCreate()) {
    // Payable until the end of the retry window (São Paulo midnight after due date + 7 days).
    const until = Date.parse(`${addDays(cycle.dueDate, 8)}T03:00:00Z`);
    createCharge(deps, subscription, cycle.correlationID, Math.ceil((until - state.now().getTime()) / 1000));
  }
}

/**
 * Before a charge is paid on the control port: a cycle is debited only on its attempt date (the
 * refusal's text, else undefined). After: records the cycle settled, or approves a subscription.
 */
export function beforeChargePaid(state: EmulatorState, charge: StoredCharge): string | undefined {
  const found = state.recurring.cycleOf(charge.accountId, charge.correlationID);
  return found ? state.recurring.notDebitable(found.cycle) : undefined;
}

export function onChargePaid(deps: RecurringDeps, charge: StoredCharge): void {
  const { recurring } = deps.state;
  const found = recurring.cycleOf(charge.accountId, charge.correlationID);
  if (found) recurring.settled(found.cycle);
  const approved = recurring.all().find((s) => s.accountId === charge.accountId && s.approvalCorrelationID === charge.correlationID);
  if (approved && recurring.decide(approved, 'ACTIVE')) {
    notify(deps, approved);
    recurringTick(deps);
  }
}

const publicBase = (req: Request) => `${req.protocol}://${req.get('host') ?? 'localhost'}`;

export function recurringRoutes(deps: RecurringDeps): Router {
  const { state } = deps;
  const router = Router();

  router.post('/subscriptions', (req, res) => {
    const accountId = accountOf(res);
    const parsed = subscriptionSchema.safeParse(req.body);
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'corpo inválido');
    const body = parsed.data;
    const taxID = body.customer.taxID.replace(/\D/g, '');
    const type = taxIdType(taxID);
    if (!type) throw wooviErrors.invalid('customer.taxID inválido');
    const today = saoPauloDate(state.now());
    const startDate = body.startDate ?? today;
    if (startDate < today) throw wooviErrors.invalid('startDate não pode estar no passado');
    if (body.endDate !== undefined && body.endDate < startDate) throw wooviErrors.invalid('endDate deve ser posterior a startDate');
    const { journey, retryPolicy } = body.pixRecurringOptions;
    const recLocation = `${deps.charges.locationHost}/api/openpix/rec/v1/${randomBytes(16).toString('hex')}`;
    const subscription = state.recurring.create({
      accountId,
      correlationID: body.correlationID,
      value: body.value,
      customer: { name: body.customer.name, taxID: { taxID, type } },
      ...(body.comment !== undefined ? { comment: body.comment } : {}),
      frequency: body.frequency,
      startDate,
      ...(body.endDate !== undefined ? { endDate: body.endDate } : {}),
      journey,
      retryPolicy,
      recurrencyId: state.recurring.newRecurrencyId(retryPolicy),
      emv: recurrenceBrCode(recLocation, deps.charges.merchant),
      publicBase: publicBase(req),
    });
    if (journey === 'PAYMENT_ON_APPROVAL') {
      const approval = createCharge(deps, subscription, `${body.correlationID}-approval`, 86_400, (location) => recurrenceBrCode(recLocation, deps.charges.merchant, location));
      subscription.approvalCorrelationID = approval.correlationID;
      subscription.emv = approval.brCode;
    }
    res.status(200).json({ subscription: subscriptionJson(subscription) });
  });

  router.get('/subscriptions', (_req, res) => {
    res.status(200).json({ subscriptions: state.recurring.list(accountOf(res)).map(subscriptionJson) });
  });

  router.get('/subscriptions/:id', (req, res) => {
    res.status(200).json({ subscription: subscriptionJson(state.recurring.get(accountOf(res), req.params['id'] ?? '')) });
  });

  // Cancelling stops the recurrence: its cycle charges still open are removed.
  router.delete('/subscriptions/:id', (req, res) => {
    const subscription = state.recurring.get(accountOf(res), req.params['id'] ?? '');
    state.recurring.cancel(subscription);
    for (const correlationID of [...subscription.cycles.map((c) => c.correlationID), subscription.approvalCorrelationID]) {
      const charge = correlationID ? state.findCharge(subscription.accountId, correlationID) : undefined;
      if (charge?.status === 'ACTIVE') deps.expiry.cancel(state.removeCharge(subscription.accountId, charge.correlationID));
    }
    notify(deps, subscription);
    res.status(200).json({ subscription: subscriptionJson(subscription) });
  });

  return router;
}

const accountBody = z.object({ account: z.string().optional() }).strict();

export function recurringControlRoutes(deps: RecurringDeps): Router {
  const { state } = deps;
  const routes = Router();

  for (const action of ['approve', 'refuse'] as const) {
    routes.post(`/__control/subscriptions/:id/${action}`, (req, res) => {
      const subscription = state.recurring.find(req.params['id'] ?? '');
      if (!subscription) return fail(res, 404, 'subscription_not_found', 'unknown subscription');
      if (action === 'approve' && subscription.journey === 'PAYMENT_ON_APPROVAL') {
        return fail(res, 409, 'invalid_state', 'a PAYMENT_ON_APPROVAL subscription is approved by paying its approval charge (/__control/charges/:id/pay)');
      }
      if (!state.recurring.decide(subscription, action === 'approve' ? 'ACTIVE' : 'REJECTED')) return fail(res, 409, 'invalid_state', `subscription is ${subscription.status}`);
      notify(deps, subscription);
      if (action === 'approve') recurringTick(deps);
      res.status(200).json({ subscription: subscriptionJson(subscription) });
    });
  }

  // The payer's bank could not debit a cycle (no balance, say): Woovi retries or gives up (pix-recurring.ts).
  routes.post('/__control/charges/:id/fail', (req, res) => {
    const parsed = accountBody.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const [charge] = state.findChargesById(req.params['id'] ?? '');
    const found = charge ? state.recurring.cycleOf(charge.accountId, charge.correlationID) : undefined;
    if (!charge || !found) return fail(res, 404, 'charge_not_found', 'no Pix Automático cycle with this id');
    if (charge.status !== 'ACTIVE') return fail(res, 409, 'charge_not_payable', `charge is ${charge.status}`);
    const refusal = state.recurring.notDebitable(found.cycle);
    if (refusal) return fail(res, 409, 'not_due', refusal);
    if (state.recurring.failed(found.subscription, found.cycle)) {
      charge.status = 'EXPIRED';
      charge.updatedAt = state.now();
      deps.expiry.cancel(charge);
      deps.sender.notify('OPENPIX:CHARGE_EXPIRED', charge);
    }
    res.status(200).json({ correlationID: charge.correlationID, status: charge.status, ...(found.cycle.nextAttempt ? { nextAttempt: found.cycle.nextAttempt } : {}) });
  });

  return routes;
}
