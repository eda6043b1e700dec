/**
 * Over 300 lines: a delivery's due-work loop (claim, send, retry schedule, final outcome with its
 * outbox event) and the test send that reuses it form one lifecycle.
 */
import type { tracking } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newEvent, newId, withOutbox, type EventEnvelope, type OutboxRelay } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { DeliveryDoc, DeliveryModel, DeliveryStatus } from '../db/delivery.model';
import type { IntegrationDoc, IntegrationModel } from '../db/integration.model';
import type { SaleDoc } from '../db/sale.model';
import { stageRank } from '../domain/order-stage';
import { nextAttemptAt } from '../domain/retry-schedule';
import { ORDER_STAGES, type AdTool, type IntegrationKindId, type OrderStage, type ToolAnswer, type ToolEvent, type ToolPlan } from '../tools/ad-tool';
import { sendToolRequest } from '../tools/send';
import type { IntegrationsService } from './integrations.service';
import { toToolSale, type SalesService } from './sales.service';
import type { CallerScope } from './scope';
import type { VisitsService } from './visits.service';

export const DELIVERY_FAILED = 'integration.delivery_failed';

export interface DeliveriesOptions {
  toolTimeoutMs: number;
  retryScheduleMs: readonly number[];
  /** Runs a delivery's first attempt now (DueWorker.runNow), without waiting for a pass. */
  runNow: (delivery: DeliveryDoc) => void;
  /** Tells the worker of a retry planned for `at`. */
  kickAt: (at: Date) => void;
  /** Each finished attempt or decision, for the metrics (kind, outcome). */
  onOutcome?: (kind: IntegrationKindId, outcome: string) => void;
}

/** Outcomes of one attempt a delivery's record keeps (no secret: the tool's summary and answer). */
interface AttemptRecord {
  request_summary: string | null;
  response_status: number | null;
  response_body: string | null;
}

const isOrderStage = (event: ToolEvent): event is OrderStage => (ORDER_STAGES as readonly string[]).includes(event);
const lowerStages = (stage: OrderStage) => ORDER_STAGES.filter((other) => stageRank(other) < stageRank(stage));
const higherStages = (stage: OrderStage) => ORDER_STAGES.filter((other) => stageRank(other) > stageRank(stage));

/** The longest a test send waits for the tool: well within the gateway's 10 s deadline. */
export const TEST_SEND_TIMEOUT_MS = 5_000;

const REASON_TEXT = {
  integration_deleted: 'A integração foi excluída antes do envio.',
  integration_disabled: 'A integração está desativada: ative-a (PATCH /integrations/{id} com enabled true) para voltar a enviar vendas.',
  sales_changed: 'A integração deixou de receber vendas deste modo (campo sales alterado) antes do envio.',
  superseded: 'Um status mais recente do mesmo pedido foi enviado no lugar deste (o pedido nunca volta atrás na ferramenta).',
  tool_refused: 'A ferramenta recusou o envio (resposta 4xx): confira as credenciais e opções da integração; este envio não é repetido.',
  retries_exhausted: 'A ferramenta não respondeu em nenhuma das tentativas (1, 5 e 30 minutos, 2, 6, 12 e 24 horas): o envio foi abandonado.',
  tool_unavailable: 'A ferramenta não respondeu ao teste (fora do ar ou lenta); um teste não é repetido: tente de novo mais tarde.',
  test_interrupted: 'O teste foi interrompido (o serviço reiniciou durante o envio) e não é repetido: envie o teste de novo.',
  internal_error: 'Erro interno ao montar o envio; a equipe foi avisada pelos logs. Envie o teste de novo ou aguarde a correção.',
} as const;

/**
 * Deliveries: one send of one sale's event to one integration, retried on schedule while the tool
 * is down (due work: `due_at`, claimed by the DueWorker with a lease, so any replica may run it
 * and it survives restarts). A 4xx is final. Refusals and exhausted retries publish
 * `integration.delivery_failed` through the delivery's own outbox (same write as the status).
 */
