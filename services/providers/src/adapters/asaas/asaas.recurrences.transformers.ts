/**
 * Asaas Pix Automático wire types and pure conversions (psp-apis.md §3, §8; docs.asaas.com
 * "Pix Automático"): our recurrence input → `POST /v3/pix/automatic/authorizations`, an
 * authorization and a cycle payment → ours (exhaustive status maps), and the webhook events.
 *
 * Asaas offers journey 3 only (an immediate QR code whose payment approves), and we ask it to
 * create each cycle's charge itself (paymentCreationMode SUBSCRIPTION), which needs a fixed
 * amount: a variable amount or nothing paid at approval is refused before any request, naming the
 * field. Asaas's own retries of a failed debit are not set through the API (§8 names no field), so
 * `retry` is not sent.
 */
import { assertNever } from '@orquestra/platform';
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
import type { JsonDecimal } from './asaas.json';
import { centsToReais, reaisToCents, type AsaasPayment, type AsaasPaymentStatus, type DecimalText } from './asaas.transformers';

export type AsaasAuthorizationStatus = 'CREATED' | 'ACTIVE' | 'CANCELLED' | 'REFUSED' | 'EXPIRED';
export type AsaasFrequency = 'WEEKLY' | 'MONTHLY' | 'QUARTERLY' | 'SEMIANNUALLY' | 'ANNUALLY';

export interface AsaasAuthorizationRequest {
  customerId: string;
  frequency: AsaasFrequency;
  contractId: string;
  startDate: string;
  finishDate?: string;
  value: JsonDecimal;
  paymentCreationMode: 'SUBSCRIPTION';
  description?: string;
  immediateQrCode: { originalValue: JsonDecimal; expirationSeconds: number; description?: string };
}

export interface AsaasAuthorization {
  id: string;
  status: AsaasAuthorizationStatus;
  customerId: string;
  contractId: string;
  immediateQrCode?: { paymentId?: string; payload?: string; encodedImage?: string } | null;
}

/** A cycle: a Pix payment carrying its authorization. */
export type AsaasCyclePayment = AsaasPayment & { pixAutomaticAuthorizationId?: string | null };

/** The events an authorization's changes send (docs.asaas.com "Eventos para Pix Automático"). */
export const AUTHORIZATION_EVENTS = [
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED',
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED',
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED',
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED',
  'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_EXPIRED',
] as const;

const FREQUENCY: Record<RecurrenceFrequency, AsaasFrequency> = {
  weekly: 'WEEKLY',
  monthly: 'MONTHLY',
  quarterly: 'QUARTERLY',
  semiannually: 'SEMIANNUALLY',
  annually: 'ANNUALLY',
};

/** `contractId` ≤ 35 characters (the Banco Central `contrato`); `description` ≤ 140. */
const CONTRACT_MAX = 35;
const DESCRIPTION_MAX = 140;

const refuseField = (name: string, publicMessage: string) =>
  new ProviderError('rejected', 'provider_rejected', `asaas recurrence: ${name} not accepted`, undefined, { name, publicMessage });

export function buildAuthorizationRequest(input: CreateRecurrenceInput, customerId: string): AsaasAuthorizationRequest {
  if (input.amount === undefined) {
    throw refuseField('amount', 'A Asaas cria sozinha a cobrança de cada ciclo e só aceita assinaturas de valor fixo: informe amount.');
  }
  if (!input.firstAmount) {
    throw refuseField('first_amount', 'Na Asaas a assinatura é aprovada pagando um primeiro valor: informe first_amount maior que zero.');
  }
  if (input.subscriptionId.length > CONTRACT_MAX) throw new RangeError(`subscription id longer than ${CONTRACT_MAX} characters`);
  const description = Array.from(input.description.trim()).slice(0, DESCRIPTION_MAX).join('');
  return {
    customerId,
    frequency: FREQUENCY[input.frequency],
    contractId: input.subscriptionId,
    startDate: input.startDate,
    ...(input.endDate ? { finishDate: input.endDate } : {}),
    value: centsToReais(input.amount),
    paymentCreationMode: 'SUBSCRIPTION',
    ...(description ? { description } : {}),
    immediateQrCode: { originalValue: centsToReais(input.firstAmount), expirationSeconds: input.approvalExpiresInSeconds, ...(description ? { description } : {}) },
  };
}

export function mapAuthorizationStatus(status: AsaasAuthorizationStatus): RecurrenceStatus {
  switch (status) {
    case 'CREATED':
      return 'pending';
    case 'ACTIVE':
      return 'active';
    case 'CANCELLED':
      return 'canceled';
    case 'REFUSED':
      return 'refused';
    case 'EXPIRED':
      return 'expired';
    default:
      return assertNever(status);
  }
}

