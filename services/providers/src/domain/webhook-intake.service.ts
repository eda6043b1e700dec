/**
 * Over 300 lines: one intake for every kind a webhook names (charge, recurrence, cycle charge,
 * transfer, subaccount, dispute), each re-read and written in the same deduping insert; the
 * builders of their internal events sit beside it.
 */
import {
  PROVIDER_CHARGE_UPDATED,
  PROVIDER_CYCLE_CHARGE_UPDATED,
  PROVIDER_RECURRENCE_UPDATED,
  PROVIDER_SUBACCOUNT_UPDATED,
  PROVIDER_TRANSFER_UPDATED,
  type ProviderChargeUpdated,
  type ProviderCycleChargeUpdated,
  type ProviderRecurrenceUpdated,
  type ProviderRefundReport,
  type ProviderSubaccountUpdated,
  type ProviderTransferUpdated,
} from '@orquestra/contracts';
import { isDuplicateKeyError, newEvent, outboxEntries, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Logger } from 'pino';
import { ProviderError, type CardDeclineReport, type ProviderCharge, type ProviderRefund, type WebhookRequest } from '../adapters/provider-adapter';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { WebhookReceiptModel } from '../db/webhook-receipt.model';
import type { ProviderDispute } from '../adapters/provider-disputes';
import { isPayoutCapable, type ProviderTransfer, type TransferWebhookParseResult } from '../adapters/provider-payouts';
import { isRecurrenceCapable, type ProviderCycleCharge, type ProviderRecurrence, type RecurrenceEvent } from '../adapters/provider-recurrences';
import { isSubaccountCapable, SUBACCOUNT_WEBHOOK_SUB_PATH, type ProviderSubaccount, type SubaccountWebhookParseResult } from '../adapters/provider-subaccounts';
import { disputeEvent } from './dispute-reports';
import type { ProviderAccountService } from './provider-account.service';
import type { SubaccountSecrets } from './subaccount-secrets';

export interface WebhookInput {
  accountId: string;
  subPath: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Buffer;
}

export interface WebhookAnswer {
  httpStatus: number;
  body: string;
}

/** A refund as the internal event carries it. */
export function toRefundReport(refund: ProviderRefund): ProviderRefundReport {
  return {
    provider_refund_id: refund.providerRefundId,
    ...(refund.refundKey ? { refund_key: refund.refundKey } : {}),
    amount: refund.amount,
    status: refund.status,
    ...(refund.failureCode ? { failure_code: refund.failureCode } : {}),
    ...(refund.failureReason ? { failure_reason: refund.failureReason } : {}),
    ...(refund.reason ? { reason: refund.reason } : {}),
    ...(refund.createdAt ? { created_at: refund.createdAt.toISOString() } : {}),
  };
}

/** An internal event of the account, as the outbox carries it. */
function accountEvent(account: ProviderAccountDoc, type: string, object: unknown): EventEnvelope {
  return newEvent(type, { merchant_id: account.merchant_id, mode: account.mode }, object as Record<string, unknown>);
}

function recurrenceUpdated(account: ProviderAccountDoc, recurrence: ProviderRecurrence, via: 'webhook' | 'sync'): EventEnvelope {
  const data: ProviderRecurrenceUpdated = {
    account_id: account._id,
    provider: account.provider,
    provider_recurrence_id: recurrence.providerRecurrenceId,
    status: recurrence.status,
    provider_status: recurrence.providerStatus,
    ...(recurrence.cycleChargeIds ? { cycle_charge_ids: recurrence.cycleChargeIds } : {}),
    via,
  };
  return accountEvent(account, PROVIDER_RECURRENCE_UPDATED, data);
}

function cycleChargeUpdated(account: ProviderAccountDoc, charge: ProviderCycleCharge, via: 'webhook' | 'sync'): EventEnvelope {
  const data: ProviderCycleChargeUpdated = {
    account_id: account._id,
    provider: account.provider,
    provider_recurrence_id: charge.providerRecurrenceId,
    provider_charge_id: charge.providerChargeId,
    status: charge.status,
    provider_status: charge.providerStatus,
    amount: charge.amount,
    due_date: charge.dueDate,
    failed_attempts: charge.failedAttempts,
    ...(charge.nextAttemptDate ? { next_attempt_date: charge.nextAttemptDate } : {}),
    ...(charge.endToEndId ? { end_to_end_id: charge.endToEndId } : {}),
    via,
  };
  return accountEvent(account, PROVIDER_CYCLE_CHARGE_UPDATED, data);
}

