import { modeFromName, providers as providersContract } from '@orquestra/contracts';
import { AppError, DueWorker, newId, type RpcClient } from '@orquestra/platform';
import type { FilterQuery } from 'mongoose';
import type { Logger } from 'pino';
import type { DisputeDoc } from '../db/dispute.model';
import type { DisputeStore } from '../db/dispute.store';
import type { PaymentStore } from '../db/payment.store';
import {
  DEFAULT_REASON,
  disputableAmount,
  disputeKindFor,
  dueAtFor,
  SANDBOX_DECISION_DELAY_MS,
  sandboxOutcome,
  type DisputeStatus,
} from '../domain/disputes';
import { planReports } from '../domain/refunds';
import type { CallerScope } from '../db/payment-filters';

/** How long the provider catalog (which providers take evidence) is reused. */
const CATALOG_TTL_MS = 5 * 60_000;

/**
 * Disputes: simulated in test mode (as the payer's bank would open them), answered with evidence
 * where the provider takes evidence, decided (sandbox: by the evidence text; unanswered by the
 * deadline: lost). A lost dispute returns the disputed amount to the payer: it is recorded on the
 * payment as a refund with `source: provider`, so the payment becomes `partially_refunded` or
 * `refunded` and `amount_refunded` grows, with the usual refund and payment events.
 */
export class DisputesService {
  readonly worker: DueWorker<DisputeDoc>;
  private catalog: { at: number; evidence: Map<string, boolean> } | undefined;

  constructor(
    readonly store: DisputeStore,
    private readonly payments: PaymentStore,
    private readonly providers: RpcClient<typeof providersContract.ProvidersServiceService>,
    private readonly logger: Logger,
  ) {
    this.worker = new DueWorker<DisputeDoc>({
      name: 'dispute-decisions',
      collection: store.collection,
      logger,
      pollIntervalMs: 500,
      handle: (dispute) => this.decide(dispute),
    });
  }

  async simulate(paymentId: string, scope: CallerScope, input: { amount: number; reason: string }): Promise<DisputeDoc> {
    if (scope.mode !== 'test') throw new AppError('live_mode_forbidden');
    const payment = await this.payments.findForCaller(paymentId, scope);
    const kind = disputeKindFor(payment.method);
    const left = disputableAmount(payment);
    if (!kind || (payment.status !== 'succeeded' && payment.status !== 'partially_refunded') || left === 0) {
      throw new AppError('payment_not_disputable');
    }
    const active = await this.store.activeFor(payment._id);
    if (active) throw new AppError('payment_not_disputable', { message: `Já existe uma disputa em andamento para este pagamento (${active._id}).` });
    if (input.amount > left) {
      throw new AppError('parameter_invalid', { param: 'amount', message: `O valor contestado não pode passar do que foi pago e não reembolsado (${left} centavos).` });
    }
    const now = new Date();
    const answerDue = dueAtFor(kind, now);
    return this.store.insert({
      _id: newId('dispute'),
      merchant_id: payment.merchant_id,
      mode: payment.mode,
      payment_id: payment._id,
      provider: payment.provider,
      provider_account_id: payment.provider_account_id,
      kind,
      status: 'open',
      amount: input.amount > 0 ? input.amount : left,
      reason: input.reason || DEFAULT_REASON[kind],
      answer_due_at: answerDue,
      evidence: null,
      source_key_id: payment.source_key_id ?? '',
      created_at: now,
      updated_at: now,
      closed_at: null,
      // Unanswered by the deadline, the dispute is lost.
      due_at: answerDue,
    });
  }

  get(id: string, scope: CallerScope): Promise<DisputeDoc> {
    return this.store.find(id, scope);
  }

  async list(
    scope: CallerScope,
    query: { status: string; paymentId: string; limit: number; startingAfter: string },
  ): Promise<{ disputes: DisputeDoc[]; hasMore: boolean }> {
    const filter: FilterQuery<DisputeDoc> = { merchant_id: scope.merchantId, mode: scope.mode };
    if (query.status) filter.status = query.status;
    if (query.paymentId) filter.payment_id = query.paymentId;
    const after = query.startingAfter ? await this.store.find(query.startingAfter, scope) : undefined;
    return this.store.list(filter, query.limit, after);
  }

