/**
 * `POST|GET /api/v1/charge` and `GET|DELETE /api/v1/charge/:id`, mounted under `/api/v1` behind
 * the AppID check. POST is idempotent only with `?return_existing=true` (Woovi's OpenAPI: "Make
 * the endpoint idempotent, will return an existent charge if already has a one with the
 * correlationID"); without it a repeated correlationID is a 400.
 */
import { Router, type Request } from 'express';
import { accountOf } from './auth';
import { dynamicBrCode, type Merchant } from '../../kit';
import type { ExpiryScheduler } from './charge-expiry';
import { chargeJson } from './charge-json';
import { parseChargeRequest } from './charge-validation';
import type { EmulatorState, StoredCharge } from './emulator-state';
import type { WebhookSender } from './webhook-sender';
import { newGlobalId, newPaymentLinkId, newTransactionId } from './woovi-ids';
import { parseSplits } from './splits';
import { listChargePage } from './charge-listing';

export interface ChargeRoutesOptions {
  merchant: Merchant;
  /** Host part of payload location URLs in BR Codes. */
  locationHost: string;
  /** Woovi's fee the emulator reports, in basis points of the value (assumption; default 80 = 0.8%). */
  feeBasisPoints: number;
}

/** value × bps / 10 000, rounded half up, in integer arithmetic (BigInt: no float, no overflow). */
export function feeFor(value: number, basisPoints: number): number {
  return Number((BigInt(value) * BigInt(basisPoints) + 5_000n) / 10_000n);
}

function publicBase(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

export function chargeRoutes(state: EmulatorState, sender: WebhookSender, expiry: ExpiryScheduler, options: ChargeRoutesOptions): Router {
  const router = Router();

  // By creation period (start/end) and status, skip/limit pages (charge-listing.ts).
  router.get('/charge', (req, res) => {
    const page = listChargePage(state, accountOf(res), req);
    res.status(200).json({ pageInfo: page.pageInfo, charges: page.charges.map((c) => chargeJson(state, c)) });
  });

  router.post('/charge', (req, res) => {
    const accountId = accountOf(res);
    const request = parseChargeRequest(req.body);
    const existing = state.findCharge(accountId, request.correlationID);
    if (existing && req.query['return_existing'] === 'true') {
      const charge = chargeJson(state, existing);
      res.status(200).json({ charge, correlationID: charge.correlationID, brCode: charge.brCode });
      return;
    }
    const fee = feeFor(request.value, options.feeBasisPoints);
    const splits = parseSplits((req.body as { splits?: unknown } | undefined)?.splits, accountId, request.value - fee, state.subaccounts);
    const now = state.now();
    const transactionID = newTransactionId();
    const stored: StoredCharge = {
      accountId,
      correlationID: request.correlationID,
      globalID: newGlobalId('Charge'),
      transactionID,
      paymentLinkID: newPaymentLinkId(),
      value: request.value,
      comment: request.comment,
      ...(request.customer ? { customer: { ...request.customer, correlationID: newPaymentLinkId() } } : {}),
      additionalInfo: request.additionalInfo,
      expiresIn: request.expiresIn,
      createdAt: now,
      updatedAt: now,
      status: 'ACTIVE',
      brCode: dynamicBrCode(`${options.locationHost}/api/openpix/qr/v1/${transactionID}`, options.merchant),
      fee,
      publicBase: publicBase(req),
      ...(splits.length > 0 ? { splits } : {}),
    };
    // createCharge refuses a repeated correlationID (the request came without return_existing).
    state.createCharge(stored);
    expiry.schedule(stored);
    sender.notify('OPENPIX:CHARGE_CREATED', stored);
    const charge = chargeJson(state, stored);
    res.status(200).json({ charge, correlationID: charge.correlationID, brCode: charge.brCode });
  });

  router.get('/charge/:id', (req, res) => {
    res.status(200).json({ charge: chargeJson(state, state.getCharge(accountOf(res), req.params['id'] ?? '')) });
  });

  router.delete('/charge/:id', (req, res) => {
    const id = req.params['id'] ?? '';
    const removed = state.removeCharge(accountOf(res), id);
    expiry.cancel(removed);
    res.status(200).json({ status: 'OK', id });
  });

  return router;
}
