/**
 * Transfers out of the account (`POST /v3/transfers` to a Pix key) and the balance they draw on
 * (`GET /v3/finance/balance`), as docs.asaas.com describes them ("Transferir para conta de outra
 * instituição ou chave Pix", "Recuperar saldo da conta", "Eventos para transferências"):
 * - a transfer starts `PENDING`, goes `BANK_PROCESSING`, then `DONE` or `FAILED` (with
 *   `failReason`); each change sends its `TRANSFER_*` webhook with `{transfer:{…}}`;
 * - the amount (plus `transferFee`) leaves the balance at once and comes back if it fails;
 * - more than the balance is refused (400); Asaas has no idempotency key: the same request twice
 *   makes two transfers, `externalReference` is only echoed.
 * The balance is what paid charges brought in (net of fees, less refunds), less transfers, plus
 * what the control port credited. Unconfirmed (no primary source): the error code and text of an
 * insufficient balance (`invalid_action`, "Saldo insuficiente…").
 *
 * Test hooks (control port, per account): the outcome of the next transfers (paid, failed, held in
 * BANK_PROCESSING until settled by hand), how long they take, and an answer that is lost (the
 * transfer is made, the answer comes late or never: "execute then time out").
 */
import { refill, Timers, type Logger } from '../../kit';
import { asaasErrors } from './asaas-errors';
import { newEndToEndId, newUuid } from './asaas-ids';
import { Reais } from './money-json';
import { spDate, spDateTime } from './sao-paulo-time';

export type TransferStatus = 'PENDING' | 'BANK_PROCESSING' | 'DONE' | 'FAILED' | 'CANCELLED';
export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
export const PIX_KEY_TYPES: readonly PixKeyType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'];

export interface StoredTransfer {
  id: string;
  accountId: string;
  valueCents: number;
  feeCents: number;
  status: TransferStatus;
  pixAddressKey: string;
  pixAddressKeyType: PixKeyType;
  description?: string;
  externalReference?: string;
  createdAt: Date;
  effectiveAt?: Date;
  endToEndId?: string;
  failReason?: string;
}

/** How the account's next transfers behave (control port); without one they are DONE after the emulator's delay. */
export interface TransferBehaviour {
  outcome: 'paid' | 'failed' | 'hold';
  /** Delay before the outcome (default: the emulator's `transferSettleMs`). */
  settleMs?: number;
  failureReason?: string;
  /** `lost`: the transfer is made but the answer is held `answerDelayMs` (never, without it). */
  answer: 'normal' | 'lost';
  answerDelayMs?: number;
}

export function transferJson(t: StoredTransfer) {
  return {
    object: 'transfer',
    id: t.id,
    type: 'PIX',
    dateCreated: spDate(t.createdAt),
    value: new Reais(t.valueCents),
    netValue: new Reais(t.valueCents),
    transferFee: new Reais(t.feeCents),
    status: t.status,
    effectiveDate: t.effectiveAt ? spDateTime(t.effectiveAt) : null,
    scheduleDate: spDate(t.createdAt),
    endToEndIdentifier: t.endToEndId ?? null,
    authorized: true,
    failReason: t.failReason ?? null,
    externalReference: t.externalReference ?? null,
    transactionReceiptUrl: t.status === 'DONE' ? `https://sandbox.asaas.com/comprovantes/transferencia/${t.id}` : null,
    operationType: 'PIX',
    description: t.description ?? null,
    pixAddressKey: t.pixAddressKey,
    pixAddressKeyType: t.pixAddressKeyType,
  };
}

const EVENT_OF: Record<TransferStatus, string> = {
  PENDING: 'TRANSFER_PENDING',
  BANK_PROCESSING: 'TRANSFER_IN_BANK_PROCESSING',
  DONE: 'TRANSFER_DONE',
  FAILED: 'TRANSFER_FAILED',
  CANCELLED: 'TRANSFER_CANCELLED',
};

/** The account's transfers, credits and test behaviours; money moves only through here. */
export class TransferBook {
  private readonly transfers = new Map<string, StoredTransfer>();
  /** Cents credited (or debited) by the control port, per account. */
  private readonly credits = new Map<string, number>();
  private readonly behaviours = new Map<string, TransferBehaviour>();

  constructor(private readonly now: () => Date) {}

  credit(accountId: string, cents: number): void {
    this.credits.set(accountId, (this.credits.get(accountId) ?? 0) + cents);
  }

