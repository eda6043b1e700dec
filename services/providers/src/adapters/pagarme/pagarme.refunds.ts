/**
 * Pagar.me v5 refunds: wire types, the exhaustive refund-transaction status map and the
 * `refundCharge` flow (given the adapter's authenticated `api` call). Sources: pagarme-nodejs-sdk
 * `ChargesController.cancelCharge` (`DELETE /charges/{charge_id}`, body CreateCancelChargeRequest
 * `{amount?, operation_reference, bank_account?, split_rules?}`, answer GetChargeResponse),
 * `getChargeTransactions` (`GET /charges/{charge_id}/transactions`), the webhook events
 * `charge.refunded` / `charge.partial_canceled`, and the v1/v3 docs' rule that a paid boleto is
 * refunded only to a bank account the request names.
 *
 * Pagar.me has no refund object and no refund id: a refund is a cancel operation on the charge
 * (`canceled_amount` grows; the charge stays `paid` until all of it is returned, then reads
 * `canceled`). We send our refund id as `operation_reference` and as the `idempotency-key`, and
 * read the refunds back from the charge's transactions, where a cancel operation carries it in
 * `metadata.operation_reference` (the emulator's reading: the public docs do not show the echo).
 * Before asking, the transactions are listed, so a retry after Pagar.me's 24 h key window never
 * refunds twice; when the answer is accepted but the operation cannot be found by our id, the
 * outcome is `ambiguous` and the refund stays pending until a sync settles it.
 *
 * A paid boleto needs the payer's bank account, which our API does not collect: such a refund is
 * refused with RefundNotSupportedError (made in Pagar.me's dashboard, it reaches us as a
 * `source: provider` refund).
 */
import { assertNever } from '@orquestra/platform';
import { ProviderError, RefundNotSupportedError, type ProviderRefund, type ProviderRefundStatus, type RefundChargeInput } from '../provider-adapter';
import { type PagarmeCharge } from './pagarme.transformers';
import { providerErrorFor } from './pagarme.errors';

/** Statuses a cancel operation's transaction takes (Pix: `pending_refund` → `refunded`; `with_error` when the bank refused). */
export type PagarmeRefundTransactionStatus = 'pending_refund' | 'refunded' | 'with_error' | 'failed';

export interface PagarmeTransaction {
  id: string;
  transaction_type?: string;
  amount: number;
  status: string;
  operation_type?: string | null;
  created_at?: string | null;
  metadata?: Record<string, string> | null;
}

const REFUND_STATUSES = new Set<string>(['pending_refund', 'refunded', 'with_error', 'failed']);

/** Every refund-transaction status; a new one fails to compile here. */
export function mapRefundStatus(status: PagarmeRefundTransactionStatus): ProviderRefundStatus {
  switch (status) {
    case 'pending_refund':
      return 'pending';
    case 'refunded':
      return 'succeeded';
    case 'with_error':
    case 'failed':
      return 'failed';
    default:
      return assertNever(status);
  }
}

/** The cancel operations of a charge's transactions (the payment's own transaction is not one). */
export function isRefundTransaction(transaction: PagarmeTransaction): boolean {
  return transaction.operation_type === 'cancel' && REFUND_STATUSES.has(transaction.status);
}

export function toProviderRefund(transaction: PagarmeTransaction): ProviderRefund {
  const status = mapRefundStatus(transaction.status as PagarmeRefundTransactionStatus);
  const key = transaction.metadata?.['operation_reference'];
  const created = Date.parse(transaction.created_at ?? '');
  return {
    providerRefundId: transaction.id,
    ...(key ? { refundKey: key } : {}),
    amount: transaction.amount,
    status,
    ...(status === 'failed' ? { failureCode: `refund_${transaction.status}`, failureReason: `Pagar.me: estorno ${transaction.status}` } : {}),
    ...(Number.isFinite(created) ? { createdAt: new Date(created) } : {}),
  };
}

export function refundsOfTransactions(transactions: PagarmeTransaction[]): ProviderRefund[] {
  return transactions.filter(isRefundTransaction).map(toProviderRefund);
}