export class DeliveriesService {
  constructor(
    private readonly deliveries: DeliveryModel,
    private readonly integrationsModel: IntegrationModel,
    private readonly integrations: IntegrationsService,
    private readonly sales: SalesService,
    private readonly visits: VisitsService,
    private readonly tools: Record<IntegrationKindId, AdTool>,
    private readonly outbox: OutboxRelay,
    private readonly logger: Logger,
    private readonly options: DeliveriesOptions,
  ) {}

  /**
   * A sale reached `stage`: one delivery per enabled integration of the merchant taking the
   * sale's mode, per tool event of the stage. The unique key makes a repeated call insert
   * nothing. For the attribution tool, the order's lower stages still pending are superseded:
   * the tool gets the newest status, never an older one after it.
   */
  async saleReached(sale: SaleDoc, stage: OrderStage): Promise<void> {
    const integrations = await this.integrations.enabledFor(sale.merchant_id, sale.mode);
    for (const integration of integrations) {
      const tool = this.tools[integration.kind];
      if (!tool) continue;
      for (const event of tool.eventsFor(stage)) {
        // An order is never sent a stage below where the sale already stands.
        if (isOrderStage(event) && stageRank(event) < sale.stage_rank) continue;
        const created = await this.insert(integration, sale, event, { test: sale.mode === 'test', nonce: '', dueAt: new Date() });
        if (isOrderStage(event)) {
          // Against the sale as it is now, not as it was read: a higher stage reached by an event
          // handled at the same time supersedes this one (its own call then supersedes it too).
          const current = await this.sales.get(sale._id);
          await this.supersedeLower(integration._id, sale._id, current?.stage && stageRank(current.stage) > stageRank(event) ? current.stage : event);
        }
        if (created) this.options.runNow(created);
      }
    }
  }

  private async insert(integration: IntegrationDoc, sale: SaleDoc, event: ToolEvent, how: { test: boolean; nonce: string; dueAt: Date | null }): Promise<DeliveryDoc | null> {
    const now = new Date();
    const doc: DeliveryDoc = {
      _id: newId('integrationDelivery'),
      merchant_id: sale.merchant_id,
      integration_id: integration._id,
      kind: integration.kind,
      payment_id: sale._id,
      mode: sale.mode,
      event,
      test: how.test,
      nonce: how.nonce,
      status: 'pending',
      reason: null,
      reason_text: null,
      attempts: 0,
      next_attempt_at: how.dueAt,
      sending_until: null,
      request_summary: null,
      response_status: null,
      response_body: null,
      created_at: now,
      updated_at: now,
      delivered_at: null,
      due_at: how.dueAt,
      outbox: [],
      outbox_since: null,
      outbox_lease: null,
    };
    try {
      await this.deliveries.create(doc);
      return doc;
    } catch (error) {
      if (isDuplicateKeyError(error)) return null;
      throw error;
    }
  }

  private async supersedeLower(integrationId: string, paymentId: string, stage: OrderStage): Promise<void> {
    const lower = lowerStages(stage);
    if (lower.length === 0) return;
    const now = new Date();
    await this.deliveries.updateMany(
      // One on its way to the tool is left to finish (it may well arrive): its answer is recorded,
      // and the higher stage waits for it.
      { integration_id: integrationId, payment_id: paymentId, nonce: '', status: 'pending', event: { $in: lower }, $or: [{ sending_until: null }, { sending_until: { $lte: now } }] },
      { $set: { status: 'superseded', reason: 'superseded', reason_text: REASON_TEXT.superseded, due_at: null, next_attempt_at: null, updated_at: now } },
    );
  }