  async submitEvidence(id: string, scope: CallerScope, evidence: { text: string; urls: string[] }): Promise<DisputeDoc> {
    const current = await this.store.find(id, scope);
    if (current.status !== 'open') throw new AppError('dispute_not_open', { param: 'id' });
    if (current.source === 'provider') return this.defendAtProvider(current, evidence);
    if (!(await this.acceptsEvidence(current.provider))) throw new AppError('dispute_evidence_not_supported', { param: 'id' });
    const now = new Date();
    const decision = scope.mode === 'test' ? sandboxOutcome(evidence.text) : undefined;
    const updated = await this.store.change(id, (fresh) =>
      fresh.status === 'open'
        ? {
            status: 'under_review',
            event: 'dispute.updated',
            set: {
              evidence: { text: evidence.text, urls: evidence.urls, submitted_at: now },
              // Sandbox: decide shortly (as a provider would, asynchronously); live: the provider decides.
              due_at: decision ? new Date(now.getTime() + SANDBOX_DECISION_DELAY_MS) : null,
            },
          }
        : null,
    );
    if (!updated) throw new AppError('dispute_not_open');
    return updated;
  }

  /**
   * A dispute opened at the provider is answered there: the defense goes through the providers
   * service first (before any write; a provider that takes no defense by API answers
   * dispute_evidence_not_supported), then the dispute records it and goes under_review. The
   * provider's decision arrives later by webhook or poll.
   */
  private async defendAtProvider(current: DisputeDoc, evidence: { text: string; urls: string[] }): Promise<DisputeDoc> {
    if (current.accepts_evidence === false || !current.provider_dispute_id) throw new AppError('dispute_evidence_not_supported', { param: 'id' });
    await this.providers.submitDisputeEvidence({
      ref: { merchant_id: current.merchant_id, mode: modeFromName(current.mode), account_id: current.provider_account_id, provider_payment_id: '' },
      provider_dispute_id: current.provider_dispute_id,
      text: evidence.text,
      urls: evidence.urls,
    });
    const now = new Date();
    const updated = await this.store.change(current._id, (fresh) =>
      fresh.status === 'open'
        ? { status: 'under_review', event: 'dispute.updated', set: { evidence: { text: evidence.text, urls: evidence.urls, submitted_at: now }, due_at: null } }
        : null,
    );
    // Decided at the provider meanwhile (reported by a poll between our read and now): say so.
    if (!updated) throw new AppError('dispute_not_open', { param: 'id' });
    return updated;
  }

  /** Due work: a sandbox decision after evidence, or the answer deadline of an open dispute. */
  private async decide(dispute: DisputeDoc): Promise<void> {
    let outcome: DisputeStatus | undefined;
    if (dispute.status === 'open') outcome = 'lost';
    else if (dispute.status === 'under_review' && dispute.mode === 'test' && dispute.evidence) outcome = sandboxOutcome(dispute.evidence.text);
    if (!outcome) {
      await this.store.clearDueWork(dispute);
      return;
    }
    if (outcome === 'lost') await this.returnToPayer(dispute);
    const decided = outcome;
    const now = new Date();
    const closed = await this.store.change(dispute._id, (fresh) =>
      fresh.status === dispute.status ? { status: decided, event: 'dispute.closed', set: { closed_at: now, due_at: null } } : null,
    );
    if (closed) this.logger.info({ dispute_id: dispute._id, payment_id: dispute.payment_id, outcome: decided }, 'dispute closed');
  }

  /** The payer gets the disputed amount back: a provider-side refund on the payment (idempotent). */
  async returnToPayer(dispute: DisputeDoc): Promise<void> {
    await this.payments.changeRefunds(dispute.payment_id, (fresh) => {
      // Refunds made meanwhile already returned part of it; never return more than was kept.
      const amount = Math.min(dispute.amount, disputableAmount(fresh));
      if (amount === 0) return null;
      return planReports(
        fresh,
        [
          {
            provider_refund_id: `dispute:${dispute._id}`,
            // A key of its own: never mistaken for a refund of ours still awaiting its provider id
            // (planReports would then leave it for later, and the dispute closes with it unrecorded).
            refund_key: `dispute:${dispute._id}`,
            amount,
            status: 'succeeded',
            reason: `Disputa ${dispute._id} perdida (${dispute.kind === 'med' ? 'MED' : 'chargeback'}).`,
          },
        ],
        new Date(),
        () => newId('refund'),
      );
    });
  }

  /** Whether the provider takes dispute evidence through its API (the providers catalog). */
  private async acceptsEvidence(provider: string): Promise<boolean> {
    if (!this.catalog || Date.now() - this.catalog.at > CATALOG_TTL_MS) {
      const { providers } = await this.providers.listProviders({});
      this.catalog = { at: Date.now(), evidence: new Map(providers.map((p) => [p.code, p.capabilities?.dispute_evidence === true])) };
    }
    return this.catalog.evidence.get(provider) === true;
  }
}
