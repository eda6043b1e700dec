/**
 * Woovi Pix Automático calls, given the adapter's `api` (woovi.adapter.ts delegates here). Woovi
 * creates and retries each cycle's charge itself, so `createCycleCharge` is not applicable; a
 * cycle is read as its charge plus the subscription's record of its attempts.
 *
 * Idempotency: `correlationID` is our subscription id; Woovi refuses a second subscription with
 * it, and the repeat reads the first (`GET /subscriptions/{correlationID}`).
 */
import type { Dispatcher } from 'undici';
import type { HttpAnswer } from '../http/provider-http';
import type { RequestPurpose } from '../http/transport-errors';
import { ProviderError } from '../provider-adapter';
import {
  CycleChargeNotApplicableError,
  type CreateRecurrenceInput,
  type GetCycleChargeInput,
  type ProviderCycleCharge,
  type ProviderRecurrence,
} from '../provider-recurrences';
import { qrPngBase64 } from '../qr-png';
import { buildSubscriptionRequest, toProviderCycleCharge, toProviderRecurrence, type WooviSubscription } from './woovi.recurrences.transformers';
import { chargeOf, isCorrelationIdInUse, providerErrorFor } from './woovi.transformers';

type Api = (method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'read' | 'write', body?: unknown) => Promise<HttpAnswer>;

/** The subscription and its approval QR are created like a Pix: approving needs the code our answer carries. */
const CREATE_PIX: RequestPurpose = { operation: 'create', method: 'pix' };

const subscriptionPath = (id: string) => `/api/v1/subscriptions/${encodeURIComponent(id)}`;

function subscriptionOf(answer: HttpAnswer, what: string): WooviSubscription {
  const subscription = (answer.body as { subscription?: WooviSubscription } | undefined)?.subscription;
  if (subscription?.globalID) return subscription;
  throw new ProviderError('not_created', 'provider_error', `woovi ${what}: HTTP ${answer.status} without a readable subscription`, answer.status);
}

export class WooviRecurrences {
  constructor(private readonly api: Api) {}

  async create(input: CreateRecurrenceInput): Promise<ProviderRecurrence> {
    let body;
    try {
      body = buildSubscriptionRequest(input);
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      throw new ProviderError('rejected', 'provider_rejected', `woovi create subscription: ${(err as Error).message}`);
    }
    const answer = await this.api('POST', '/api/v1/subscriptions', CREATE_PIX, body);
    let subscription: WooviSubscription;
    if (answer.status === 200 || answer.status === 201) subscription = subscriptionOf(answer, 'create subscription');
    else if (isCorrelationIdInUse(answer.status, answer.body)) subscription = await this.read(input.subscriptionId);
    else throw providerErrorFor(answer.status, answer.body, 'create subscription');
    return this.withQr(subscription);
  }

  async get(id: string): Promise<ProviderRecurrence> {
    return this.withQr(await this.read(id));
  }

  /** DELETE cancels it and removes its open cycle charges; one already final is answered as it is. */
  async cancel(id: string): Promise<ProviderRecurrence> {
    const answer = await this.api('DELETE', subscriptionPath(id), 'write');
    if (answer.status === 200) return toProviderRecurrence(subscriptionOf(answer, 'cancel subscription'));
    const error = providerErrorFor(answer.status, answer.body, 'cancel subscription');
    if (error.kind !== 'rejected') throw error;
    const subscription = await this.read(id);
    if (subscription.status === 'PENDING' || subscription.status === 'ACTIVE') throw error;
    return toProviderRecurrence(subscription);
  }

  createCycleCharge(): Promise<ProviderCycleCharge> {
    return Promise.reject(new CycleChargeNotApplicableError('woovi'));
  }

  async getCycleCharge(input: GetCycleChargeInput): Promise<ProviderCycleCharge> {
    const subscription = await this.read(input.providerRecurrenceId);
    const cycle = (subscription.cycles ?? []).find((c) => c.chargeCorrelationID === input.providerChargeId);
    if (!cycle) throw new ProviderError('not_found', 'not_found', `woovi: no cycle charge ${input.providerChargeId} in subscription ${input.providerRecurrenceId}`);
    const answer = await this.api('GET', `/api/v1/charge/${encodeURIComponent(cycle.chargeCorrelationID)}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get cycle charge');
    const charge = chargeOf(answer.body);
    if (!charge) throw new ProviderError('not_created', 'provider_error', `woovi get cycle charge: HTTP ${answer.status} without a readable charge`, answer.status);
    return toProviderCycleCharge(subscription, cycle, charge);
  }

  private async read(id: string): Promise<WooviSubscription> {
    const answer = await this.api('GET', subscriptionPath(id), 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get subscription');
    return subscriptionOf(answer, 'get subscription');
  }

  private async withQr(subscription: WooviSubscription): Promise<ProviderRecurrence> {
    const code = subscription.status === 'PENDING' ? subscription.pixRecurring?.emv : undefined;
    return toProviderRecurrence(subscription, code ? await qrPngBase64(code) : undefined);
  }
}