  /**
   * One attempt of a claimed delivery (the DueWorker's handler; its `due_at` is the lease). Every
   * path ends in one write that sets `due_at` to null or to the next attempt.
   */
  async attempt(claimed: DeliveryDoc, logger: Logger = this.logger): Promise<void> {
    // A test send found here was left by a process that stopped during its one synchronous try
    // (its due time is only a safety net): a test is never retried.
    if (claimed.nonce !== '') return this.finish(claimed, 'failed', 'test_interrupted', null);
    const integration = await this.integrationsModel.findById(claimed.integration_id).lean<IntegrationDoc>();
    if (!integration) return this.finish(claimed, 'not_sent', 'integration_deleted', null);
    if (!integration.enabled) return this.finish(claimed, 'not_sent', 'integration_disabled', null);
    // Its `sales` may have changed since the send was scheduled (a retry up to a day later).
    if (integration.sales !== 'both' && integration.sales !== claimed.mode) return this.finish(claimed, 'not_sent', 'sales_changed', null);
    const tool = this.tools[integration.kind];
    const sale = await this.sales.get(claimed.payment_id);
    // Deliveries are made from a stored sale: its absence is a bug or a lost database, not a tool's fault.
    if (!sale) throw new Error(`sale ${claimed.payment_id} of delivery ${claimed._id} not found`);
    const now = new Date();
    if (isOrderStage(claimed.event) && claimed.nonce === '') {
      // Never backwards: a higher stage of this order already reached the tool.
      const higher = await this.deliveries.exists({ integration_id: claimed.integration_id, payment_id: claimed.payment_id, nonce: '', status: 'delivered', event: { $in: higherStages(claimed.event) } });
      if (higher) return this.finish(claimed, 'superseded', 'superseded', null);
      // A lower stage may still be on its way to the tool: this one goes after it has arrived.
      const inFlight = await this.deliveries.exists({ integration_id: claimed.integration_id, payment_id: claimed.payment_id, nonce: '', event: { $in: lowerStages(claimed.event) }, sending_until: { $gt: now } });
      if (inFlight) {
        const at = new Date(now.getTime() + 500);
        await this.deliveries.updateOne({ _id: claimed._id, status: 'pending' }, { $set: { due_at: at } });
        return this.options.kickAt(at);
      }
    }
    const visit = await this.visits.get(claimed.payment_id);
    const plan = this.planSafely(() => tool.plan(toToolSale(sale, visit), claimed.event, this.integrations.configOf(integration), { test: claimed.test, now }), claimed, logger);
    if (!plan) return this.finish(claimed, 'failed', 'internal_error', null);
    if (!plan.send) return this.finish(claimed, 'not_sent', plan.reason, null, plan.reasonText);
    if (isOrderStage(claimed.event)) {
      // Marked on its way only while still pending: one superseded meanwhile is not sent at all,
      // and a higher stage checking for one on its way sees this mark (written before the send).
      const marked = await this.deliveries.updateOne(
        { _id: claimed._id, status: 'pending' },
        { $set: { sending_until: new Date(Date.now() + this.options.toolTimeoutMs + 1_000) } },
      );
      if (marked.matchedCount === 0) return;
    }
    const answer = await sendToolRequest(plan.request, { timeoutMs: this.options.toolTimeoutMs, tool });
    const record: AttemptRecord = { request_summary: JSON.stringify(plan.request.summary), response_status: answer.status, response_body: answer.body };
    logger.info({ delivery_id: claimed._id, kind: integration.kind, event: claimed.event, outcome: answer.outcome, status: answer.status }, 'delivery attempt');
    return this.afterAnswer(claimed, answer, record, { retries: claimed.nonce === '' });
  }

  /**
   * A tool's plan is pure; one that throws is a bug. The delivery fails (internal_error) rather
   * than being retried after every lease forever, and the log says why (no sale data in it).
   */
  private planSafely(plan: () => ToolPlan, delivery: DeliveryDoc, logger: Logger): ToolPlan | undefined {
    try {
      return plan();
    } catch (error) {
      logger.error({ delivery_id: delivery._id, kind: delivery.kind, event: delivery.event, err: (error as Error).message }, 'tool plan failed');
      return undefined;
    }
  }

  private async afterAnswer(claimed: DeliveryDoc, answer: ToolAnswer, record: AttemptRecord, { retries }: { retries: boolean }): Promise<void> {
    if (answer.outcome === 'delivered') return this.finish(claimed, 'delivered', null, record);
    if (answer.outcome === 'refused') return this.finish(claimed, 'failed', 'tool_refused', record);
    if (!retries) return this.finish(claimed, 'failed', 'tool_unavailable', record);
    const attempts = claimed.attempts + 1;
    const next = nextAttemptAt(attempts, this.options.retryScheduleMs, new Date());
    if (!next) return this.finish(claimed, 'failed', 'retries_exhausted', record);
    const updated = await this.deliveries
      .findOneAndUpdate(
        { _id: claimed._id, status: 'pending' },
        { $set: { ...record, attempts, due_at: next, next_attempt_at: next, sending_until: null, updated_at: new Date() } },
        { new: true },
      )
      .lean<DeliveryDoc>()
      .exec();
    if (!updated) await this.recordOnly(claimed, attempts, record);
    else this.options.kickAt(next);
    this.options.onOutcome?.(claimed.kind, 'retry');
  }

