/**
 * Asaas Pix Automático calls, given the adapter's `api` and its customer lookup (asaas.adapter.ts
 * delegates here). Asaas creates each cycle's charge itself, so `createCycleCharge` is not
 * applicable; the cycles are read back as the payments carrying the authorization's id.
 *
 * Idempotency: Asaas takes no key, so `contractId` carries our subscription id and a create first
 * looks among the customer's authorizations for it. Two concurrent creates can both miss and both
 * create: the same accepted race as its Pix charges (asaas.adapter.ts), here harmless too since
 * only the QR code in our answer can approve one.
 */
import type { Dispatcher } from 'undici';
import type { HttpAnswer } from '../http/provider-http';
import type { RequestPurpose } from '../http/transport-errors';
import { ProviderError } from '../provider-adapter';
import { CycleChargeNotApplicableError, type CreateRecurrenceInput, type ProviderCycleCharge, type ProviderRecurrence, type RecurrenceEvent } from '../provider-recurrences';
import { errorCode, providerErrorFor } from './asaas.errors';
import { webhookObject } from '../webhook-body';
import { parseJsonExact } from './asaas.json';
import { buildAuthorizationRequest, recurrenceEventsOf, toProviderCycleCharge, toProviderRecurrence, type AsaasAuthorization, type AsaasCyclePayment } from './asaas.recurrences.transformers';
import { parseAsaasWebhookBody } from './asaas.webhook';
import { buildCustomerRequest, type AsaasCustomerRequest, type AsaasList } from './asaas.transformers';

type Api = (method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'prepare' | 'read' | 'write', body?: unknown) => Promise<HttpAnswer>;
type CustomerFor = (customer: AsaasCustomerRequest) => Promise<string>;

/** The authorization and its immediate QR code are created like a Pix: approving needs the code our answer carries. */
const CREATE_PIX: RequestPurpose = { operation: 'create', method: 'pix' };

/** Asaas's largest page. */
const PAGE = 100;

const authorizationPath = (id: string) => `/pix/automatic/authorizations/${encodeURIComponent(id)}`;

export class AsaasRecurrences {
  constructor(
    private readonly api: Api,
    private readonly customerFor: CustomerFor,
  ) {}

  async create(input: CreateRecurrenceInput): Promise<ProviderRecurrence> {
    const customer = buildCustomerRequest({ name: input.payer.name, document: input.payer.document });
    // Refusals of our input come before anything is created at Asaas.
    try {
      buildAuthorizationRequest(input, '');
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      throw new ProviderError('rejected', 'provider_rejected', `asaas create authorization: ${(err as Error).message}`);
    }
    const customerId = await this.customerFor(customer);
    const existing = await this.findByContract(customerId, input.subscriptionId);
    if (existing) return toProviderRecurrence(existing.immediateQrCode?.payload ? existing : await this.read(existing.id));
    const answer = await this.api('POST', '/pix/automatic/authorizations', CREATE_PIX, buildAuthorizationRequest(input, customerId));
    if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'create authorization');
    return toProviderRecurrence(answer.body as AsaasAuthorization);
  }

  async get(id: string): Promise<ProviderRecurrence> {
    const authorization = await this.read(id);
    return toProviderRecurrence(authorization, await this.cycleIds(authorization));
  }

  /** DELETE cancels it and removes its pending cycle charges; an authorization already final is answered as it is. */
  async cancel(id: string): Promise<ProviderRecurrence> {
    const answer = await this.api('DELETE', authorizationPath(id), 'write');
    const final = answer.status === 400 && errorCode(answer.body) === 'invalid_action';
    if (answer.status !== 200 && !final) throw providerErrorFor(answer.status, answer.body, 'cancel authorization');
    return this.get(id);
  }

  createCycleCharge(): Promise<ProviderCycleCharge> {
    return Promise.reject(new CycleChargeNotApplicableError('asaas'));
  }

  async getCycleCharge(paymentId: string): Promise<ProviderCycleCharge> {
    const answer = await this.api('GET', `/payments/${encodeURIComponent(paymentId)}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get cycle payment');
    const payment = answer.body as AsaasCyclePayment;
    if (!payment.pixAutomaticAuthorizationId) throw new ProviderError('not_found', 'not_found', `asaas: payment ${paymentId} is not a Pix Automático cycle`);
    return toProviderCycleCharge(payment, payment.pixAutomaticAuthorizationId);
  }

  private async read(id: string): Promise<AsaasAuthorization> {
    const answer = await this.api('GET', authorizationPath(id), 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get authorization');
    return answer.body as AsaasAuthorization;
  }

  private async findByContract(customerId: string, contractId: string): Promise<AsaasAuthorization | undefined> {
    const answer = await this.api('GET', `/pix/automatic/authorizations?customerId=${encodeURIComponent(customerId)}&limit=100`, 'prepare');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list authorizations');
    return (answer.body as AsaasList<AsaasAuthorization>).data.find((a) => a.contractId === contractId);
  }

  /**
   * The cycle charges Asaas created: the customer's payments carrying this authorization (the
   * payments list filters by customer; Asaas documents no filter by authorization). The immediate
   * QR code's payment is not a cycle.
   */
  private async cycleIds(authorization: AsaasAuthorization): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const answer = await this.api('GET', `/payments?customer=${encodeURIComponent(authorization.customerId)}&offset=${offset}&limit=${PAGE}`, 'read');
      if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list cycle payments');
      const page = answer.body as AsaasList<AsaasCyclePayment>;
      for (const p of page.data) if (p.pixAutomaticAuthorizationId === authorization.id && p.id !== authorization.immediateQrCode?.paymentId) ids.push(p.id);
      if (!page.hasMore || page.data.length === 0) return ids;
    }
  }
}

/** A delivery (`{id, event, payment?|authorization?}`) → its recurrence events, keyed by Asaas's event id. */
export function parseAsaasRecurrenceWebhookBody(rawBody: Buffer): { kind: 'events'; eventKey: string; events: RecurrenceEvent[] } | { kind: 'malformed' } {
  const parsed = parseAsaasWebhookBody(rawBody);
  if (parsed.kind === 'malformed') return parsed;
  const body = webhookObject(rawBody, parseJsonExact) as { authorization?: unknown; payment?: unknown };
  const events = recurrenceEventsOf(parsed.event, body);
  return events === 'malformed' ? { kind: 'malformed' } : { kind: 'events', eventKey: `asaas:${parsed.eventId}`, events };
}
