/**
 * Pix Automático as Asaas offers it (psp-apis.md §3, §8; event names and flows also from
 * docs.asaas.com "Eventos para Pix Automático", "Fluxos de Webhook", "FAQ"): authorizations
 * (`/v3/pix/automatic/authorizations`) created with an immediate QR code (journey 3 only: paying
 * it activates the authorization), status CREATED → ACTIVE | REFUSED, ACTIVE → EXPIRED (past
 * `finishDate`) | CANCELLED; cycles are charges (`POST /v3/payments` with
 * `pixAutomaticAuthorizationId`) the integrator creates (paymentCreationMode MANUAL) or, as §8
 * says, Asaas creates itself (SUBSCRIPTION).
 *
 * From Asaas's docs: the events `PIX_AUTOMATIC_RECURRING_AUTHORIZATION_{CREATED,ACTIVATED,
 * REFUSED,CANCELLED,EXPIRED}` with the authorization under `authorization`; an immediate QR code
 * that expires unpaid makes the authorization REFUSED; activation comes after PAYMENT_RECEIVED; a
 * cycle debited on its due date is PAYMENT_CONFIRMED; a debit that fails for lack of balance makes
 * the cycle OVERDUE (PAYMENT_OVERDUE).
 *
 * Decisions where the sources are silent:
 * - DELETE cancels an authorization (Asaas removes resources with DELETE); its pending cycle
 *   charges are removed with it, so nothing more is charged.
 * - With SUBSCRIPTION, Asaas creates each cycle's charge 10 calendar days before its due date (the
 *   earliest the rules allow), from `startDate` on; a cycle less than 2 days away when the
 *   authorization becomes active is skipped, as the rules forbid sending it that late. The
 *   immediate QR code is a payment of its own, not the first cycle. `value` is then required.
 * - A MANUAL cycle must fall in the authorization's dates, at its `value` when fixed, one per
 *   cycle, 2 calendar to 10 business days ahead; with SUBSCRIPTION manual cycles are refused.
 * - Asaas's retries (intraday, and the receiver's extra-day retry endpoint) and the
 *   `PIX_AUTOMATIC_RECURRING_PAYMENT_INSTRUCTION_*` events are not emulated.
 */
import { randomUUID } from 'node:crypto';
import { addDays, cycleDate, cycleIndexOf, inSendingWindow, refill, type Frequency } from '../../kit';
import { asaasErrors } from './asaas-errors';
import { Reais } from './money-json';
import { spDate, spDateTime } from './sao-paulo-time';

export type AuthorizationStatus = 'CREATED' | 'ACTIVE' | 'CANCELLED' | 'REFUSED' | 'EXPIRED';
export type PaymentCreationMode = 'MANUAL' | 'SUBSCRIPTION';
export const FREQUENCIES: readonly Frequency[] = ['WEEKLY', 'MONTHLY', 'QUARTERLY', 'SEMIANNUALLY', 'ANNUALLY'];

/** The events an authorization's changes send, by its new status. */
export const AUTHORIZATION_EVENTS: Record<AuthorizationStatus, string> = {
  CREATED: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED',
  ACTIVE: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED',
  REFUSED: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED',
  CANCELLED: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED',
  EXPIRED: 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_EXPIRED',
};

/** Days before a cycle's due date Asaas creates its charge in SUBSCRIPTION mode. */
const SUBSCRIPTION_LEAD_DAYS = 10;

export interface StoredAuthorization {
  id: string;
  accountId: string;
  customerId: string;
  contractId: string;
  frequency: Frequency;
  startDate: string;
  finishDate?: string;
  valueCents?: number;
  paymentCreationMode: PaymentCreationMode;
  description?: string;
  status: AuthorizationStatus;
  createdAt: Date;
  immediate: { paymentId: string; originalValueCents: number; expiresAt: Date; description?: string };
  /** SUBSCRIPTION: the cycles whose charge Asaas already created (or skipped). */
  cyclesDone: number[];
}

export function authorizationJson(a: StoredAuthorization, immediatePayload: string) {
  return {
    object: 'pixAutomaticAuthorization',
    id: a.id,
    status: a.status,
    dateCreated: spDateTime(a.createdAt),
    customerId: a.customerId,
    contractId: a.contractId,
    frequency: a.frequency,
    startDate: a.startDate,
    finishDate: a.finishDate ?? null,
    value: a.valueCents === undefined ? null : new Reais(a.valueCents),
    paymentCreationMode: a.paymentCreationMode,
    description: a.description ?? null,
    immediateQrCode: {
      paymentId: a.immediate.paymentId,
      originalValue: new Reais(a.immediate.originalValueCents),
      expirationDate: spDateTime(a.immediate.expiresAt),
      description: a.immediate.description ?? null,
      payload: immediatePayload,
    },
  };
}

export class AuthorizationBook {
  private readonly authorizations = new Map<string, StoredAuthorization>();

  constructor(private readonly now: () => Date) {}

  create(authorization: Omit<StoredAuthorization, 'id' | 'status' | 'createdAt' | 'cyclesDone'>): StoredAuthorization {
    const stored: StoredAuthorization = { ...authorization, id: randomUUID(), status: 'CREATED', createdAt: this.now(), cyclesDone: [] };
    this.authorizations.set(stored.id, stored);
    return stored;
  }

