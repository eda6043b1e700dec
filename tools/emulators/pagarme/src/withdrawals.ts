/**
 * Withdrawals ("saques") from the account's own recipient to its registered bank account, and the
 * balance they draw on, as Pagar.me v5 serves them (pagarme/pagarme-nodejs-sdk RecipientsController:
 * `GET /recipients/default`, `GET /recipients/{id}/balance` → `{currency, available_amount,
 * waiting_funds_amount, transferred_amount, recipient}` in cents, `POST /recipients/{id}/withdrawals
 * {amount, metadata?}`, `GET /recipients/{id}/withdrawals[/{withdrawal_id}]`):
 * - a withdrawal leaves the available balance at once and is `pending_transfer`, then
 *   `processing`, then `transferred` or `failed` (the money back); `idempotency-key` replays the
 *   first answer (idempotency.ts), so a repeat makes nothing new;
 * - more than is available is refused (412, wording the emulator's).
 * The available amount is what paid charges brought in less refunds, less withdrawals, plus control
 * credits; nothing is held as waiting funds here. Pagar.me's withdrawal webhooks are not emulated
 * (their events are not documented for v5): the status is read back.
 *
 * Test hooks (control port, per account): the outcome of the next withdrawals (paid, failed, held
 * `processing` until settled by hand), how long they take, and an answer that is lost (the
 * withdrawal is made, the answer comes late or never: "execute then time out").
 */
import { refill, Timers, type Logger } from '../../kit';
import { PagarmeApiError } from './pagarme-errors';
import { newWithdrawalId } from './pagarme-ids';

export type WithdrawalStatus = 'pending_transfer' | 'processing' | 'transferred' | 'failed' | 'canceled';

export interface StoredWithdrawal {
  id: string;
  accountId: string;
  recipientId: string;
  amount: number;
  fee: number;
  status: WithdrawalStatus;
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
  fundingDate?: Date;
  failureReason?: string;
}

export interface WithdrawalBehaviour {
  outcome: 'paid' | 'failed' | 'hold';
  settleMs?: number;
  failureReason?: string;
  answer: 'normal' | 'lost';
  answerDelayMs?: number;
}

/** The registered bank account every withdrawal goes to (the emulator's fixed sandbox one). */
export const DEFAULT_BANK_ACCOUNT = {
  holder_name: 'Orquestra Sandbox LTDA',
  holder_type: 'company',
  holder_document: '11222333000181',
  bank: '341',
  branch_number: '1234',
  branch_check_digit: '',
  account_number: '12345',
  account_check_digit: '6',
  type: 'checking',
  status: 'active',
};

export function withdrawalJson(w: StoredWithdrawal) {
  return {
    id: w.id,
    gateway_id: w.id.replace(/^tran_/, ''),
    amount: w.amount,
    fee: w.fee,
    status: w.status,
    type: 'ted',
    source: { source_id: w.recipientId, type: 'recipient' },
    target: { target_id: 'ba_default', type: 'bank_account', bank_account: DEFAULT_BANK_ACCOUNT },
    metadata: w.metadata,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
    funding_date: w.fundingDate?.toISOString() ?? null,
    ...(w.failureReason ? { failure_reason: w.failureReason } : {}),
  };
}

export class WithdrawalBook {
  private readonly withdrawals = new Map<string, StoredWithdrawal>();
  private readonly credits = new Map<string, number>();
  private readonly behaviours = new Map<string, WithdrawalBehaviour>();

  constructor(private readonly now: () => Date) {}

  credit(accountId: string, cents: number): void {
    this.credits.set(accountId, (this.credits.get(accountId) ?? 0) + cents);
  }

  /** Credits less live withdrawals (fee included). */
  movedCents(accountId: string): number {
    let cents = this.credits.get(accountId) ?? 0;
    for (const w of this.withdrawals.values()) if (w.accountId === accountId && w.status !== 'failed' && w.status !== 'canceled') cents -= w.amount + w.fee;
    return cents;
  }

