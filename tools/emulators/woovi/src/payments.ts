/**
 * Pix payments out of the account ("Pix Out") and the balance they draw on, as Woovi documents
 * them (developers.woovi.com "Fluxo Básico de Pagamento", "Payload de Pagamentos"):
 * - `POST /api/v1/payment {value (cents), destinationAlias, destinationAliasType, correlationID,
 *   comment?}` makes a payment `CREATED` (nothing leaves yet); the correlationID names it: a repeat
 *   answers the same payment;
 * - `POST /api/v1/payment/approve {correlationID}` sends it: the value leaves the balance (refused
 *   when the balance does not cover it), `APPROVED` while with the bank, then `CONFIRMED`
 *   (`OPENPIX:MOVEMENT_CONFIRMED`, with `transaction{value, endToEndId, time}`) or `FAILED`
 *   (`OPENPIX:MOVEMENT_FAILED`, with `error{code, description}`, the value back); approving again
 *   answers the payment as it is;
 * - `GET /api/v1/payment/{correlationID}` → `{payment, transaction?, error?}`.
 * The balance (`GET /api/v1/account/` → `{accounts:[{accountId, isDefault, balance:{total,
 * blocked, available}}]}`) is what paid charges brought in (less fee and refunds), less payments
 * approved and not failed, plus control credits. Unconfirmed (no primary source): the `APPROVED`
 * status word, the refusal text of an insufficient balance, the account answer's exact shape.
 *
 * Test hooks (control port, per account): the outcome of the next approvals (paid, failed, held
 * `APPROVED` until settled by hand), how long they take, and an approval whose answer is lost (the
 * payment is sent, the answer comes late or never: "execute then time out").
 */
import { refill, Timers, type Logger } from '../../kit';
import { newEndToEndId } from './woovi-ids';
import { wooviErrors } from './woovi-errors';

export type PaymentStatus = 'CREATED' | 'APPROVED' | 'CONFIRMED' | 'FAILED';
export type AliasType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'RANDOM';
export const ALIAS_TYPES: readonly AliasType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'];

export interface StoredPayment {
  accountId: string;
  correlationID: string;
  value: number;
  destinationAlias: string;
  destinationAliasType: AliasType;
  comment: string;
  status: PaymentStatus;
  createdAt: Date;
  transaction?: { endToEndId: string; time: Date };
  error?: { code: string; description: string };
}

/** How the account's next approvals go (control port); without one they are CONFIRMED after the emulator's delay. */
export interface PaymentBehaviour {
  outcome: 'paid' | 'failed' | 'hold';
  settleMs?: number;
  failureReason?: string;
  /** `lost`: the approval is carried out but its answer is held `answerDelayMs` (never, without it). */
  answer: 'normal' | 'lost';
  answerDelayMs?: number;
}

export function paymentJson(p: StoredPayment) {
  return {
    payment: {
      value: p.value,
      status: p.status,
      destinationAlias: p.destinationAlias,
      destinationAliasType: p.destinationAliasType,
      comment: p.comment,
      correlationID: p.correlationID,
      createdAt: p.createdAt.toISOString(),
    },
    ...(p.transaction ? { transaction: { value: p.value, endToEndId: p.transaction.endToEndId, time: p.transaction.time.toISOString() } } : {}),
    ...(p.error ? { error: p.error } : {}),
  };
}

export class PaymentBook {
  private readonly payments = new Map<string, StoredPayment>();
  private readonly credits = new Map<string, number>();
  private readonly behaviours = new Map<string, PaymentBehaviour>();

  constructor(private readonly now: () => Date) {}

  private static key(accountId: string, correlationID: string): string {
    return `${accountId}:${correlationID}`;
  }

  credit(accountId: string, cents: number): void {
    this.credits.set(accountId, (this.credits.get(accountId) ?? 0) + cents);
  }

  /** Credits less what approved payments (not failed) took. */
  movedCents(accountId: string): number {
    let cents = this.credits.get(accountId) ?? 0;
    for (const p of this.payments.values()) if (p.accountId === accountId && (p.status === 'APPROVED' || p.status === 'CONFIRMED')) cents -= p.value;
    return cents;
  }

