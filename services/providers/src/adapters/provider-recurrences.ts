/**
 * Pix Automático at the provider (psp-apis.md §8): a recurrence the payer approves once in the
 * bank app, then a charge per cycle debited on its due date without the payer acting. Optional
 * capability of an adapter (`RecurrenceCapable`); the subscriptions service drives it.
 *
 * Two shapes of provider: one where we send each cycle's charge inside its 2–10 day window (Efí,
 * Banco Central `cobr`), and one that creates the cycles itself once the recurrence is active
 * (Asaas with paymentCreationMode SUBSCRIPTION, Woovi PIX_RECURRING). `createRecurrence` says which
 * (`cycles`); the second kind refuses `createCycleCharge` with CycleChargeNotApplicableError and
 * reports its cycles through `getRecurrence` (`cycleChargeIds`) and webhooks.
 *
 * Amounts are integer cents; dates are São Paulo calendar dates `YYYY-MM-DD`.
 */
import { ProviderError, type AddressInput, type ProviderAdapter, type WebhookRequest } from './provider-adapter';

/** Our subscription statuses (services/subscriptions domain); every provider status maps onto one. */
export type RecurrenceStatus = 'pending' | 'active' | 'canceled' | 'refused' | 'expired';

export type RecurrenceFrequency = 'weekly' | 'monthly' | 'quarterly' | 'semiannually' | 'annually';

export interface CreateRecurrenceInput {
  /** Our subscription id: the provider-side contract, and what makes a repeated create find the first. */
  subscriptionId: string;
  payer: {
    name: string;
    /** CPF or CNPJ, digits or formatted. */
    document: string;
    /** Required by Woovi (refused naming `customer.address` without it); unused elsewhere. */
    address?: AddressInput;
  };
  frequency: RecurrenceFrequency;
  /** Cents per cycle; absent for a variable amount (each cycle charge says its own). */
  amount?: number;
  /** Cents paid at approval (journey 3: one QR pays it and approves the recurrence); 0 or absent: approval only. */
  firstAmount?: number;
  /** Shown to the payer in the bank app. */
  description: string;
  /** The first cycle's due date. */
  startDate: string;
  endDate?: string;
  /** Up to 3 retries within 7 calendar days after a failed debit (PERMITE_3R_7D). */
  retry: boolean;
  /** Seconds the approval QR stays payable (journey 3's immediate charge). */
  approvalExpiresInSeconds: number;
}

export interface RecurrenceApproval {
  /** Pix copy-and-paste code of the approval QR. */
  qrCode: string;
  qrCodeBase64?: string;
  url?: string;
}

export interface ProviderRecurrence {
  providerRecurrenceId: string;
  status: RecurrenceStatus;
  /** The provider's own status word, for support. */
  providerStatus: string;
  /** Who creates each cycle's charge: we (`createCycleCharge`) or the provider itself. */
  cycles: 'ours' | 'provider';
  /** While pending: what the payer scans to approve. */
  approval?: RecurrenceApproval;
  /**
   * When the approval also pays `firstAmount` (journey 3): that immediate charge, a plain Pix
   * charge of the account (`getCharge` reads it; its webhooks are the payment ones).
   */
  approvalChargeId?: string;
  /** Providers that create their own cycles: the charges they created so far. */
  cycleChargeIds?: string[];
}

/**
 * A cycle charge's state: `scheduled` (the payer's bank will debit it on its date), `paid`,
 * `retrying` (an attempt failed and the charge is still live: another attempt is scheduled, see
 * `nextAttemptDate`, or may still be asked for), `failed` (no more attempts), `canceled`.
 */
export type CycleChargeStatus = 'scheduled' | 'paid' | 'retrying' | 'failed' | 'canceled';

export interface CreateCycleChargeInput {
  providerRecurrenceId: string;
  /** Our payment id of the cycle: the charge's idempotency key. */
  paymentId: string;
  amount: number;
  dueDate: string;
  description?: string;
}

export interface GetCycleChargeInput {
  providerRecurrenceId: string;
  providerChargeId: string;
}

export interface ProviderCycleCharge {
  providerChargeId: string;
  providerRecurrenceId: string;
  status: CycleChargeStatus;
  providerStatus: string;
  amount: number;
  dueDate: string;
  /** Debit attempts that failed so far. */
  failedAttempts: number;
  /** The next attempt's date, when one is scheduled. */
  nextAttemptDate?: string;
  endToEndId?: string;
}

