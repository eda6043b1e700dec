/**
 * Pagar.me balance and withdrawals (PayoutCapable, provider-payouts.ts), given the adapter's `api`
 * call. Sources: pagarme/pagarme-nodejs-sdk (RecipientsController: `GET /recipients/default`, `GET
 * /recipients/{id}/balance` → `{available_amount, waiting_funds_amount, transferred_amount}` in
 * cents, `POST /recipients/{id}/withdrawals {amount, metadata}`, `GET
 * /recipients/{id}/withdrawals[/{withdrawal_id}]`), docs.pagar.me "Idempotência".
 *
 * A withdrawal ("saque") pays the recipient's registered bank account, and only it: the
 * destination is `account` only. The recipient is the account's own (default) one, unless the
 * account's settings name another (`settings.recipient_id`, for a marketplace's main recipient).
 *
 * Never twice: the create carries our payout id as `idempotency-key` (Pagar.me answers a repeat
 * within 24 h with the first answer) and in `metadata.payout_id`; getTransfer without Pagar.me's id
 * lists the recipient's withdrawals for the one whose metadata carries our id. Pagar.me documents
 * no webhook for withdrawals in v5: their status is read back (no parseTransferWebhook).
 */
import { ProviderError } from '../provider-adapter';
import type { CreateTransferInput, ProviderBalance, ProviderTransfer, TransferStatus } from '../provider-payouts';
import { errorMessage, providerErrorFor } from './pagarme.errors';

export interface PagarmeWithdrawal {
  id: string;
  amount: number;
  fee?: number | null;
  status: string;
  metadata?: Record<string, string> | null;
  funding_date?: string | null;
  updated_at?: string | null;
  failure_reason?: string | null;
}

/** `settings` key: the recipient whose balance is paid out (default: `GET /recipients/default`). */
export const RECIPIENT_SETTING = 'recipient_id';

/** Statuses of Pagar.me transfers; an unknown one is `processing` (money may be moving), never final. */
export function mapWithdrawalStatus(status: string): TransferStatus {
  switch (status) {
    case 'pending_transfer':
    case 'pending':
      return 'pending';
    case 'transferred':
    case 'paid':
      return 'paid';
    case 'failed':
      return 'failed';
    case 'canceled':
      return 'canceled';
    default:
      return 'processing';
  }
}

export function toProviderTransfer(withdrawal: PagarmeWithdrawal, payoutId: string): ProviderTransfer {
  const status = mapWithdrawalStatus(withdrawal.status);
  const paidAt = status === 'paid' ? new Date(withdrawal.funding_date ?? withdrawal.updated_at ?? '') : undefined;
  return {
    providerTransferId: withdrawal.id,
    payoutId: withdrawal.metadata?.['payout_id'] || payoutId,
    status,
    providerStatus: withdrawal.status,
    amount: withdrawal.amount,
    ...(typeof withdrawal.fee === 'number' ? { fee: withdrawal.fee } : {}),
    ...(status === 'failed'
      ? { failureCode: 'transfer_failed', failureReason: withdrawal.failure_reason ? `Pagar.me: ${withdrawal.failure_reason}` : 'Pagar.me: saque não realizado' }
      : {}),
    ...(status === 'canceled' ? { failureCode: 'transfer_canceled', failureReason: 'Pagar.me: saque cancelado' } : {}),
    ...(paidAt && !Number.isNaN(paidAt.getTime()) ? { paidAt } : {}),
  };
}

type Api = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: unknown }>;

/** The recipient paid out from: the configured one, else the account's default (asked once per adapter). */
export class PagarmeWithdrawals {
  #recipient: Promise<string> | undefined;

  constructor(
    private readonly api: Api,
    private readonly configuredRecipient: string | undefined,
  ) {}