/**
 * A cycle payment's status. PENDING waits for its debit date; a debit Asaas could not make leaves
 * it OVERDUE (final for us: Asaas does not say it retries). Everything after a settled debit
 * (refunds, chargebacks, dunning) is still a paid cycle: those are the payment's own story.
 */
export function mapCycleStatus(payment: Pick<AsaasCyclePayment, 'status' | 'deleted'>): CycleChargeStatus {
  if (payment.deleted) return 'canceled';
  const status: AsaasPaymentStatus = payment.status;
  switch (status) {
    case 'PENDING':
    case 'AWAITING_RISK_ANALYSIS':
    case 'AUTHORIZED':
      return 'scheduled';
    case 'OVERDUE':
      return 'failed';
    case 'RECEIVED':
    case 'CONFIRMED':
    case 'RECEIVED_IN_CASH':
    case 'REFUNDED':
    case 'REFUND_REQUESTED':
    case 'REFUND_IN_PROGRESS':
    case 'CHARGEBACK_REQUESTED':
    case 'CHARGEBACK_DISPUTE':
    case 'AWAITING_CHARGEBACK_REVERSAL':
    case 'DUNNING_REQUESTED':
    case 'DUNNING_RECEIVED':
      return 'paid';
    default:
      return assertNever(status);
  }
}

export function toProviderRecurrence(authorization: AsaasAuthorization, cycleChargeIds?: string[]): ProviderRecurrence {
  const status = mapAuthorizationStatus(authorization.status);
  const qr = authorization.immediateQrCode;
  return {
    providerRecurrenceId: authorization.id,
    status,
    providerStatus: authorization.status,
    cycles: 'provider',
    ...(status === 'pending' && qr?.payload ? { approval: { qrCode: qr.payload, ...(qr.encodedImage ? { qrCodeBase64: qr.encodedImage } : {}) } } : {}),
    ...(qr?.paymentId ? { approvalChargeId: qr.paymentId } : {}),
    ...(cycleChargeIds ? { cycleChargeIds } : {}),
  };
}

export function toProviderCycleCharge(payment: AsaasCyclePayment, providerRecurrenceId: string): ProviderCycleCharge {
  const status = mapCycleStatus(payment);
  return {
    providerChargeId: payment.id,
    providerRecurrenceId,
    status,
    providerStatus: payment.deleted ? 'DELETED' : payment.status,
    amount: reaisToCents(payment.value as DecimalText),
    dueDate: payment.dueDate,
    failedAttempts: payment.status === 'OVERDUE' ? 1 : 0,
    ...(status === 'scheduled' ? { nextAttemptDate: payment.dueDate } : {}),
  };
}

const AUTHORIZATION_STATUSES: readonly string[] = ['CREATED', 'ACTIVE', 'CANCELLED', 'REFUSED', 'EXPIRED'];

/**
 * The recurrence events of one authenticated delivery (asaas.webhook.ts has read `event` and the
 * payment): an authorization event → its status; a PAYMENT_* event of a cycle → the cycle's. A
 * Pix Automático event without a readable authorization is malformed; anything else has none.
 */
export function recurrenceEventsOf(event: string, body: { authorization?: unknown; payment?: unknown }): RecurrenceEvent[] | 'malformed' {
  if ((AUTHORIZATION_EVENTS as readonly string[]).includes(event)) {
    const authorization = body.authorization as Partial<AsaasAuthorization> | null | undefined;
    if (typeof authorization?.id !== 'string' || !AUTHORIZATION_STATUSES.includes(String(authorization.status))) return 'malformed';
    const status = authorization.status as AsaasAuthorizationStatus;
    return [{ type: 'recurrence', providerRecurrenceId: authorization.id, status: mapAuthorizationStatus(status), providerStatus: status }];
  }
  const payment = body.payment as Partial<AsaasCyclePayment> | null | undefined;
  if (!event.startsWith('PAYMENT_') || typeof payment?.pixAutomaticAuthorizationId !== 'string' || typeof payment.id !== 'string') return [];
  const cycle = { status: payment.status as AsaasPaymentStatus, deleted: payment.deleted === true || event === 'PAYMENT_DELETED' };
  let status: CycleChargeStatus;
  try {
    status = mapCycleStatus(cycle);
  } catch {
    // A payment status Asaas has not documented: not guessed.
    return 'malformed';
  }
  return [{ type: 'cycle', providerChargeId: payment.id, providerRecurrenceId: payment.pixAutomaticAuthorizationId, status, providerStatus: cycle.deleted ? 'DELETED' : String(payment.status) }];
}
