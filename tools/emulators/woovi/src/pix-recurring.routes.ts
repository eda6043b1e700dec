/**
 * Pix Automático subscriptions on the API port (`POST|GET /api/v1/subscriptions`, `GET|DELETE
 * /api/v1/subscriptions/:id`, by globalID or correlationID), the cycle charges Woovi creates as the
 * clock moves, and the payer's bank on the control port: approve or refuse an ONLY_RECURRENCY
 * subscription, and fail a cycle's debit attempt (`/__control/charges/:id/fail`); paying a charge
 * (`/__control/charges/:id/pay`) settles a cycle on its attempt date or approves a
 * PAYMENT_ON_APPROVAL subscription (`onChargePaid`). Rules and decisions: pix-recurring.ts.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { addDays, dynamicBrCode, recurrenceBrCode, saoPauloDate, sendControlError as fail, taxIdType } from '../../kit';
import { accountOf } from './auth';
import type { ExpiryScheduler } from './charge-expiry';
import { feeFor, type ChargeRoutesOptions } from './charge.routes';
import type { EmulatorState, StoredCharge } from './emulator-state';
import { chargeJson } from './charge-json';
import { CYCLE_EVENTS, SUBSCRIPTION_EVENTS, subscriptionJson, type StoredSubscription } from './pix-recurring';
import type { WebhookSender } from './webhook-sender';
import { newGlobalId, newPaymentLinkId, newTransactionId } from './woovi-ids';
import { wooviErrors } from './woovi-errors';

export interface RecurringDeps {
  state: EmulatorState;
  sender: WebhookSender;
  expiry: ExpiryScheduler;
  charges: ChargeRoutesOptions;
}

const subscriptionSchema = z
  .object({
    type: z.literal('PIX_RECURRING', { errorMap: () => ({ message: 'Emulador: só type PIX_RECURRING é suportado' }) }),
    correlationID: z.string().min(1).max(300).optional(),
    value: z.number().int('value deve ser um inteiro em centavos').positive('value deve ser maior que zero'),
    customer: z.object({ name: z.string().trim().min(1), taxID: z.string(), address: z.record(z.unknown(), { required_error: 'customer.address é obrigatório' }) }).passthrough(),
    comment: z.string().max(29, 'comment deve ter menos de 30 caracteres').optional(),
    frequency: z.enum(['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUALLY', 'ANNUALLY'], { errorMap: () => ({ message: 'frequency inválida' }) }),
    dayGenerateCharge: z.union([z.number().int().min(1).max(31), z.string().datetime({ offset: true })], { errorMap: () => ({ message: 'dayGenerateCharge deve ser um dia (1 a 31) ou uma data ISO 8601' }) }),
    dayDue: z.number().int().min(1).max(7).default(7),
    pixRecurringOptions: z
      .object({ journey: z.enum(['ONLY_RECURRENCY', 'PAYMENT_ON_APPROVAL']), retryPolicy: z.enum(['NON_PERMITED', 'THREE_RETRIES_7_DAYS']).default('NON_PERMITED') })
      .strict(),
  })
  .passthrough();

/** The first payment date: that day of this month (the month's last day at most), next month when already past; or the ISO date's day. */
function firstPaymentDate(dayGenerateCharge: number | string, today: string): string {
  if (typeof dayGenerateCharge === 'string') return saoPauloDate(new Date(dayGenerateCharge));
  const [year, month] = today.split('-').map(Number) as [number, number];
  const dayIn = (y: number, m: number) => {
    const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
    return new Date(Date.UTC(y, m - 1, Math.min(dayGenerateCharge, last))).toISOString().slice(0, 10);
  };
  const thisMonth = dayIn(year, month);
  return thisMonth >= today ? thisMonth : dayIn(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1);
}

/** The end of a São Paulo calendar day (midnight after it, UTC−03:00). */
const endOfDay = (date: string) => Date.parse(`${addDays(date, 1)}T03:00:00Z`);

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

/** A PIX_AUTOMATIC_* event about the subscription (and the cycle's charge). */
/** The event of the subscription's new status (PENDING is never a new status). */
function statusChanged(deps: RecurringDeps, s: StoredSubscription): void {
  if (s.status !== 'PENDING') notify(deps, s, SUBSCRIPTION_EVENTS[s.status]);
}

function notify(deps: RecurringDeps, s: StoredSubscription, event: string, charge?: StoredCharge): void {
  const payload = { event, subscription: subscriptionJson(s), ...(charge ? { charge: chargeJson(deps.state, charge) } : {}) };
  deps.sender.notifyAccount(event, s.accountId, payload, charge?.correlationID ?? s.correlationID);
}