function transferUpdated(account: ProviderAccountDoc, transfer: ProviderTransfer, via: 'webhook' | 'sync'): EventEnvelope {
  const data: ProviderTransferUpdated = {
    account_id: account._id,
    provider: account.provider,
    provider_transfer_id: transfer.providerTransferId,
    payout_id: transfer.payoutId,
    status: transfer.status,
    provider_status: transfer.providerStatus,
    amount: transfer.amount,
    ...(transfer.fee !== undefined ? { fee: transfer.fee } : {}),
    ...(transfer.failureCode ? { failure_code: transfer.failureCode } : {}),
    ...(transfer.failureReason ? { failure_reason: transfer.failureReason } : {}),
    ...(transfer.paidAt ? { paid_at: transfer.paidAt.toISOString() } : {}),
    via,
  };
  return accountEvent(account, PROVIDER_TRANSFER_UPDATED, data);
}

function subaccountUpdated(account: ProviderAccountDoc, subaccount: ProviderSubaccount, subaccountId: string | undefined, via: 'webhook' | 'sync'): EventEnvelope {
  const data: ProviderSubaccountUpdated = {
    account_id: account._id,
    provider: account.provider,
    provider_subaccount_id: subaccount.providerSubaccountId,
    ...(subaccountId ? { subaccount_id: subaccountId } : {}),
    status: subaccount.status,
    status_detail: subaccount.statusDetail,
    provider_status: subaccount.providerStatus,
    ...(subaccount.splitTarget ? { split_target: subaccount.splitTarget } : {}),
    via,
  };
  return accountEvent(account, PROVIDER_SUBACCOUNT_UPDATED, data);
}

/**
 * Receives a provider webhook for one connected account: the provider's own authenticity check,
 * then a fresh read of every charge, recurrence, cycle charge, transfer and subaccount it names (a webhook is a hint, the
 * provider's API is the truth), then one insert that both dedupes replays and carries the
 * resulting events (outbox).
 */
export class WebhookIntakeService {
  constructor(
    private readonly accounts: ProviderAccountService,
    private readonly receipts: WebhookReceiptModel,
    private readonly outbox: OutboxRelay,
    private readonly logger: Logger,
    private readonly subaccountSecrets: SubaccountSecrets,
  ) {}

