/**
 * Reconciliation support (issue 18): `GET /api/v1/charge` by creation period with Woovi's
 * skip/limit pagination, and the control routes that make a charge "in the dashboard" (a
 * correlationID none of ours) or change a charge's status behind the integrator's back (no webhook).
 *
 * Woovi's list: query `start` and `end` (RFC 3339, on `createdAt`), `status`, `skip` (from 0) and
 * `limit` (at most 100), answer `{pageInfo:{skip, limit, totalCount, hasPreviousPage,
 * hasNextPage}, charges:[charge…]}`. The charge carries `value` and `fee` (cents); refunds are not
 * on it (`GET /api/v1/charge/{id}/refund` has them).
 */
import { randomUUID } from 'node:crypto';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { dynamicBrCode, sendControlError as fail, type Logger } from '../../kit';
import { feeFor, type ChargeRoutesOptions } from './charge.routes';
import type { ExpiryScheduler } from './charge-expiry';
import type { EmulatorState, StoredCharge } from './emulator-state';
import { createRefund, refundableCents } from './refunds';
import { wooviErrors } from './woovi-errors';
import { accountIdFor, newGlobalId, newPaymentLinkId, newTransactionId } from './woovi-ids';

/** Woovi answers at most 100 charges a page. */
export const MAX_LIMIT = 100;

function intParam(value: unknown, fallback: number, max: number): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback;
  return Math.min(n, max);
}

function dateParam(req: Request, name: string): Date | undefined {
  const value = req.query[name];
  if (value === undefined || value === '') return undefined;
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(at)) throw wooviErrors.invalid(`Data inválida em ${name}: use o formato RFC 3339`);
  return new Date(at);
}

/** One page of the account's charges: `start` and `end` both inclusive on `createdAt`, oldest first. */
export function listChargePage(state: EmulatorState, accountId: string, req: Request) {
  const start = dateParam(req, 'start');
  const end = dateParam(req, 'end');
  const status = typeof req.query['status'] === 'string' ? req.query['status'] : undefined;
  const all = state
    .listCharges(accountId)
    .filter((c) => status === undefined || c.status === status)
    .filter((c) => start === undefined || c.createdAt.getTime() >= start.getTime())
    .filter((c) => end === undefined || c.createdAt.getTime() <= end.getTime())
    // A dashboard charge may be back-dated: ordered by creation, not by insertion.
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const skip = intParam(req.query['skip'], 0, Number.MAX_SAFE_INTEGER);
  const limit = Math.max(1, intParam(req.query['limit'], MAX_LIMIT, MAX_LIMIT));
  return {
    charges: all.slice(skip, skip + limit),
    pageInfo: { skip, limit, totalCount: all.length, hasPreviousPage: skip > 0, hasNextPage: skip + limit < all.length },
  };
}

// --- control ------------------------------------------------------------------------------------

const STATUSES = ['ACTIVE', 'COMPLETED', 'EXPIRED', 'REFUNDED'] as const;
type QuietStatus = (typeof STATUSES)[number];

const dashboardChargeSchema = z
  .object({
    account: z.string().min(1),
    amount: z.number().int().min(1).max(100_000_000),
    method: z.literal('pix').default('pix'),
    status: z.enum(STATUSES).default('COMPLETED'),
    created_at: z.string().datetime({ offset: true }).optional(),
  })
  .strict();

const statusSchema = z.object({ account: z.string().optional(), status: z.enum(STATUSES) }).strict();

/**
 * Sets the charge's status as Woovi would have got there, without a webhook: ACTIVE → COMPLETED
 * (paid, balance credited) | EXPIRED; COMPLETED → REFUNDED (what is left refunded, the refund
 * CONFIRMED at once; the charge stays COMPLETED, as at Woovi). Anything else: why not.
 */
export function setStatusQuietly(state: EmulatorState, expiry: ExpiryScheduler, charge: StoredCharge, status: QuietStatus): string | undefined {
  if (status === charge.status) return undefined;
  if (charge.status === 'ACTIVE' && status === 'COMPLETED') {
    state.settleCharge(charge);
    expiry.cancel(charge);
    return undefined;
  }
  if (charge.status === 'ACTIVE' && status === 'EXPIRED') {
    charge.status = 'EXPIRED';
    charge.updatedAt = state.now();
    expiry.cancel(charge);
    return undefined;
  }
  if (charge.status === 'COMPLETED' && status === 'REFUNDED') {
    if (refundableCents(charge) === 0) return undefined;
    const { refund } = createRefund(state, charge, { correlationID: `painel-${randomUUID()}` });
    refund.status = 'CONFIRMED';
    return undefined;
  }
  return `a ${charge.status} charge cannot become ${status} here`;
}

export function dashboardControlRoutes(state: EmulatorState, expiry: ExpiryScheduler, options: ChargeRoutesOptions, logger: Logger): Router {
  const routes = Router();

  routes.post('/__control/dashboard-charges', (req, res) => {
    const parsed = dashboardChargeSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const accountId = state.authenticate(parsed.data.account);
    if (!accountId) return fail(res, 404, 'account_not_found', 'no sandbox account with this AppID');
    const createdAt = parsed.data.created_at ? new Date(Date.parse(parsed.data.created_at)) : state.now();
    const transactionID = newTransactionId();
    // What Woovi's dashboard makes: a correlationID of its own (a UUID), no customer, one day to pay.
    const charge: StoredCharge = {
      accountId,
      correlationID: randomUUID(),
      globalID: newGlobalId('Charge'),
      transactionID,
      paymentLinkID: newPaymentLinkId(),
      value: parsed.data.amount,
      comment: 'Cobrança criada no painel',
      additionalInfo: [],
      expiresIn: Math.max(86_400, Math.ceil((state.now().getTime() - createdAt.getTime()) / 1000) + 86_400),
      createdAt,
      updatedAt: createdAt,
      status: 'ACTIVE',
      brCode: dynamicBrCode(`${options.locationHost}/api/openpix/qr/v1/${transactionID}`, options.merchant),
      fee: feeFor(parsed.data.amount, options.feeBasisPoints),
      publicBase: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
    };
    state.createCharge(charge);
    const problem = setStatusQuietly(state, expiry, charge, parsed.data.status);
    if (problem) return fail(res, 409, 'status_refused', problem);
    if (charge.status === 'ACTIVE') expiry.schedule(charge);
    logger.info({ account: accountId, status: charge.status }, 'dashboard charge created');
    res.status(201).json({ correlationID: charge.correlationID, globalID: charge.globalID, value: charge.value, fee: charge.fee, status: charge.status, createdAt: charge.createdAt.toISOString() });
  });

  routes.post('/__control/charges/:id/status', (req, res) => {
    const parsed = statusSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const id = req.params['id'] ?? '';
    const scope = parsed.data.account ? accountIdFor(parsed.data.account) : undefined;
    const [charge, ...others] = state.findChargesById(id).filter((c) => !scope || c.accountId === scope);
    if (!charge) return fail(res, 404, 'charge_not_found', `no charge ${id}`);
    if (others.length > 0) return fail(res, 409, 'ambiguous_id', 'several accounts have this charge id: send account');
    const problem = setStatusQuietly(state, expiry, charge, parsed.data.status);
    if (problem) return fail(res, 409, 'status_refused', problem);
    logger.info({ account: charge.accountId, status: charge.status }, 'charge status set behind the integrator');
    res.status(200).json({ correlationID: charge.correlationID, status: charge.status, refundable: refundableCents(charge), webhooks: 0 });
  });

  return routes;
}
