import { createHash } from 'node:crypto';
import type { ProviderDisputeUpdated } from '@orquestra/contracts';
import { isDuplicateKeyError } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { DisputeDoc } from '../db/dispute.model';
import type { DisputeStore } from '../db/dispute.store';
import type { PaymentDoc } from '../db/payment.model';
import type { PaymentStore } from '../db/payment.store';
import { DEFAULT_REASON, disputableAmount, disputeKindFor, dueAtFor, providerDisputeId, type DisputeStatus } from '../domain/disputes';

export type DisputeIntakeResult = 'created' | 'changed' | 'unchanged' | 'unknown_payment';

/**
 * Disputes opened at a provider (Efí infrações by poll, Woovi MED and Stripe chargebacks by webhook), reported by the
 * providers service as `internal.provider_dispute.updated`. The first report of a dispute creates
 * it (`dispute.created`); later ones move it (`dispute.updated` into under_review,
 * `dispute.closed` into won/lost/canceled). The provider decides these disputes, so no local
 * deadline is scheduled; a lost one returns the money to the payer as a provider refund.
 *
 * Idempotent: the dispute's id derives from (account, provider dispute id), its creation is one
 * insert on that `_id`, and a report that does not move the status changes nothing.
 */
export class ProviderDisputeIntake {
  constructor(
    private readonly disputes: DisputeStore,
    private readonly payments: PaymentStore,
    private readonly returnToPayer: (dispute: DisputeDoc) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  async apply(report: ProviderDisputeUpdated): Promise<DisputeIntakeResult> {
    const id = providerDisputeId(createHash('sha256').update(`${report.account_id}|${report.provider_dispute_id}`).digest());
    let current = await this.disputes.findById(id);
    let created = false;
    if (!current) {
      const payment = await this.paymentOf(report);
      if (!payment) return 'unknown_payment';
      current = await this.create(id, report, payment);
      created = current !== null;
      current ??= await this.disputes.findById(id);
      if (!current) return 'unknown_payment';
    }
    const moved = await this.move(current, report);
    if (created) return 'created';
    return moved ? 'changed' : 'unchanged';
  }

  /** The disputed payment: by the charge id when the provider names it, else by the Pix end-to-end id. */
  private async paymentOf(report: ProviderDisputeUpdated): Promise<PaymentDoc | null> {
    return this.payments.findByChargeOrEndToEnd(report.account_id, { providerPaymentId: report.provider_payment_id, endToEndId: report.end_to_end_id });
  }

  /** Inserts the dispute as open (dispute.created); null when another delivery inserted it first. */
  private async create(id: string, report: ProviderDisputeUpdated, payment: PaymentDoc): Promise<DisputeDoc | null> {
    const kind = report.kind ?? disputeKindFor(payment.method) ?? 'med';
    const now = new Date();
    const openedAt = report.opened_at ? new Date(report.opened_at) : now;
    // The provider's amount; a provider that does not say disputes what was paid and not refunded.
    const amount = report.amount ?? (disputableAmount(payment) || payment.amount);
    try {
      const doc = await this.disputes.insert({
        _id: id,
        merchant_id: payment.merchant_id,
        mode: payment.mode,
        payment_id: payment._id,
        provider: report.provider,
        provider_account_id: report.account_id,
        kind,
        status: 'open',
        amount,
        reason: report.reason ? `${DEFAULT_REASON[kind]} Motivo informado: ${report.reason}` : DEFAULT_REASON[kind],
        answer_due_at: report.answer_due_at ? new Date(report.answer_due_at) : dueAtFor(kind, openedAt),
        evidence: null,
        source_key_id: payment.source_key_id ?? '',
        created_at: now,
        updated_at: now,
        closed_at: null,
        source: 'provider',
        provider_dispute_id: report.provider_dispute_id,
        provider_status: report.provider_status,
        accepts_evidence: report.accepts_evidence,
        // The provider decides (and says so by webhook or poll): no local deadline.
        due_at: null,
      });
      this.logger.info({ dispute_id: id, payment_id: payment._id, provider: report.provider, via: report.via }, 'provider dispute opened');
      return doc;
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  /** Moves the dispute to the reported status when that is a step forward; otherwise nothing. */
  private async move(current: DisputeDoc, report: ProviderDisputeUpdated): Promise<boolean> {
    const target: DisputeStatus = report.status;
    if (target === current.status || target === 'open') return false;
    const closing = target === 'won' || target === 'lost' || target === 'canceled';
    // Return the money before closing: if this crashes in between, a redelivery finishes the job
    // (the provider refund is keyed by the dispute, so it is never recorded twice).
    if (target === 'lost' && (current.status === 'open' || current.status === 'under_review')) await this.returnToPayer(current);
    const now = new Date();
    const updated = await this.disputes.change(current._id, (fresh) =>
      fresh.status === target
        ? null
        : {
            status: target,
            event: closing ? 'dispute.closed' : 'dispute.updated',
            set: { provider_status: report.provider_status, due_at: null, ...(closing ? { closed_at: now } : {}) },
          },
    );
    if (updated) this.logger.info({ dispute_id: current._id, status: target, provider_status: report.provider_status }, 'provider dispute moved');
    return updated !== null;
  }
}