  async handle(input: WebhookInput): Promise<WebhookAnswer> {
    const account = await this.accounts.getUnscoped(input.accountId);
    // An unknown account answers like a failed authentication: nothing to learn by probing ids.
    if (!account) return { httpStatus: 401, body: '' };
    const request = { subPath: input.subPath, query: input.query, headers: input.headers, rawBody: input.body };
    if (input.subPath === `/${SUBACCOUNT_WEBHOOK_SUB_PATH}`) return this.handleSubaccountEndpoint(account, request);
    const adapter = this.accounts.adapterFor(account);
    const payment = adapter.parseWebhook(request);
    // Pix Automático rides on the same URL: its parser reads the same delivery (both authenticate it alike).
    const recurrence = isRecurrenceCapable(adapter) ? adapter.parseRecurrenceWebhook(request) : undefined;
    const recurrenceEvents = recurrence?.ok ? recurrence.events : [];
    // Payouts too (a transfer's status change at the provider), read by the transfer parser.
    const transfer: TransferWebhookParseResult | undefined = isPayoutCapable(adapter) && adapter.parseTransferWebhook ? adapter.parseTransferWebhook(request) : undefined;
    const transfers = transfer?.ok ? transfer.transfers : [];
    // And subaccounts (a status change of one at the provider: Asaas ACCOUNT_STATUS_*, Pagar.me recipient.updated).
    const subaccount: SubaccountWebhookParseResult | undefined = isSubaccountCapable(adapter) && adapter.parseSubaccountWebhook ? adapter.parseSubaccountWebhook(request) : undefined;
    const subaccounts = subaccount?.ok ? subaccount.subaccounts : [];
    // A recurrence-only body (Efí's `{recs}`/`{cobsr}`), a transfer-only or a subaccount-only one is not a
    // payment notification: the payment parser may call it malformed, and that must not refuse what another read.
    const otherOnly = !payment.ok && payment.reason === 'malformed' && (recurrenceEvents.length > 0 || transfers.length > 0 || subaccounts.length > 0);
    if (!payment.ok && !otherOnly) {
      this.logger.warn({ account_id: account._id, reason: payment.reason }, 'provider webhook rejected');
      return { httpStatus: payment.httpStatus, body: '' };
    }
    if (recurrence && !recurrence.ok && payment.ok) {
      // The payment part is still read: refusing the delivery would only make the provider resend it.
      this.logger.warn({ account_id: account._id, reason: recurrence.reason }, 'Pix Automático part of a provider webhook unreadable');
    }
    if (transfer && !transfer.ok && (payment.ok || recurrenceEvents.length > 0)) {
      this.logger.warn({ account_id: account._id, reason: transfer.reason }, 'transfer part of a provider webhook unreadable');
    }
    if (subaccount && !subaccount.ok && (payment.ok || recurrenceEvents.length > 0 || transfers.length > 0)) {
      this.logger.warn({ account_id: account._id, reason: subaccount.reason }, 'subaccount part of a provider webhook unreadable');
    }
    const parsed = payment.ok ? payment : { providerPaymentIds: [], eventKey: '', cardDeclines: undefined, disputes: undefined, disputeIds: undefined };

    const events: EventEnvelope[] = [];
    for (const providerPaymentId of parsed.providerPaymentIds) {
      let charge: ProviderCharge;
      try {
        charge = await this.accounts.call(account, (a) => a.getCharge(providerPaymentId));
        const decline = parsed.cardDeclines?.[providerPaymentId];
        if (decline && charge.status === 'pending') charge = await this.declined(account, charge, decline);
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'not_found') continue;
        // The provider retries a webhook that was not acknowledged: nothing is lost by a 503 now.
        this.logger.warn({ account_id: account._id, err: (error as Error).message }, 'could not confirm webhook at the provider');
        return { httpStatus: 503, body: '' };
      }
      const data: ProviderChargeUpdated = {
        account_id: account._id,
        provider: account.provider,
        provider_payment_id: charge.providerPaymentId,
        status: charge.status,
        amount_paid: charge.amountPaid,
        ...(charge.endToEndId ? { end_to_end_id: charge.endToEndId } : {}),
        ...(charge.paidAt ? { paid_at: charge.paidAt.toISOString() } : {}),
        ...(charge.providerFee !== undefined ? { provider_fee: charge.providerFee } : {}),
        ...(charge.refunds && charge.refunds.length > 0 ? { refunds: charge.refunds.map(toRefundReport) } : {}),
        ...(charge.status === 'failed' && charge.failureCode ? { failure_code: charge.failureCode, failure_reason: charge.failureReason ?? '' } : {}),
        via: 'webhook',
      };
      events.push(accountEvent(account, PROVIDER_CHARGE_UPDATED, data));
    }

