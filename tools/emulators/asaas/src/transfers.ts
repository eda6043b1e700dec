/**
 * Transfers out of the account (`POST /v3/transfers` to a Pix key) and the balance they draw on
 * (`GET /v3/finance/balance`), as docs.asaas.com describes them ("Transferir para conta de outra
 * instituição ou chave Pix", "Recuperar saldo da conta", "Eventos para transferências"), on the
 * kit's PayoutBook (balance, one transfer per create, outcomes, withheld answers, control routes):
 * - the balance is credited by received charges (value − fee, EmulatorState.settlePayment), debited
 *   by refunds (RefundSettler) and by transfers (value + `transferFee`, given back when one fails);
 * - a transfer is `BANK_PROCESSING` from its creation (the emulator skips Asaas's brief `PENDING`),
 *   then `DONE` (with `endToEndIdentifier`, `effectiveDate`) or `FAILED` (`failReason`); it sends
 *   `TRANSFER_CREATED`, then `TRANSFER_DONE` / `TRANSFER_FAILED`, with `{transfer:{…}}`;
 * - more than the balance is refused (400); Asaas has no idempotency key: the same request twice
 *   makes two transfers, `externalReference` is only echoed.
 * Unconfirmed (no primary source): the error code and text of an insufficient balance
 * (`invalid_action`, "Saldo insuficiente…").
 */
import { PayoutBook, type BookTransfer } from '../../kit';
import { newEndToEndId } from './asaas-ids';
import { Reais } from './money-json';
import { spDate, spDateTime } from './sao-paulo-time';

export type PixKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'EVP';
export const PIX_KEY_TYPES: readonly PixKeyType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP'];

/** What Asaas keeps of a transfer besides the money (the book's `data`). */
export interface AsaasTransferData {
  pixAddressKey: string;
  pixAddressKeyType: PixKeyType;
  description?: string;
  externalReference?: string;
  endToEndId?: string;
}

export type AsaasTransferBook = PayoutBook<AsaasTransferData>;
export type AsaasTransfer = BookTransfer<AsaasTransferData>;

const STATUS = { processing: 'BANK_PROCESSING', paid: 'DONE', failed: 'FAILED' } as const;

export function transferJson(t: AsaasTransfer) {
  const createdAt = new Date(t.createdAt);
  return {
    object: 'transfer',
    id: t.id,
    type: 'PIX',
    dateCreated: spDate(createdAt),
    value: new Reais(t.amount),
    netValue: new Reais(t.amount),
    transferFee: new Reais(t.fee),
    status: STATUS[t.status],
    effectiveDate: t.status === 'paid' && t.settledAt ? spDateTime(new Date(t.settledAt)) : null,
    scheduleDate: spDate(createdAt),
    endToEndIdentifier: t.data.endToEndId ?? null,
    authorized: true,
    failReason: t.failureReason ?? null,
    externalReference: t.data.externalReference ?? null,
    transactionReceiptUrl: t.status === 'paid' ? `https://sandbox.asaas.com/comprovantes/transferencia/${t.id}` : null,
    operationType: 'PIX',
    description: t.data.description ?? null,
    pixAddressKey: t.data.pixAddressKey,
    pixAddressKeyType: t.data.pixAddressKeyType,
  };
}

/** A settled transfer: a paid one gets its end-to-end id; its webhook names it. */
export function onTransferSettled(transfer: AsaasTransfer, notify: (accountId: string, event: string, transfer: unknown) => void): void {
  if (transfer.status === 'paid') transfer.data.endToEndId = newEndToEndId(new Date(transfer.settledAt ?? Date.now()));
  notify(transfer.owner, transfer.status === 'paid' ? 'TRANSFER_DONE' : 'TRANSFER_FAILED', transferJson(transfer));
}