  /** The account's main recipient: the one split rules give the remainder to. */
  recipient(): Promise<string> {
    if (this.configuredRecipient) return Promise.resolve(this.configuredRecipient);
    this.#recipient ??= this.api('GET', '/recipients/default', 'read').then((answer) => {
      const id = (answer.body as { id?: unknown } | undefined)?.id;
      if (answer.status === 200 && typeof id === 'string' && id.length > 0) return id;
      throw answer.status === 200 ? new ProviderError('not_created', 'provider_error', 'pagarme default recipient: answer without an id') : providerErrorFor(answer.status, answer.body, 'get default recipient');
    });
    // A failed look-up is asked again next time, not remembered.
    this.#recipient.catch(() => {
      this.#recipient = undefined;
    });
    return this.#recipient;
  }

  private async base(): Promise<string> {
    return baseOf(await this.recipient());
  }

  async balance(): Promise<ProviderBalance> {
    const answer = await this.api('GET', `${await this.base()}/balance`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get balance');
    const { available_amount: available, waiting_funds_amount: waiting } = answer.body as { available_amount?: unknown; waiting_funds_amount?: unknown };
    if (typeof available !== 'number') throw new ProviderError('not_created', 'provider_error', 'pagarme get balance: answer without available_amount', answer.status);
    return { available, ...(typeof waiting === 'number' ? { pending: waiting } : {}), currency: 'BRL', asOf: new Date() };
  }

  async create(input: CreateTransferInput): Promise<ProviderTransfer> {
    if (input.destination.type !== 'account') {
      throw new ProviderError('rejected', 'provider_rejected', 'pagarme create transfer: only the registered bank account', undefined, {
        name: 'destination',
        publicMessage: 'O Pagar.me só aceita saques para a conta bancária cadastrada no recebedor.',
      });
    }
    return this.withdraw(await this.base(), input.payoutId, input.amount);
  }

  /**
   * A subaccount's withdrawal: the same call on the subaccount's recipient, paid to the bank
   * account registered on it (Pagar.me withdraws to no Pix key), never twice by our payout id.
   */
  withdrawFrom(recipientId: string, input: { payoutId: string; amount: number }): Promise<ProviderTransfer> {
    return this.withdraw(baseOf(recipientId), input.payoutId, input.amount);
  }

  getFrom(recipientId: string, input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
    return this.lookup(baseOf(recipientId), input);
  }

  private async withdraw(base: string, payoutId: string, amount: number): Promise<ProviderTransfer> {
    const answer = await this.api('POST', `${base}/withdrawals`, 'write', { amount, metadata: { payout_id: payoutId } }, { 'idempotency-key': payoutId });
    if (answer.status !== 200 && answer.status !== 201) throw refusal(answer.status, answer.body);
    const made = toProviderTransfer(answer.body as PagarmeWithdrawal, payoutId);
    if (made.amount !== amount) {
      throw new ProviderError('rejected', 'provider_rejected', `pagarme create transfer: ${payoutId} already made a withdrawal of another amount (${made.amount})`);
    }
    return made;
  }

  async get(input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
    return this.lookup(await this.base(), input);
  }

  private async lookup(base: string, input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
    if (input.providerTransferId) {
      const answer = await this.api('GET', `${base}/withdrawals/${encodeURIComponent(input.providerTransferId)}`, 'read');
      if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get withdrawal');
      return toProviderTransfer(answer.body as PagarmeWithdrawal, input.payoutId);
    }
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const answer = await this.api('GET', `${base}/withdrawals?page=${page}&size=${PAGE}`, 'read');
      if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list withdrawals');
      const data = (answer.body as { data?: PagarmeWithdrawal[] } | undefined)?.data ?? [];
      const found = data.find((w) => w.metadata?.['payout_id'] === input.payoutId);
      if (found) return toProviderTransfer(found, input.payoutId);
      if (data.length < PAGE) break;
    }
    throw new ProviderError('not_found', 'not_found', `pagarme get transfer: no withdrawal carries ${input.payoutId}`);
  }
}

const baseOf = (recipientId: string) => `/recipients/${encodeURIComponent(recipientId)}`;

/** Pages read before concluding no withdrawal carries our id (newest first: a recent payout is on the first). */
const MAX_PAGES = 10;
const PAGE = 100;

function refusal(status: number, body: unknown): ProviderError {
  const error = providerErrorFor(status, body, 'create withdrawal');
  // More than is available: refused before anything is made (412/422, the text speaks of the balance).
  if ((status === 400 || status === 412 || status === 422) && /balance|saldo/i.test(errorMessage(body) ?? '')) {
    return new ProviderError('rejected', 'insufficient_balance', error.message, status, {
      name: 'amount',
      publicMessage: 'Saldo disponível insuficiente no Pagar.me para este saque.',
    });
  }
  return error;
}
