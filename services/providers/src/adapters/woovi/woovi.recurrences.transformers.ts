/**
 * Woovi Pix Automático wire types and pure conversions (psp-apis.md §5, §8; developers.woovi.com
 * "Como criar um Pix Automático?"): our recurrence input → `POST /api/v1/subscriptions` with
 * `type: "PIX_RECURRING"`, a subscription and a cycle → ours (exhaustive status maps), and the
 * `PIX_AUTOMATIC_*` webhook events.
 *
 * What Woovi's facts allow: a fixed `value` only; Woovi creates each cycle's charge itself and
 * retries on its own (THREE_RETRIES_7_DAYS); the journey PAYMENT_ON_APPROVAL charges the first
 * cycle at approval (so the amount paid then is the cycle's amount, on the start date), and
 * ONLY_RECURRENCY approves without paying. The payer's address is required. What Woovi cannot
 * take is refused before any request, naming the field.
 */
import { assertNever, numericTaxId } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import { ProviderError } from '../provider-adapter';
import type {
  CreateRecurrenceInput,
  CycleChargeStatus,
  ProviderCycleCharge,
  ProviderRecurrence,
  RecurrenceEvent,
  RecurrenceFrequency,
  RecurrenceStatus,
} from '../provider-recurrences';
import { webhookObject } from '../webhook-body';
import { checkedValue, type WooviCharge, type WooviChargeStatus } from './woovi.transformers';

export type WooviSubscriptionStatus = 'PENDING' | 'ACTIVE' | 'REJECTED' | 'CANCELED' | 'EXPIRED';
export type WooviFrequency = 'WEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'SEMIANNUALLY' | 'ANNUALLY';

export interface WooviSubscriptionRequest {
  type: 'PIX_RECURRING';
  correlationID: string;
  value: number;
  customer: {
    name: string;
    taxID: string;
    address: { zipcode: string; street: string; number: string; neighborhood: string; city: string; state: string; complement?: string; country: 'BR' };
  };
  comment?: string;
  frequency: WooviFrequency;
  /** An ISO date: the first cycle's payment date. */
  dayGenerateCharge: string;
  /** Days a cycle's charge stays payable after its date; 7 makes room for every retry. */
  dayDue: number;
  pixRecurringOptions: { journey: 'ONLY_RECURRENCY' | 'PAYMENT_ON_APPROVAL'; retryPolicy: 'NON_PERMITED' | 'THREE_RETRIES_7_DAYS' };
}

export interface WooviCycle {
  dueDate: string;
  chargeCorrelationID: string;
  failedAttempts?: string[];
  nextAttempt?: string;
}

export interface WooviSubscription {
  globalID: string;
  correlationID: string;
  value: number;
  status: WooviSubscriptionStatus;
  pixRecurring?: { emv?: string; status?: string; approvalChargeCorrelationID?: string };
  cycles?: WooviCycle[];
}

export const RECURRENCE_EVENTS = [
  'PIX_AUTOMATIC_APPROVED',
  'PIX_AUTOMATIC_REJECTED',
  'PIX_AUTOMATIC_CANCELED',
  'PIX_AUTOMATIC_EXPIRED',
  'PIX_AUTOMATIC_COBR_COMPLETED',
  'PIX_AUTOMATIC_COBR_TRY_REJECTED',
  'PIX_AUTOMATIC_COBR_REJECTED',
] as const;

const FREQUENCY: Record<RecurrenceFrequency, WooviFrequency> = {
  weekly: 'WEEKLY',
  monthly: 'MONTHLY',
  quarterly: 'QUARTERLY',
  semiannually: 'SEMIANNUALLY',
  annually: 'ANNUALLY',
};

/** Woovi's `comment` (the contract shown to the payer) must be under 30 characters. */
const COMMENT_MAX = 29;
const DAY_DUE = 7;

const refuseField = (name: string, publicMessage: string) =>
  new ProviderError('rejected', 'provider_rejected', `woovi recurrence: ${name} not accepted`, undefined, { name, publicMessage });

export function buildSubscriptionRequest(input: CreateRecurrenceInput): WooviSubscriptionRequest {
  if (input.amount === undefined) throw refuseField('amount', 'A Woovi só aceita assinaturas de valor fixo: informe amount.');
  if (input.firstAmount && input.firstAmount !== input.amount) {
    throw refuseField('first_amount', 'Na Woovi o valor pago na aprovação é o do primeiro ciclo: omita first_amount ou informe o mesmo valor de amount.');
  }
  const address = input.payer.address;
  if (!address) throw refuseField('customer.address', 'A Woovi exige o endereço do pagador para o Pix Automático: informe customer.address.');
  const taxId = numericTaxId(input.payer.document);
  if (!taxId) throw refuseField('customer.document', 'Informe um CPF ou CNPJ válido do pagador.');
  const comment = Array.from(input.description.trim()).slice(0, COMMENT_MAX).join('');
  return {
    type: 'PIX_RECURRING',
    correlationID: input.subscriptionId,
    value: checkedValue(input.amount),
    customer: {
      name: input.payer.name.trim(),
      taxID: taxId.value,
      address: {
        zipcode: address.zip.replace(/\D/g, ''),
        street: address.street,
        number: address.number,
        neighborhood: address.neighborhood,
        city: address.city,
        state: address.state,
        ...(address.complement ? { complement: address.complement } : {}),
        country: 'BR',
      },
    },
    ...(comment ? { comment } : {}),
    frequency: FREQUENCY[input.frequency],
    // Noon in São Paulo: the same calendar day whatever the reader's zone.
    dayGenerateCharge: `${input.startDate}T12:00:00-03:00`,
    dayDue: DAY_DUE,
    pixRecurringOptions: { journey: input.firstAmount ? 'PAYMENT_ON_APPROVAL' : 'ONLY_RECURRENCY', retryPolicy: input.retry ? 'THREE_RETRIES_7_DAYS' : 'NON_PERMITED' },
  };
}