  /** Credits less what live (not failed, not canceled) transfers took, fee included. */
  movedCents(accountId: string): number {
    let cents = this.credits.get(accountId) ?? 0;
    for (const t of this.transfers.values()) {
      if (t.accountId === accountId && t.status !== 'FAILED' && t.status !== 'CANCELLED') cents -= t.valueCents + t.feeCents;
    }
    return cents;
  }

  setBehaviour(accountId: string, behaviour: TransferBehaviour | undefined): void {
    if (behaviour) this.behaviours.set(accountId, behaviour);
    else this.behaviours.delete(accountId);
  }

  behaviourOf(accountId: string): TransferBehaviour | undefined {
    return this.behaviours.get(accountId);
  }

  /** Records a PENDING transfer when the balance covers it; throws Asaas's refusal otherwise. */
  create(input: Omit<StoredTransfer, 'id' | 'status' | 'createdAt'>, balanceCents: number): StoredTransfer {
    if (input.valueCents + input.feeCents > balanceCents) {
      throw asaasErrors.invalidAction(`Saldo insuficiente para realizar a transferência. Saldo disponível: R$ ${(balanceCents / 100).toFixed(2)}.`);
    }
    const transfer: StoredTransfer = { ...input, id: newUuid(), status: 'PENDING', createdAt: this.now() };
    this.transfers.set(transfer.id, transfer);
    return transfer;
  }

  get(accountId: string, id: string): StoredTransfer {
    const transfer = this.transfers.get(id);
    if (!transfer || transfer.accountId !== accountId) throw asaasErrors.notFound('Transferência');
    return transfer;
  }

  find(id: string): StoredTransfer | undefined {
    return this.transfers.get(id);
  }

  /** Newest first, as Asaas lists. */
  list(accountId: string): StoredTransfer[] {
    return [...this.transfers.values()].filter((t) => t.accountId === accountId).reverse();
  }

  count(accountId?: string): number {
    return accountId ? this.list(accountId).length : this.transfers.size;
  }

  clear(): void {
    this.transfers.clear();
    this.credits.clear();
    this.behaviours.clear();
  }

  snapshot() {
    return { transfers: this.transfers, credits: this.credits };
  }

  restore(snapshot: ReturnType<TransferBook['snapshot']> | undefined): void {
    refill(this.transfers, snapshot?.transfers);
    refill(this.credits, snapshot?.credits);
  }
}

/** Sends a transfer's webhook (webhook-sender.ts `accountEvent`). */
export type TransferNotifier = (accountId: string, event: string, transfer: unknown) => void;

/** Moves transfers through their statuses, by timer or by the control port, with their webhooks. */
export class TransferSettler {
  private readonly timers = new Timers();

  constructor(
    private readonly now: () => Date,
    private readonly notify: TransferNotifier,
    private readonly logger: Logger,
    private readonly settleAfterMs: number,
  ) {}

  /** After creation: to BANK_PROCESSING, then the behaviour's outcome (DONE by default) unless held. */
  schedule(transfer: StoredTransfer, behaviour: TransferBehaviour | undefined): void {
    this.notify(transfer.accountId, 'TRANSFER_CREATED', transferJson(transfer));
    this.timers.after(behaviour?.settleMs ?? this.settleAfterMs, () => {
      if (transfer.status !== 'PENDING') return;
      this.move(transfer, 'BANK_PROCESSING');
      const outcome = behaviour?.outcome ?? 'paid';
      if (outcome === 'hold') return;
      this.settle(transfer, outcome, behaviour?.failureReason);
    });
  }

  /** DONE or FAILED (the money returns); refused for a transfer already finished. */
  settle(transfer: StoredTransfer, outcome: 'paid' | 'failed', failureReason?: string): boolean {
    if (transfer.status !== 'PENDING' && transfer.status !== 'BANK_PROCESSING') return false;
    if (outcome === 'paid') {
      transfer.effectiveAt = this.now();
      transfer.endToEndId = newEndToEndId(transfer.effectiveAt);
      this.move(transfer, 'DONE');
    } else {
      transfer.failReason = failureReason ?? 'Chave Pix não encontrada na instituição de destino.';
      this.move(transfer, 'FAILED');
    }
    return true;
  }

  private move(transfer: StoredTransfer, status: TransferStatus): void {
    transfer.status = status;
    this.notify(transfer.accountId, EVENT_OF[status], transferJson(transfer));
    this.logger.info({ account: transfer.accountId, transfer: transfer.id, status }, 'transfer moved');
  }

  close(): void {
    this.timers.clear();
  }
}