  get(accountId: string, id: string): StoredAuthorization {
    const found = this.authorizations.get(id);
    if (!found || found.accountId !== accountId) throw asaasErrors.notFound('Autorização');
    return found;
  }

  find(id: string): StoredAuthorization | undefined {
    return this.authorizations.get(id);
  }

  /** Newest first, as Asaas lists. */
  list(accountId: string, filter: (a: StoredAuthorization) => boolean): StoredAuthorization[] {
    return [...this.authorizations.values()].filter((a) => a.accountId === accountId && filter(a)).reverse();
  }

  /** The authorization waiting for this immediate charge to be paid. */
  activatedBy(paymentId: string): StoredAuthorization | undefined {
    return [...this.authorizations.values()].find((a) => a.immediate.paymentId === paymentId && a.status === 'CREATED');
  }

  /** CREATED → ACTIVE (paid) or REFUSED (declined in the bank app); false when not pending. */
  decide(authorization: StoredAuthorization, status: 'ACTIVE' | 'REFUSED'): boolean {
    if (authorization.status !== 'CREATED') return false;
    authorization.status = status;
    return true;
  }

  cancel(authorization: StoredAuthorization): void {
    if (authorization.status !== 'CREATED' && authorization.status !== 'ACTIVE') {
      throw asaasErrors.invalidAction(`Não é possível cancelar uma autorização com status ${authorization.status}.`);
    }
    authorization.status = 'CANCELLED';
  }

  /** What time did: immediate QR codes expired unpaid (REFUSED), active ones past `finishDate` (EXPIRED). */
  expireDue(): StoredAuthorization[] {
    const now = this.now();
    const today = spDate(now);
    const changed: StoredAuthorization[] = [];
    for (const authorization of this.authorizations.values()) {
      if (authorization.status === 'CREATED' && authorization.immediate.expiresAt.getTime() <= now.getTime()) authorization.status = 'REFUSED';
      else if (authorization.status === 'ACTIVE' && authorization.finishDate !== undefined && today > authorization.finishDate) authorization.status = 'EXPIRED';
      else continue;
      changed.push(authorization);
    }
    return changed;
  }

  /**
   * Checks a MANUAL cycle charge: `existingDueDates` are the due dates of the authorization's
   * charges still counting (not removed, not failed).
   */
  checkCycle(authorization: StoredAuthorization, customerId: string, dueDate: string, valueCents: number, existingDueDates: string[]): void {
    if (authorization.status !== 'ACTIVE') throw asaasErrors.invalidAction(`A autorização está ${authorization.status}: só uma autorização ACTIVE aceita cobranças.`);
    if (authorization.paymentCreationMode === 'SUBSCRIPTION') throw asaasErrors.invalidAction('Esta autorização cria as cobranças automaticamente (paymentCreationMode SUBSCRIPTION).');
    if (customerId !== authorization.customerId) throw asaasErrors.invalid('customer', 'O cliente da cobrança difere do cliente da autorização.');
    if (!inSendingWindow(spDate(this.now()), dueDate)) throw asaasErrors.invalid('dueDate', 'A cobrança deve ser criada de 2 a 10 dias antes do vencimento.');
    if (dueDate < authorization.startDate || (authorization.finishDate !== undefined && dueDate > authorization.finishDate)) {
      throw asaasErrors.invalid('dueDate', 'O vencimento está fora da vigência da autorização.');
    }
    if (authorization.valueCents !== undefined && valueCents !== authorization.valueCents) throw asaasErrors.invalid('value', 'O valor difere do valor fixo da autorização.');
    const cycle = cycleIndexOf(authorization.startDate, authorization.frequency, dueDate);
    if (existingDueDates.some((d) => cycleIndexOf(authorization.startDate, authorization.frequency, d) === cycle)) {
      throw asaasErrors.invalidAction('Já existe uma cobrança para este ciclo da autorização.');
    }
  }

  /** SUBSCRIPTION: the cycles whose charge is due to be created today, marked done. */
  cyclesToCreate(): { authorization: StoredAuthorization; dueDate: string }[] {
    const today = spDate(this.now());
    const due: { authorization: StoredAuthorization; dueDate: string }[] = [];
    for (const authorization of this.authorizations.values()) {
      if (authorization.status !== 'ACTIVE' || authorization.paymentCreationMode !== 'SUBSCRIPTION') continue;
      for (let index = 0; ; index += 1) {
        const dueDate = cycleDate(authorization.startDate, authorization.frequency, index);
        if (dueDate > addDays(today, SUBSCRIPTION_LEAD_DAYS) || (authorization.finishDate !== undefined && dueDate > authorization.finishDate)) break;
        if (authorization.cyclesDone.includes(index)) continue;
        authorization.cyclesDone.push(index);
        if (dueDate >= addDays(today, 2)) due.push({ authorization, dueDate });
      }
    }
    return due;
  }

  count(): number {
    return this.authorizations.size;
  }

  clear(): void {
    this.authorizations.clear();
  }

  snapshot(): Map<string, StoredAuthorization> {
    return this.authorizations;
  }

  restore(snapshot: Map<string, StoredAuthorization> | undefined): void {
    refill(this.authorizations, snapshot);
  }
}