export function mapSubscriptionStatus(status: WooviSubscriptionStatus): RecurrenceStatus {
  switch (status) {
    case 'PENDING':
      return 'pending';
    case 'ACTIVE':
      return 'active';
    case 'REJECTED':
      return 'refused';
    case 'CANCELED':
      return 'canceled';
    case 'EXPIRED':
      return 'expired';
    default:
      return assertNever(status);
  }
}

/**
 * A cycle's charge with the subscription's record of its attempts. ACTIVE after a failed attempt
 * is `retrying` while Woovi has another scheduled, `failed` when none is left (the charge only
 * waits for its expiry); EXPIRED unpaid is `failed`.
 */
export function mapCycleStatus(status: WooviChargeStatus, cycle: Pick<WooviCycle, 'failedAttempts' | 'nextAttempt'>): CycleChargeStatus {
  switch (status) {
    case 'ACTIVE':
      if ((cycle.failedAttempts ?? []).length === 0) return 'scheduled';
      return cycle.nextAttempt ? 'retrying' : 'failed';
    case 'COMPLETED':
      return 'paid';
    case 'EXPIRED':
      return 'failed';
    default:
      return assertNever(status);
  }
}

export function toProviderRecurrence(subscription: WooviSubscription, qrCodeBase64?: string): ProviderRecurrence {
  const status = mapSubscriptionStatus(subscription.status);
  const qrCode = status === 'pending' ? subscription.pixRecurring?.emv : undefined;
  const approvalChargeId = subscription.pixRecurring?.approvalChargeCorrelationID;
  return {
    providerRecurrenceId: subscription.globalID,
    status,
    providerStatus: subscription.status,
    cycles: 'provider',
    ...(qrCode ? { approval: { qrCode, ...(qrCodeBase64 ? { qrCodeBase64 } : {}) } } : {}),
    ...(approvalChargeId ? { approvalChargeId } : {}),
    cycleChargeIds: (subscription.cycles ?? []).map((c) => c.chargeCorrelationID),
  };
}

export function toProviderCycleCharge(subscription: WooviSubscription, cycle: WooviCycle, charge: Pick<WooviCharge, 'status' | 'value'>): ProviderCycleCharge {
  const status = mapCycleStatus(charge.status, cycle);
  return {
    providerChargeId: cycle.chargeCorrelationID,
    providerRecurrenceId: subscription.globalID,
    status,
    providerStatus: charge.status,
    amount: charge.value,
    dueDate: cycle.dueDate,
    failedAttempts: (cycle.failedAttempts ?? []).length,
    ...(cycle.nextAttempt && charge.status === 'ACTIVE' ? { nextAttemptDate: cycle.nextAttempt } : {}),
  };
}

const SUBSCRIPTION_STATUSES: readonly string[] = ['PENDING', 'ACTIVE', 'REJECTED', 'CANCELED', 'EXPIRED'];
const CHARGE_STATUSES: readonly string[] = ['ACTIVE', 'COMPLETED', 'EXPIRED'];

/**
 * A `PIX_AUTOMATIC_*` body (`{event, subscription, charge?}`, authenticated by the caller) → its
 * event, keyed by what happened (Woovi sends no event id). Other bodies (charge events, the
 * registration test) are `other`.
 */
export function parseWooviRecurrenceWebhookBody(rawBody: Buffer): { kind: 'events'; eventKey: string; events: RecurrenceEvent[] } | { kind: 'other' } | { kind: 'malformed' } {
  const body = webhookObject(rawBody);
  if (!body) return { kind: 'malformed' };
  const { event, subscription, charge, data_criacao: createdAt } = body as { event?: unknown; subscription?: Partial<WooviSubscription>; charge?: Partial<WooviCharge>; data_criacao?: unknown };
  if (typeof event !== 'string' || !(RECURRENCE_EVENTS as readonly string[]).includes(event)) return { kind: 'other' };
  // The test notification Woovi posts when a webhook is created names the event and nothing else.
  if (subscription === undefined && createdAt !== undefined) return { kind: 'other' };
  if (typeof subscription?.globalID !== 'string' || !SUBSCRIPTION_STATUSES.includes(String(subscription.status))) return { kind: 'malformed' };
  const key = (what: string) => `woovi:${event}:${createHash('sha256').update(what).digest('hex').slice(0, 32)}`;
  if (!event.startsWith('PIX_AUTOMATIC_COBR_')) {
    const status = subscription.status as WooviSubscriptionStatus;
    return {
      kind: 'events',
      eventKey: key(`${subscription.globalID}|${status}`),
      events: [{ type: 'recurrence', providerRecurrenceId: subscription.globalID, status: mapSubscriptionStatus(status), providerStatus: status }],
    };
  }
  const correlationID = charge?.correlationID;
  if (typeof correlationID !== 'string' || !CHARGE_STATUSES.includes(String(charge?.status))) return { kind: 'malformed' };
  const cycle = (subscription.cycles ?? []).find((c) => c.chargeCorrelationID === correlationID) ?? {};
  const failures = (cycle as WooviCycle).failedAttempts ?? [];
  return {
    kind: 'events',
    eventKey: key(`${correlationID}|${String(charge?.status)}|${failures.join(',')}`),
    events: [
      {
        type: 'cycle',
        providerChargeId: correlationID,
        providerRecurrenceId: subscription.globalID,
        status: mapCycleStatus(charge?.status as WooviChargeStatus, cycle),
        providerStatus: `${event}:${String(charge?.status)}`,
      },
    ],
  };
}