export interface RetryCycleChargeInput {
  providerChargeId: string;
  /** A date within 7 calendar days after the due date, after every earlier attempt. */
  date: string;
}

/** A change a webhook reports: of a recurrence, or of one cycle's charge. */
export type RecurrenceEvent =
  | { type: 'recurrence'; providerRecurrenceId: string; status: RecurrenceStatus; providerStatus: string }
  | { type: 'cycle'; providerChargeId: string; providerRecurrenceId?: string; status: CycleChargeStatus; providerStatus: string };

/**
 * `events` is empty for a delivery about something else (a plain Pix): the payment intake
 * (`parseWebhook`) still reads the same delivery, so nothing here replaces it.
 */
export type RecurrenceWebhookParseResult =
  | { ok: true; eventKey: string; events: RecurrenceEvent[] }
  | { ok: false; reason: 'unauthenticated' | 'malformed'; httpStatus: number };

/**
 * `createCycleCharge` at a provider that creates its own cycles. A `rejected` kind, so the circuit
 * breaker does not count it; `publicMessage` (pt-BR) is what the API answers.
 */
export class CycleChargeNotApplicableError extends ProviderError {
  readonly publicMessage: string;

  constructor(provider: string) {
    super('rejected', 'provider_rejected', `${provider} creates each cycle's charge itself`);
    this.name = 'CycleChargeNotApplicableError';
    this.publicMessage = 'Este provedor cria sozinho a cobrança de cada ciclo da assinatura: não envie cobranças manuais; acompanhe os ciclos em GET /subscriptions/{id}.';
  }
}

/**
 * Pix Automático for one account. Errors are ProviderError as for charges: a refusal of our input
 * is `rejected` with `param` when it names one field (a variable amount where the provider needs a
 * fixed one), `not_found` for an unknown id; what the wire says is the one table's
 * (http/transport-errors.ts), with a recurrence create read as a Pix create (its QR reaches the
 * payer only through our answer) and a cycle charge as a debit (`pix_automatico`: the payer's
 * bank debits it without anyone showing a code, so a lost answer is ambiguous, like card).
 *
 * @example
 * const rec = await adapter.createRecurrence({ subscriptionId: 'sub_01…', payer, frequency: 'monthly',
 *   amount: 4990, firstAmount: 4990, description: 'Plano mensal', startDate: '2026-03-10', retry: true,
 *   approvalExpiresInSeconds: 86_400 });
 * show(rec.approval?.qrCode);                         // the payer approves in the bank app
 * if (rec.cycles === 'ours') await adapter.createCycleCharge({ providerRecurrenceId: rec.providerRecurrenceId,
 *   paymentId: 'pay_01…', amount: 4990, dueDate: '2026-04-10' });
 */
export interface RecurrenceCapable {
  /** Idempotent on `subscriptionId`: a repeat answers the recurrence the first call made. */
  createRecurrence(input: CreateRecurrenceInput): Promise<ProviderRecurrence>;
  getRecurrence(providerRecurrenceId: string): Promise<ProviderRecurrence>;
  /** Stops the recurrence (and the provider's unpaid cycle charges); answers it as it is after. */
  cancelRecurrence(providerRecurrenceId: string): Promise<ProviderRecurrence>;
  /** Idempotent on `paymentId`. CycleChargeNotApplicableError where the provider makes its own cycles. */
  createCycleCharge(input: CreateCycleChargeInput): Promise<ProviderCycleCharge>;
  getCycleCharge(input: GetCycleChargeInput): Promise<ProviderCycleCharge>;
  /** Asks for another attempt after a failed one, where the receiver schedules retries (Banco Central `retentativa`). */
  retryCycleCharge?(input: RetryCycleChargeInput): Promise<ProviderCycleCharge>;
  /** Verifies and reads a delivery for recurrence and cycle changes. */
  parseRecurrenceWebhook(request: WebhookRequest): RecurrenceWebhookParseResult;
  /** Where the provider takes separate webhook URLs for recurrences (Efí `webhookrec`/`webhookcobr`). */
  registerRecurrenceWebhooks?(url: string): Promise<void>;
}

/** An adapter implements Pix Automático when it has RecurrenceCapable's required methods. */
export function isRecurrenceCapable(adapter: ProviderAdapter): adapter is ProviderAdapter & RecurrenceCapable {
  const candidate = adapter as Partial<RecurrenceCapable>;
  return typeof candidate.createRecurrence === 'function' && typeof candidate.getRecurrence === 'function' && typeof candidate.cancelRecurrence === 'function';
}
