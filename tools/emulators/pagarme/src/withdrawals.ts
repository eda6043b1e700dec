/**
 * Withdrawals ("saques") from the account's own recipient to its registered bank account, and the
 * balance they draw on, as Pagar.me v5 serves them (pagarme/pagarme-nodejs-sdk RecipientsController:
 * `GET /recipients/default`, `GET /recipients/{id}/balance` → `{currency, available_amount,
 * waiting_funds_amount, transferred_amount, recipient}` in cents, `POST /recipients/{id}/withdrawals
 * {amount, metadata?}`, `GET /recipients/{id}/withdrawals[/{withdrawal_id}]`), on the kit's
 * PayoutBook (balance, outcomes, withheld answers, control routes):
 * - the balance is credited by paid charges (EmulatorState.settle), debited by refunds and cancels
 *   of paid charges, and by withdrawals (amount + fee, given back when one fails);
 * - a withdrawal is `processing` from its creation (the emulator skips `pending_transfer`), then
 *   `transferred` (`funding_date`) or `failed`; `idempotency-key` replays the first answer
 *   (idempotency.ts), so a repeat makes nothing new, even when the first answer never arrived;
 * - more than is available is refused (412, wording the emulator's).
 * Pagar.me's withdrawal webhooks are not emulated (v5 documents none): the status is read back.
 */
import type { BookTransfer, PayoutBook } from '../../kit';

export interface PagarmeWithdrawalData {
  recipientId: string;
  metadata: Record<string, string>;
  /** A created recipient's own bank account (absent: the account's registered one). */
  bankAccount?: Record<string, unknown> & { id: string };
}

export type WithdrawalBook = PayoutBook<PagarmeWithdrawalData>;
export type StoredWithdrawal = BookTransfer<PagarmeWithdrawalData>;

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

const STATUS = { processing: 'processing', paid: 'transferred', failed: 'failed' } as const;

export function withdrawalJson(w: StoredWithdrawal) {
  return {
    id: w.id,
    gateway_id: w.id.replace(/^tran_/, ''),
    amount: w.amount,
    fee: w.fee,
    status: STATUS[w.status],
    type: 'ted',
    source: { source_id: w.data.recipientId, type: 'recipient' },
    target: w.data.bankAccount
      ? { target_id: w.data.bankAccount.id, type: 'bank_account', bank_account: { ...w.data.bankAccount, status: 'active' } }
      : { target_id: 'ba_default', type: 'bank_account', bank_account: DEFAULT_BANK_ACCOUNT },
    metadata: w.data.metadata,
    created_at: w.createdAt,
    updated_at: w.settledAt ?? w.createdAt,
    funding_date: w.status === 'paid' ? (w.settledAt ?? null) : null,
    ...(w.failureReason ? { failure_reason: w.failureReason } : {}),
  };
}
