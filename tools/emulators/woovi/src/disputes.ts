/**
 * MED disputes, as Woovi reports them: the payer's bank files an infraction notice against a paid
 * Pix; Woovi posts `OPENPIX:DISPUTE_CREATED` and, once decided, `OPENPIX:DISPUTE_ACCEPTED`
 * (the payer is refunded), `…_REJECTED` or `…_CANCELED`, each with
 * `dispute{status, endToEndId, name, email, phoneNumber, value (cents), disputeReason}` (docs
 * "Payload de Disputa …"). Woovi takes no defense through its API. Control routes only: the real
 * Woovi opens these when a payer's bank does.
 */
import { randomBytes } from 'node:crypto';
import { Router } from 'express';
import { z } from 'zod';
import { refill, sendControlError as fail } from '../../kit';
import type { EmulatorState, StoredCharge } from './emulator-state';
import type { Logger } from '../../kit';
import type { WebhookSender } from './webhook-sender';
import { accountIdFor } from './woovi-ids';

export type DisputeStatus = 'OPENED' | 'ACCEPTED' | 'REJECTED' | 'CANCELED';

export interface StoredDispute {
  id: string;
  accountId: string;
  correlationID: string;
  status: DisputeStatus;
  endToEndId: string;
  value: number;
  disputeReason: string;
  createdAt: Date;
  /** The last webhook sent for it, to resend byte for byte (a redelivery). */
  lastEvent: string;
}

const EVENT_OF: Record<DisputeStatus, string> = {
  OPENED: 'OPENPIX:DISPUTE_CREATED',
  ACCEPTED: 'OPENPIX:DISPUTE_ACCEPTED',
  REJECTED: 'OPENPIX:DISPUTE_REJECTED',
  CANCELED: 'OPENPIX:DISPUTE_CANCELED',
};

/** Disputes in memory, by id (24 hex characters, like Woovi's object ids). */
export class DisputeBook {
  private readonly disputes = new Map<string, StoredDispute>();

  open(charge: StoredCharge, value: number, disputeReason: string, now: Date): StoredDispute {
    const dispute: StoredDispute = {
      id: randomBytes(12).toString('hex'),
      accountId: charge.accountId,
      correlationID: charge.correlationID,
      status: 'OPENED',
      endToEndId: charge.pix?.endToEndId ?? '',
      value,
      disputeReason,
      createdAt: now,
      lastEvent: EVENT_OF.OPENED,
    };
    this.disputes.set(dispute.id, dispute);
    return dispute;
  }

  get(id: string): StoredDispute | undefined {
    return this.disputes.get(id);
  }

  activeFor(charge: StoredCharge): StoredDispute | undefined {
    return [...this.disputes.values()].find((d) => d.accountId === charge.accountId && d.correlationID === charge.correlationID && d.status === 'OPENED');
  }

  clear(): void {
    this.disputes.clear();
  }

  snapshot(): Map<string, StoredDispute> {
    return this.disputes;
  }

  restore(snapshot: Map<string, StoredDispute>): void {
    refill(this.disputes, snapshot);
  }
}

/** The webhook body Woovi posts (the sender adds `company` and `account`). */
export function disputePayload(dispute: StoredDispute, charge: StoredCharge): Record<string, unknown> {
  return {
    event: dispute.lastEvent,
    dispute: {
      status: dispute.status,
      endToEndId: dispute.endToEndId,
      name: charge.customer?.name ?? '',
      email: charge.customer?.email ?? '',
      phoneNumber: charge.customer?.phone ?? '',
      value: dispute.value,
      disputeReason: dispute.disputeReason,
    },
  };
}

const openSchema = z
  .object({ account: z.string().optional(), value: z.number().int().min(1).optional(), disputeReason: z.string().max(140).optional() })
  .strict();
const decideSchema = z.object({ status: z.enum(['ACCEPTED', 'REJECTED', 'CANCELED']) }).strict();