  /**
   * The delivery's final status in one write (with `integration.delivery_failed` in its outbox
   * when it failed). Conditional on still pending: a delivery superseded while its attempt was
   * on the way keeps that status, and only the attempt's record is added.
   */
  private async finish(claimed: DeliveryDoc, status: DeliveryStatus, reason: string | null, record: AttemptRecord | null, reasonText?: string): Promise<void> {
    const now = new Date();
    const attempts = record ? claimed.attempts + 1 : claimed.attempts;
    const set: Partial<DeliveryDoc> = {
      status,
      reason,
      reason_text: reason ? (reasonText ?? REASON_TEXT[reason as keyof typeof REASON_TEXT] ?? null) : null,
      attempts,
      due_at: null,
      next_attempt_at: null,
      sending_until: null,
      updated_at: now,
      ...(record ?? {}),
      ...(status === 'delivered' ? { delivered_at: now } : {}),
    };
    // Tests are answered to the merchant who asked for them: no event.
    const publish = status === 'failed' && claimed.nonce === '';
    const after = { ...claimed, ...set } as DeliveryDoc;
    const update = publish ? withOutbox({ $set: set }, [deliveryFailedEvent(after)]) : { $set: set };
    const updated = await this.deliveries.findOneAndUpdate({ _id: claimed._id, status: 'pending' }, update, { new: true }).lean<DeliveryDoc>().exec();
    if (!updated) {
      if (record) await this.recordOnly(claimed, attempts, record, status === 'delivered' ? now : null);
      return;
    }
    this.options.onOutcome?.(claimed.kind, reason ?? status);
    if (publish) await this.outbox.flush(this.deliveries.collection, claimed._id);
  }

  private async recordOnly(claimed: DeliveryDoc, attempts: number, record: AttemptRecord, deliveredAt: Date | null = null): Promise<void> {
    await this.deliveries.updateOne(
      { _id: claimed._id },
      { $set: { ...record, attempts, sending_until: null, updated_at: new Date(), ...(deliveredAt ? { delivered_at: deliveredAt } : {}) } },
    );
  }

  /** An integration was deleted: its pending sends are dropped (kept as not sent, with the reason). */
  async integrationDeleted(integration: IntegrationDoc): Promise<void> {
    await this.deliveries.updateMany(
      { integration_id: integration._id, status: 'pending' },
      { $set: { status: 'not_sent', reason: 'integration_deleted', reason_text: REASON_TEXT.integration_deleted, due_at: null, next_attempt_at: null, updated_at: new Date() } },
    );
  }

  /** GET /integrations/{id}/deliveries: newest first, by pages (`starting_after`), optionally one payment's. */
  async list(scope: CallerScope, request: tracking.ListDeliveriesRequest): Promise<{ data: DeliveryDoc[]; hasMore: boolean }> {
    await this.integrations.get(scope, request.integration_id);
    const limit = request.limit === 0 ? 20 : request.limit;
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError('parameter_invalid', { param: 'limit', message: 'limit deve ser um número inteiro de 1 a 100.' });
    const filter: Record<string, unknown> = { integration_id: request.integration_id };
    // A test key reads test sales' sends only, even of an integration that took live sales before
    // its `sales` was changed to test.
    if (scope.mode === 'test') filter.mode = 'test';
    if (request.payment_id) filter.payment_id = request.payment_id;
    if (request.starting_after) filter._id = { $lt: request.starting_after };
    const found = await this.deliveries.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<DeliveryDoc[]>();
    return { data: found.slice(0, limit), hasMore: found.length > limit };
  }