    // Disputes the webhook itself reports (Woovi MED, Stripe chargebacks): the body is signed, so it is the report.
    for (const reported of parsed.disputes ?? []) {
      const dispute = await this.withCharge(account, reported);
      if (!dispute) return { httpStatus: 503, body: '' };
      events.push(disputeEvent(account, dispute, 'webhook'));
    }
    // Disputes the webhook only names (Mercado Pago chargebacks): the provider's read is the report.
    for (const providerDisputeId of parsed.disputeIds ?? []) {
      let read: ProviderDispute | undefined;
      try {
        read = await this.accounts.call(account, (a) => (a.readDispute ? a.readDispute(providerDisputeId) : Promise.resolve(undefined)));
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'not_found') continue;
        this.logger.warn({ account_id: account._id, err: (error as Error).message }, 'could not read the reported dispute at the provider');
        return { httpStatus: 503, body: '' };
      }
      if (!read) continue;
      const dispute = await this.withCharge(account, read);
      if (!dispute) return { httpStatus: 503, body: '' };
      events.push(disputeEvent(account, dispute, 'webhook'));
    }

    const recurrenceUpdates = await this.readRecurrenceEvents(account, recurrenceEvents);
    if (!recurrenceUpdates) return { httpStatus: 503, body: '' };
    events.push(...recurrenceUpdates);

    const transferUpdates = await this.readTransfers(account, transfers);
    if (!transferUpdates) return { httpStatus: 503, body: '' };
    events.push(...transferUpdates);

    const subaccountUpdates = await this.readSubaccounts(account, subaccounts);
    if (!subaccountUpdates) return { httpStatus: 503, body: '' };
    events.push(...subaccountUpdates);

    // The recurrence parser's key when it read something: it tells apart what the payment key may
    // not (Woovi's retries of one cycle charge differ only by the attempts the recurrence part counts);
    // likewise the transfer parser's for a delivery about transfers, and the subaccount parser's.
    const eventKey =
      recurrence?.ok && recurrenceEvents.length > 0
        ? recurrence.eventKey
        : transfer?.ok && transfers.length > 0
          ? transfer.eventKey
          : subaccount?.ok && subaccounts.length > 0
            ? subaccount.eventKey
            : parsed.eventKey;
    return this.acknowledge(account, eventKey, parsed.providerPaymentIds, events);
  }

  /**
   * A delivery to the account's subaccount endpoint (Stripe Connect's `account.updated`),
   * authenticated by that endpoint's own signing secret: each subaccount it names is read back
   * (with its issued credential where it has one) and reported like any other.
   */
  private async handleSubaccountEndpoint(account: ProviderAccountDoc, request: WebhookRequest): Promise<WebhookAnswer> {
    const adapter = this.accounts.subaccountEndpointAdapterFor(account);
    if (!adapter || !isSubaccountCapable(adapter) || !adapter.parseSubaccountWebhook) return { httpStatus: 401, body: '' };
    const parsed = adapter.parseSubaccountWebhook(request);
    if (!parsed.ok) {
      this.logger.warn({ account_id: account._id, reason: parsed.reason }, 'subaccount webhook rejected');
      return { httpStatus: parsed.httpStatus, body: '' };
    }
    const events = await this.readSubaccounts(account, parsed.subaccounts);
    if (!events) return { httpStatus: 503, body: '' };
    return this.acknowledge(account, parsed.eventKey, [], events);
  }

  /**
   * The delivery's receipt, written once with the events it leads to in its outbox: a provider's
   * repeat of it (same event key) is answered 200 and changes nothing.
   */
  private async acknowledge(account: ProviderAccountDoc, eventKey: string, providerPaymentIds: string[], events: EventEnvelope[]): Promise<WebhookAnswer> {
    const receiptId = `${account._id}:${eventKey}`;
    try {
      await this.receipts.create({
        _id: receiptId,
        account_id: account._id,
        provider: account.provider,
        provider_payment_ids: providerPaymentIds,
        received_at: new Date(),
        outbox: outboxEntries(events),
        outbox_since: events.length > 0 ? new Date() : null,
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) {
        this.logger.info({ account_id: account._id }, 'replayed provider webhook ignored');
        return { httpStatus: 200, body: '' };
      }
      throw error;
    }
    void this.outbox.flush(this.receipts.collection, receiptId);
    return { httpStatus: 200, body: '' };
  }

  /**
   * The recurrences and cycle charges a delivery names, each read back at the provider (once per
   * id); one gone there is skipped, as a charge is. Undefined when the provider could not be asked
   * now: the webhook is answered 503 and the provider sends it again.
   */
  private async readRecurrenceEvents(account: ProviderAccountDoc, reported: readonly RecurrenceEvent[]): Promise<EventEnvelope[] | undefined> {
    const events: EventEnvelope[] = [];
    const seen = new Set<string>();
    for (const event of reported) {
      const key = event.type === 'recurrence' ? `rec:${event.providerRecurrenceId}` : `cycle:${event.providerChargeId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      try {
        const read = await this.accounts.call(account, (adapter) => {
          if (!isRecurrenceCapable(adapter)) return Promise.resolve(undefined);
          return event.type === 'recurrence'
            ? adapter.getRecurrence(event.providerRecurrenceId).then((r) => recurrenceUpdated(account, r, 'webhook'))
            : adapter
                .getCycleCharge({ providerRecurrenceId: event.providerRecurrenceId ?? '', providerChargeId: event.providerChargeId })
                .then((c) => cycleChargeUpdated(account, c, 'webhook'));
        });
        if (read) events.push(read);
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'not_found') continue;
        this.logger.warn({ account_id: account._id, err: (error as Error).message }, 'could not confirm Pix Automático webhook at the provider');
        return undefined;
      }
    }
    return events;
  }

  /**
   * The transfers a delivery names, each read back at the provider by our payout id (once per
   * transfer); one gone there is skipped. A transfer that names no payout id of ours was not made
   * by the payouts service (e.g. sent from the provider's panel): nothing there to apply it to.
   * Undefined when the provider could not be asked now: the webhook is answered 503 and resent.
   */
  private async readTransfers(account: ProviderAccountDoc, reported: ReadonlyArray<{ providerTransferId: string; payoutId?: string }>): Promise<EventEnvelope[] | undefined> {
    const events: EventEnvelope[] = [];
    const seen = new Set<string>();
    for (const { providerTransferId, payoutId } of reported) {
      if (seen.has(providerTransferId)) continue;
      seen.add(providerTransferId);
      if (!payoutId) {
        this.logger.info({ account_id: account._id, provider_transfer_id: providerTransferId }, 'transfer webhook about a transfer not made under a payout id: ignored');
        continue;
      }
      try {
        const read = await this.accounts.call(account, (adapter) =>
          isPayoutCapable(adapter) ? adapter.getTransfer({ payoutId, providerTransferId }).then((t) => transferUpdated(account, t, 'webhook')) : Promise.resolve(undefined),
        );
        if (read) events.push(read);
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'not_found') continue;
        this.logger.warn({ account_id: account._id, err: (error as Error).message }, 'could not confirm transfer webhook at the provider');
        return undefined;
      }
    }
    return events;
  }

  /**
   * The subaccounts a delivery names, each read back at the provider (once per id) as GetSubaccount
   * reads it: with the secret the provider issued for it (Asaas reads a subaccount's status only
   * with its own apiKey). The secrets are stored by our subaccount id with the provider's id beside
   * it, so a webhook naming only the provider's id (Asaas) finds both our id and the secret there.
   * A subaccount gone at the provider, or one it will not let us read (an Asaas subaccount not made
   * through us, so without its apiKey), is skipped: a retry would not change that. Undefined when
   * the provider could not be asked now: the webhook is answered 503 and resent.
   */
  private async readSubaccounts(account: ProviderAccountDoc, reported: ReadonlyArray<{ providerSubaccountId: string; subaccountId?: string }>): Promise<EventEnvelope[] | undefined> {
    const events: EventEnvelope[] = [];
    const seen = new Set<string>();
    for (const { providerSubaccountId, subaccountId } of reported) {
      if (seen.has(providerSubaccountId)) continue;
      seen.add(providerSubaccountId);
      try {
        const stored = await this.subaccountSecrets.findByProvider(account._id, providerSubaccountId);
        const read = await this.accounts.call(account, (adapter) =>
          isSubaccountCapable(adapter) ? adapter.getSubaccount(providerSubaccountId, stored?.secret) : Promise.resolve(undefined),
        );
        if (read) events.push(subaccountUpdated(account, read, subaccountId ?? stored?.subaccountId, 'webhook'));
      } catch (error) {
        if (error instanceof ProviderError && (error.kind === 'not_found' || error.kind === 'rejected')) {
          this.logger.info({ account_id: account._id, provider_subaccount_id: providerSubaccountId, reason: error.kind }, 'subaccount webhook about a subaccount the provider will not answer: ignored');
          continue;
        }
        this.logger.warn({ account_id: account._id, err: (error as Error).message }, 'could not confirm subaccount webhook at the provider');
        return undefined;
      }
    }
    return events;
  }

  /**
   * The dispute with the charge it is about, asked of the provider when the report names only the
   * Pix (the payment is found by its charge id). Undefined when the provider could not be asked now:
   * the webhook is answered 503 and the provider sends it again.
   */
  private async withCharge(account: ProviderAccountDoc, dispute: ProviderDispute): Promise<ProviderDispute | undefined> {
    if (dispute.providerPaymentId || !this.accounts.adapterFor(account).chargeOfDispute) return dispute;
    try {
      const charge = await this.accounts.call(account, (a) => (a.chargeOfDispute ? a.chargeOfDispute(dispute) : Promise.resolve(undefined)));
      return charge ? { ...dispute, providerPaymentId: charge } : dispute;
    } catch (error) {
      this.logger.warn({ account_id: account._id, err: (error as Error).message }, 'could not find the disputed charge at the provider');
      return undefined;
    }
  }

  /**
   * The buyer's card was refused on the provider's hosted checkout, which only the webhook says
   * (the charge itself stays open there). The payment fails, so the charge is removed first: a
   * failed payment must not be paid later by another card on the same page. Removing answers the
   * charge as it is after; if it was paid meanwhile, that wins. Only a charge that is really gone
   * fails the payment: one the provider would not remove (another card already in risk analysis
   * or authorized) stays pending here, and the provider's next webhook decides.
   */
  private async declined(account: ProviderAccountDoc, charge: ProviderCharge, decline: CardDeclineReport): Promise<ProviderCharge> {
    const after = await this.accounts.call(account, (a) => a.cancelCharge(charge.providerPaymentId));
    if (after.status !== 'canceled') {
      if (after.status === 'pending') this.logger.warn({ account_id: account._id, provider_payment_id: charge.providerPaymentId }, 'card refused but the charge is still open at the provider: left pending');
      return after;
    }
    return { ...after, status: 'failed', nextAction: { type: 'none' }, failureCode: decline.failureCode, failureReason: decline.failureReason };
  }
}