const view = (d: StoredDispute) => ({ id: d.id, status: d.status, endToEndId: d.endToEndId, value: d.value, disputeReason: d.disputeReason, correlationID: d.correlationID });

/**
 * `POST /__control/charges/:id/dispute {value?, disputeReason?}` opens a MED on a paid charge and
 * sends DISPUTE_CREATED; `POST /__control/disputes/:id/decide {status}` decides it and sends the
 * matching webhook; `POST /__control/disputes/:id/redeliver` sends the last webhook again (same
 * bytes, as Woovi's retries do); `GET /__control/disputes/:id` reads it.
 */
export function disputeControlRoutes(deps: { state: EmulatorState; sender: WebhookSender; disputes: DisputeBook; logger: Logger }): Router {
  const { state, sender, disputes, logger } = deps;
  const router = Router();
  const chargeOf = (d: StoredDispute) => state.findCharge(d.accountId, d.correlationID);
  const send = (d: StoredDispute) => {
    const charge = chargeOf(d);
    return charge ? sender.notifyWith(d.lastEvent, charge, disputePayload(d, charge)) : 0;
  };

  router.post('/__control/charges/:id/dispute', (req, res) => {
    const parsed = openSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const scope = parsed.data.account ? accountIdFor(parsed.data.account) : undefined;
    const [charge, ...others] = state.findChargesById(req.params['id'] ?? '').filter((c) => !scope || c.accountId === scope);
    if (!charge) return fail(res, 404, 'charge_not_found', `no charge ${req.params['id'] ?? ''}`);
    if (others.length > 0) return fail(res, 409, 'ambiguous_id', 'several accounts have this charge id: send account');
    if (charge.status !== 'COMPLETED' || !charge.pix) return fail(res, 409, 'charge_not_paid', `charge is ${charge.status}: only a paid Pix can be disputed`);
    if (disputes.activeFor(charge)) return fail(res, 409, 'dispute_exists', 'this Pix already has an open dispute');
    const value = parsed.data.value ?? charge.value;
    if (value > charge.value) return fail(res, 400, 'invalid_request', 'value is over the paid amount');
    const dispute = disputes.open(charge, value, parsed.data.disputeReason ?? 'Golpe', state.now());
    const webhooks = send(dispute);
    logger.info({ account: charge.accountId, dispute: dispute.id, webhooks }, 'dispute opened');
    res.status(201).json({ ...view(dispute), webhooks });
  });

  router.post('/__control/disputes/:id/decide', (req, res) => {
    const parsed = decideSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const dispute = disputes.get(req.params['id'] ?? '');
    if (!dispute) return fail(res, 404, 'dispute_not_found', `no dispute ${req.params['id'] ?? ''}`);
    if (dispute.status !== 'OPENED') return fail(res, 409, 'dispute_decided', `dispute is ${dispute.status}`);
    dispute.status = parsed.data.status;
    dispute.lastEvent = EVENT_OF[parsed.data.status];
    const webhooks = send(dispute);
    logger.info({ account: dispute.accountId, dispute: dispute.id, status: dispute.status, webhooks }, 'dispute decided');
    res.status(200).json({ ...view(dispute), webhooks });
  });

  router.post('/__control/disputes/:id/redeliver', (req, res) => {
    const dispute = disputes.get(req.params['id'] ?? '');
    if (!dispute) return fail(res, 404, 'dispute_not_found', `no dispute ${req.params['id'] ?? ''}`);
    res.status(200).json({ ...view(dispute), webhooks: send(dispute) });
  });

  router.get('/__control/disputes/:id', (req, res) => {
    const dispute = disputes.get(req.params['id'] ?? '');
    if (!dispute) return fail(res, 404, 'dispute_not_found', `no dispute ${req.params['id'] ?? ''}`);
    res.status(200).json(view(dispute));
  });

  return router;
}