  /** What transferred withdrawals took (`transferred_amount`). */
  transferredCents(accountId: string): number {
    return this.list(accountId).filter((w) => w.status === 'transferred').reduce((sum, w) => sum + w.amount, 0);
  }

  setBehaviour(accountId: string, behaviour: WithdrawalBehaviour | undefined): void {
    if (behaviour) this.behaviours.set(accountId, behaviour);
    else this.behaviours.delete(accountId);
  }

  behaviourOf(accountId: string): WithdrawalBehaviour | undefined {
    return this.behaviours.get(accountId);
  }

  create(input: { accountId: string; recipientId: string; amount: number; fee: number; metadata: Record<string, string> }, available: number): StoredWithdrawal {
    if (input.amount + input.fee > available) {
      throw new PagarmeApiError(412, { message: `Insufficient balance. Available amount: ${available}.` });
    }
    const now = this.now();
    const withdrawal: StoredWithdrawal = { ...input, id: newWithdrawalId(), status: 'pending_transfer', createdAt: now, updatedAt: now };
    this.withdrawals.set(withdrawal.id, withdrawal);
    return withdrawal;
  }

  get(accountId: string, id: string): StoredWithdrawal {
    const withdrawal = this.withdrawals.get(id);
    if (!withdrawal || withdrawal.accountId !== accountId) throw new PagarmeApiError(404, { message: 'Withdrawal not found.' });
    return withdrawal;
  }

  find(id: string): StoredWithdrawal | undefined {
    return this.withdrawals.get(id);
  }

  /** Newest first. */
  list(accountId: string): StoredWithdrawal[] {
    return [...this.withdrawals.values()].filter((w) => w.accountId === accountId).reverse();
  }

  count(): number {
    return this.withdrawals.size;
  }

  clear(): void {
    this.withdrawals.clear();
    this.credits.clear();
    this.behaviours.clear();
  }

  snapshot() {
    return { withdrawals: this.withdrawals, credits: this.credits };
  }

  restore(snapshot: ReturnType<WithdrawalBook['snapshot']> | undefined): void {
    refill(this.withdrawals, snapshot?.withdrawals);
    refill(this.credits, snapshot?.credits);
  }
}

/** Moves withdrawals to processing, then transferred or failed, by timer or by the control port. */
export class WithdrawalSettler {
  private readonly timers = new Timers();

  constructor(
    private readonly now: () => Date,
    private readonly logger: Logger,
    private readonly settleAfterMs: number,
  ) {}

  schedule(withdrawal: StoredWithdrawal, behaviour: WithdrawalBehaviour | undefined): void {
    this.timers.after(behaviour?.settleMs ?? this.settleAfterMs, () => {
      if (withdrawal.status !== 'pending_transfer') return;
      this.move(withdrawal, 'processing');
      const outcome = behaviour?.outcome ?? 'paid';
      if (outcome !== 'hold') this.settle(withdrawal, outcome, behaviour?.failureReason);
    });
  }

  /** transferred or failed from pending_transfer/processing; false once finished. */
  settle(withdrawal: StoredWithdrawal, outcome: 'paid' | 'failed', failureReason?: string): boolean {
    if (withdrawal.status !== 'pending_transfer' && withdrawal.status !== 'processing') return false;
    if (outcome === 'paid') {
      withdrawal.fundingDate = this.now();
      this.move(withdrawal, 'transferred');
    } else {
      withdrawal.failureReason = failureReason ?? 'Conta bancária inválida';
      this.move(withdrawal, 'failed');
    }
    return true;
  }

  private move(withdrawal: StoredWithdrawal, status: WithdrawalStatus): void {
    withdrawal.status = status;
    withdrawal.updatedAt = this.now();
    this.logger.info({ account: withdrawal.accountId, withdrawal: withdrawal.id, status }, 'withdrawal moved');
  }

  close(): void {
    this.timers.clear();
  }
}