  /**
   * POST /integrations/{id}/test: the merchant's last approved sale (among the sales the
   * integration takes) sent as a test, once and now (no retries), kept as a test delivery with a
   * key of its own, so the same sale may be tested again.
   */
  async test(scope: CallerScope, integrationId: string): Promise<DeliveryDoc> {
    const integration = await this.integrations.get(scope, integrationId);
    const modes: Array<'test' | 'live'> = integration.sales === 'both' ? ['test', 'live'] : [integration.sales];
    const sale = await this.sales.lastApproved(scope.merchantId, modes);
    if (!sale) {
      throw new AppError('not_found', {
        param: 'integration',
        message: 'Nenhuma venda aprovada para enviar como teste: aprove um pagamento (no modo de vendas que a integração recebe) e tente de novo.',
      });
    }
    const tool = this.tools[integration.kind];
    const event = tool.eventsFor('paid')[0];
    if (!event) throw new Error(`tool ${integration.kind} sends nothing for an approved sale`);
    // Due only after the longest this call can take: the attempt runs here, once, and the answer is
    // the merchant's; the due time is there for a process that stops mid-try (the worker then
    // closes it as test_interrupted, never sending it).
    const delivery = await this.insert(integration, sale, event, { test: true, nonce: newId('request'), dueAt: new Date(Date.now() + this.options.toolTimeoutMs + 60_000) });
    if (!delivery) throw new Error('test delivery key collided');
    await this.attemptTest(delivery, integration, sale);
    const stored = await this.deliveries.findById(delivery._id).lean<DeliveryDoc>();
    if (!stored) throw new Error(`test delivery ${delivery._id} vanished`);
    return stored;
  }

  private async attemptTest(delivery: DeliveryDoc, integration: IntegrationDoc, sale: SaleDoc): Promise<void> {
    const tool = this.tools[integration.kind];
    const visit = await this.visits.get(sale._id);
    const plan = this.planSafely(() => tool.plan(toToolSale(sale, visit), delivery.event, this.integrations.configOf(integration), { test: true, now: new Date() }), delivery, this.logger);
    if (!plan) return this.finish(delivery, 'failed', 'internal_error', null);
    if (!plan.send) return this.finish(delivery, 'not_sent', plan.reason, null, plan.reasonText);
    // The merchant waits for this answer behind the gateway's deadline (10 s by default): the test
    // gets at most TEST_SEND_TIMEOUT_MS, so a hanging tool is answered as tool_unavailable, not a 503.
    const answer = await sendToolRequest(plan.request, { timeoutMs: Math.min(this.options.toolTimeoutMs, TEST_SEND_TIMEOUT_MS), tool });
    const record: AttemptRecord = { request_summary: JSON.stringify(plan.request.summary), response_status: answer.status, response_body: answer.body };
    return this.afterAnswer(delivery, answer, record, { retries: false });
  }
}

/** The public delivery (libs/contracts integrationDeliveryObjectSchema): no request, no answer body. */
export function publicDeliveryObject(doc: DeliveryDoc): Record<string, unknown> {
  return {
    id: doc._id,
    object: 'integration_delivery',
    integration_id: doc.integration_id,
    kind: doc.kind,
    payment_id: doc.payment_id,
    event: doc.event,
    test: doc.test,
    status: doc.status,
    reason: doc.reason,
    reason_text: doc.reason_text,
    attempts: doc.attempts,
    response_status: doc.response_status,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

function deliveryFailedEvent(doc: DeliveryDoc): EventEnvelope {
  return newEvent(DELIVERY_FAILED, { merchant_id: doc.merchant_id, mode: doc.mode }, publicDeliveryObject(doc));
}

const iso = (value: Date | null | undefined): string => (value ? value.toISOString() : '');

export function toProtoDelivery(doc: DeliveryDoc): tracking.Delivery {
  return {
    id: doc._id,
    integration_id: doc.integration_id,
    payment_id: doc.payment_id,
    event: doc.event,
    test: doc.test,
    status: doc.status,
    reason: doc.reason ?? '',
    reason_text: doc.reason_text ?? '',
    attempts: doc.attempts,
    next_attempt_at: doc.status === 'pending' ? iso(doc.next_attempt_at) : '',
    request_summary: doc.request_summary ?? '',
    response_status: doc.response_status ?? 0,
    response_body: doc.response_body ?? '',
    created_at: iso(doc.created_at),
    updated_at: iso(doc.updated_at),
    delivered_at: iso(doc.delivered_at),
  };
}