/** `DELETE /charges/{id}` body: the amount in centavos and our refund id as the operation reference. */
export function buildCancelRequest(input: RefundChargeInput): { amount: number; operation_reference: string } {
  if (!Number.isSafeInteger(input.amount) || input.amount < 1) throw new RangeError(`refund amount must be a positive integer of cents, got ${input.amount}`);
  return { amount: input.amount, operation_reference: input.refundId };
}

type Answer = { status: number; body: unknown };
export type PagarmeRefundApi = (method: 'GET' | 'DELETE', path: string, operation: 'read' | 'write', body?: unknown, headers?: Record<string, string>) => Promise<Answer>;

export async function listChargeTransactions(api: PagarmeRefundApi, chargeId: string): Promise<PagarmeTransaction[]> {
  const answer = await api('GET', `/charges/${encodeURIComponent(chargeId)}/transactions?page=1&size=100`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list charge transactions');
  return (answer.body as { data?: PagarmeTransaction[] }).data ?? [];
}

export async function refundPagarmeCharge(api: PagarmeRefundApi, input: RefundChargeInput): Promise<ProviderRefund> {
  let body: ReturnType<typeof buildCancelRequest>;
  try {
    body = buildCancelRequest(input);
  } catch (err) {
    throw new ProviderError('rejected', 'provider_rejected', `pagarme refund: ${(err as Error).message}`);
  }
  const path = `/charges/${encodeURIComponent(input.providerPaymentId)}`;
  const read = await api('GET', path, 'read');
  if (read.status !== 200) throw providerErrorFor(read.status, read.body, 'get charge');
  const charge = read.body as PagarmeCharge;
  const ours = (transactions: PagarmeTransaction[]) => transactions.find((t) => isRefundTransaction(t) && t.metadata?.['operation_reference'] === input.refundId);
  const before = ours(await listChargeTransactions(api, input.providerPaymentId));
  if (before) return checked(toProviderRefund(before), input);
  if (charge.payment_method === 'boleto') {
    throw new RefundNotSupportedError(
      `pagarme refund: boleto charge ${charge.id} needs the payer's bank account`,
      'O Pagar.me só devolve um boleto pago para uma conta bancária do pagador, que o Orquestra não coleta. Faça o reembolso no painel do Pagar.me (ele pede os dados bancários); ele aparecerá no pagamento com source "provider".',
    );
  }
  if (charge.status !== 'paid' && charge.status !== 'overpaid') {
    throw new ProviderError('rejected', 'provider_rejected', `pagarme refund: charge ${charge.id} is ${charge.status}, not paid`);
  }
  // Our refund id is the idempotency key: a repeat within 24 h replays the first answer.
  const answer = await api('DELETE', path, 'write', body, { 'idempotency-key': input.refundId });
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'refund charge');
  const after = ours(await listChargeTransactions(api, input.providerPaymentId));
  if (after) return checked(toProviderRefund(after), input);
  // Pagar.me's docs do not show operation_reference coming back on the transaction. The DELETE
  // answer is the charge with the cancel operation just made as its last transaction: its id
  // names our refund from now on, so a later read matches it by id and nothing sends the DELETE
  // again (a repeat after the 24 h idempotency window would refund twice).
  const last = (answer.body as PagarmeCharge | undefined)?.last_transaction as PagarmeTransaction | null | undefined;
  if (last?.id && isRefundTransaction(last) && last.amount === input.amount) return { ...toProviderRefund(last), refundKey: input.refundId };
  throw new ProviderError('ambiguous', 'provider_error', `pagarme refund: accepted, but no cancel operation of charge ${charge.id} carries ${input.refundId}`);
}

function checked(refund: ProviderRefund, input: RefundChargeInput): ProviderRefund {
  if (refund.amount !== input.amount) {
    throw new ProviderError('rejected', 'provider_rejected', `pagarme refund: ${input.refundId} already names a refund of another amount (${refund.providerRefundId})`);
  }
  return { ...refund, refundKey: input.refundId };
}
