/**
 * Pix payments out of the account ("Pix Out") and the balance they draw on, as Woovi documents
 * them (developers.woovi.com "Fluxo Básico de Pagamento", "Payload de Pagamentos"), on the kit's
 * PayoutBook (balance, outcomes, withheld answers, control routes):
 * - `POST /api/v1/payment {value (cents), destinationAlias, destinationAliasType, correlationID,
 *   comment?}` makes a payment `CREATED` (nothing leaves yet; refused already when the balance does
 *   not cover it); the correlationID names it: a repeat answers the same payment;
 * - `POST /api/v1/payment/approve {correlationID}` sends it: the value leaves the balance (refused
 *   when the balance does not cover it), `APPROVED` while with the bank, then `CONFIRMED`
 *   (`OPENPIX:MOVEMENT_CONFIRMED`, with `transaction{value, endToEndId, time}`) or `FAILED`
 *   (`OPENPIX:MOVEMENT_FAILED`, with `error{code, description}`, the value back); approving again
 *   answers the payment as it is;
 * - `GET /api/v1/payment/{correlationID}` → `{payment, transaction?, error?}`.
 * The balance (`GET /api/v1/account/`) is credited by paid charges (value − fee,
 * EmulatorState.settleCharge), debited by refunds (refunds.ts) and by approved payments.
 * Unconfirmed (no primary source): the `APPROVED` status word, the refusal (text, and whether at
 * create or only at approval) of an insufficient balance, the account answer's exact shape.
 */
import type { BookTransfer, PayoutBook } from '../../kit';
import { newEndToEndId } from './woovi-ids';

export type AliasType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'RANDOM';
export const ALIAS_TYPES: readonly AliasType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'];

/** What Woovi keeps of a payment besides the money. */
export interface WooviPaymentData {
  accountId: string;
  correlationID: string;
  value: number;
  destinationAlias: string;
  destinationAliasType: AliasType;
  comment: string;
  createdAt: string;
  endToEndId?: string;
}

export type WooviPaymentBook = PayoutBook<WooviPaymentData>;
export type SentPayment = BookTransfer<WooviPaymentData>;

const STATUS = { processing: 'APPROVED', paid: 'CONFIRMED', failed: 'FAILED' } as const;

/** A payment not yet approved (`data` only), or one sent (in the book). */
export function paymentJson(payment: WooviPaymentData | SentPayment) {
  const sent = 'data' in payment ? payment : undefined;
  const data = sent ? sent.data : (payment as WooviPaymentData);
  return {
    payment: {
      value: data.value,
      status: sent ? STATUS[sent.status] : 'CREATED',
      destinationAlias: data.destinationAlias,
      destinationAliasType: data.destinationAliasType,
      comment: data.comment,
      correlationID: data.correlationID,
      createdAt: data.createdAt,
    },
    ...(sent?.status === 'paid' && data.endToEndId ? { transaction: { value: data.value, endToEndId: data.endToEndId, time: sent.settledAt } } : {}),
    ...(sent?.status === 'failed' ? { error: { code: 'PAY_PIX_KEY_ERROR', description: sent.failureReason ?? 'Falha ao Pagar Chave Pix' } } : {}),
  };
}

/** A settled payment: a paid one gets its end-to-end id; its webhook (`{event, payment, transaction?, error?}`) names it. */
export function onPaymentSettled(payment: SentPayment, notify: (accountId: string, event: string, payload: Record<string, unknown>, correlationID: string) => void): void {
  if (payment.status === 'paid') payment.data.endToEndId = newEndToEndId(new Date(payment.settledAt ?? Date.now()));
  const event = payment.status === 'paid' ? 'OPENPIX:MOVEMENT_CONFIRMED' : 'OPENPIX:MOVEMENT_FAILED';
  notify(payment.owner, event, { event, ...paymentJson(payment) }, payment.data.correlationID);
}