  setBehaviour(accountId: string, behaviour: PaymentBehaviour | undefined): void {
    if (behaviour) this.behaviours.set(accountId, behaviour);
    else this.behaviours.delete(accountId);
  }

  behaviourOf(accountId: string): PaymentBehaviour | undefined {
    return this.behaviours.get(accountId);
  }

  /** A new CREATED payment, or the one this correlationID already names. */
  create(input: Omit<StoredPayment, 'status' | 'createdAt'>): StoredPayment {
    const existing = this.payments.get(PaymentBook.key(input.accountId, input.correlationID));
    if (existing) return existing;
    const payment: StoredPayment = { ...input, status: 'CREATED', createdAt: this.now() };
    this.payments.set(PaymentBook.key(input.accountId, input.correlationID), payment);
    return payment;
  }

  get(accountId: string, correlationID: string): StoredPayment {
    const payment = this.payments.get(PaymentBook.key(accountId, correlationID));
    if (!payment) throw wooviErrors.invalid('Pagamento não encontrado');
    return payment;
  }

  /** Any account's payment with this correlationID (the control port settles by id). */
  find(correlationID: string): StoredPayment | undefined {
    return [...this.payments.values()].find((p) => p.correlationID === correlationID);
  }

  list(accountId: string): StoredPayment[] {
    return [...this.payments.values()].filter((p) => p.accountId === accountId);
  }

  count(): number {
    return this.payments.size;
  }

  clear(): void {
    this.payments.clear();
    this.credits.clear();
    this.behaviours.clear();
  }

  snapshot() {
    return { payments: this.payments, credits: this.credits };
  }

  restore(snapshot: ReturnType<PaymentBook['snapshot']> | undefined): void {
    refill(this.payments, snapshot?.payments);
    refill(this.credits, snapshot?.credits);
  }
}

/** Sends a payment's webhook (`{event, payment, transaction?, error?}`, company added by the sender). */
export type PaymentNotifier = (accountId: string, event: string, payload: Record<string, unknown>, correlationID: string) => void;

/** Approves payments (balance checked) and moves them to CONFIRMED or FAILED, by timer or by hand. */
export class PaymentSettler {
  private readonly timers = new Timers();

  constructor(
    private readonly now: () => Date,
    private readonly notify: PaymentNotifier,
    private readonly logger: Logger,
    private readonly settleAfterMs: number,
  ) {}

  /** CREATED → APPROVED when `balance` covers it (else Woovi's refusal); a payment past CREATED is left as it is. */
  approve(payment: StoredPayment, balance: number, behaviour: PaymentBehaviour | undefined): void {
    if (payment.status !== 'CREATED') return;
    if (payment.value > balance) throw wooviErrors.invalid('Saldo insuficiente para realizar o pagamento');
    payment.status = 'APPROVED';
    this.timers.after(behaviour?.settleMs ?? this.settleAfterMs, () => {
      const outcome = behaviour?.outcome ?? 'paid';
      if (outcome !== 'hold') this.settle(payment, outcome, behaviour?.failureReason);
    });
  }

  /** CONFIRMED or FAILED (the value back) from APPROVED; false for any other status. */
  settle(payment: StoredPayment, outcome: 'paid' | 'failed', failureReason?: string): boolean {
    if (payment.status !== 'APPROVED') return false;
    const time = this.now();
    if (outcome === 'paid') {
      payment.status = 'CONFIRMED';
      payment.transaction = { endToEndId: newEndToEndId(time), time };
    } else {
      payment.status = 'FAILED';
      payment.error = { code: 'PAY_PIX_KEY_ERROR', description: failureReason ?? 'Falha ao Pagar Chave Pix' };
    }
    const event = outcome === 'paid' ? 'OPENPIX:MOVEMENT_CONFIRMED' : 'OPENPIX:MOVEMENT_FAILED';
    this.notify(payment.accountId, event, { event, ...paymentJson(payment) }, payment.correlationID);
    this.logger.info({ account: payment.accountId, payment: payment.correlationID, status: payment.status }, 'payment settled');
    return true;
  }

  close(): void {
    this.timers.clear();
  }
}