/** What time did: approval charges expired unpaid, cycle charges due to be created, charges past their retry window. */
export function recurringTick(deps: RecurringDeps): void {
  const { state } = deps;
  for (const s of state.recurring.all()) {
    if (s.status === 'PENDING' && s.approvalCorrelationID && state.findCharge(s.accountId, s.approvalCorrelationID)?.status === 'EXPIRED' && state.recurring.decide(s, 'EXPIRED')) statusChanged(deps, s);
    for (const cycle of s.cycles) state.findCharge(s.accountId, cycle.correlationID);
  }
  for (const { subscription, cycle } of state.recurring.cyclesToCreate()) {
    createCharge(deps, subscription, cycle.correlationID, Math.ceil((endOfDay(cycle.expiresOn) - state.now().getTime()) / 1000));
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
  if (found) {
    recurring.settled(found.cycle);
    notify(deps, found.subscription, CYCLE_EVENTS.completed, charge);
  }
  const approved = recurring.all().find((s) => s.accountId === charge.accountId && s.approvalCorrelationID === charge.correlationID);
  if (approved && recurring.decide(approved, 'ACTIVE')) {
    statusChanged(deps, approved);
    recurringTick(deps);
  }
}

/** A cycle's charge expired (its last attempt failed, or none was made): PIX_AUTOMATIC_COBR_REJECTED. */
export function onChargeExpired(deps: RecurringDeps, charge: StoredCharge): void {
  const found = deps.state.recurring.cycleOf(charge.accountId, charge.correlationID);
  if (found) notify(deps, found.subscription, CYCLE_EVENTS.rejected, charge);
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
    const startDate = firstPaymentDate(body.dayGenerateCharge, today);
    if (startDate < today) throw wooviErrors.invalid('dayGenerateCharge não pode estar no passado');
    if (body.pixRecurringOptions.journey === 'PAYMENT_ON_APPROVAL' && startDate !== today) throw wooviErrors.invalid('Na jornada PAYMENT_ON_APPROVAL a data de dayGenerateCharge deve ser o dia atual');
    const { journey, retryPolicy } = body.pixRecurringOptions;
    const recLocation = `${deps.charges.locationHost}/api/openpix/rec/v1/${randomBytes(16).toString('hex')}`;
    const correlationID = body.correlationID ?? randomUUID();
    const subscription = state.recurring.create({
      accountId,
      correlationID,
      value: body.value,
      customer: { name: body.customer.name, taxID: { taxID, type } },
      ...(body.comment !== undefined ? { comment: body.comment } : {}),
      frequency: body.frequency,
      startDate,
      dayDue: body.dayDue,
      journey,
      retryPolicy,
      recurrencyId: state.recurring.newRecurrencyId(retryPolicy),
      emv: recurrenceBrCode(recLocation, deps.charges.merchant),
      publicBase: publicBase(req),
    });
    if (journey === 'PAYMENT_ON_APPROVAL') {
      const approval = createCharge(deps, subscription, `${correlationID}-approval`, Math.ceil((endOfDay(addDays(today, body.dayDue)) - state.now().getTime()) / 1000), (location) =>
        recurrenceBrCode(recLocation, deps.charges.merchant, location),
      );
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
    statusChanged(deps, subscription);
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
      statusChanged(deps, subscription);
      if (action === 'approve') recurringTick(deps);
      res.status(200).json({ subscription: subscriptionJson(subscription) });
    });
  }

  // The payer's bank could not debit a cycle (no balance, say): PIX_AUTOMATIC_COBR_TRY_REJECTED; Woovi
  // schedules a retry when the policy allows, else the charge waits for its expiry (then COBR_REJECTED).
  routes.post('/__control/charges/:id/fail', (req, res) => {
    const parsed = accountBody.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const [charge] = state.findChargesById(req.params['id'] ?? '');
    const found = charge ? state.recurring.cycleOf(charge.accountId, charge.correlationID) : undefined;
    if (!charge || !found) return fail(res, 404, 'charge_not_found', 'no Pix Automático cycle with this id');
    if (charge.status !== 'ACTIVE') return fail(res, 409, 'charge_not_payable', `charge is ${charge.status}`);
    const refusal = state.recurring.notDebitable(found.cycle);
    if (refusal) return fail(res, 409, 'not_due', refusal);
    state.recurring.failed(found.subscription, found.cycle);
    notify(deps, found.subscription, CYCLE_EVENTS.tryRejected, charge);
    res.status(200).json({ correlationID: charge.correlationID, status: charge.status, ...(found.cycle.nextAttempt ? { nextAttempt: found.cycle.nextAttempt } : {}) });
  });

  return routes;
}
