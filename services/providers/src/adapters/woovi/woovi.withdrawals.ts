/**
 * Withdrawals from a Woovi subaccount (SubaccountCapable.withdrawFromSubaccount), given the
 * adapter's `api` call. Sources: developers.woovi.com "Como realizar o saque de uma Subconta via
 * API" (`POST /api/v1/subaccount/{pixKey}/withdraw`, no body: "saque integral"; a 2xx answers
 * `{transaction{status, value, correlationID, destinationAlias, comment}}`, "os detalhes da
 * transação efetuada para a chave pix registrada na subconta") and psp-apis.md §5.
 *
 * - Woovi withdraws the WHOLE balance to the subaccount's own Pix key, whatever amount we asked:
 *   the answer is `wholeBalance: true` with `amount` = what left. A zero balance (read first, so no
 *   empty withdrawal is asked for) is `insufficient_balance`.
 * - The request carries nothing of ours (no correlationID, no amount): Woovi cannot be idempotent
 *   on our payout id. A repeat of one payout is a new withdrawal of whatever balance there is then
 *   (nothing, right after the first: refused as insufficient_balance). The payouts service never
 *   repeats a create whose answer it has; a lost answer is `ambiguous` (the wire table) and needs a
 *   person: Woovi documents no read of a withdrawal.
 * - Status: Woovi calls its 2xx answer the transaction made, and documents neither a read nor an
 *   event for it, so the withdrawal is `paid` once answered (providerStatus keeps Woovi's word,
 *   e.g. CREATED); FAILED or DENIED in the answer are `failed`.
 * - getSubaccountWithdrawal: nothing to read at Woovi by id or by our payout id; refused (rejected)
 *   with a message saying so, never `not_found` (which would read as "never made").
 */
import { ProviderError } from '../provider-adapter';
import type { ProviderTransfer } from '../provider-payouts';
import type { SubaccountWithdrawalInput, SubaccountWithdrawalLookup } from '../provider-subaccounts';
import { wooviSubaccountBalance } from './woovi.subaccounts';
import { errorMessage, providerErrorFor } from './woovi.transformers';

type Api = (method: 'GET' | 'POST', path: string, purpose: 'read' | 'write', body?: unknown) => Promise<{ status: number; body: unknown }>;

interface WooviWithdrawAnswer {
  transaction?: { status?: unknown; value?: unknown; correlationID?: unknown; destinationAlias?: unknown } | null;
}

const insufficient = (message: string, status?: number) =>
  new ProviderError('rejected', 'insufficient_balance', message, status, { name: 'amount', publicMessage: 'A subconta não tem saldo na Woovi para sacar.' });

/** The withdrawal of a 2xx answer; `ambiguous` when it names none (it may well have been made). */
export function toWithdrawal(body: unknown, payoutId: string): ProviderTransfer {
  const transaction = (body as WooviWithdrawAnswer | undefined)?.transaction;
  const value = transaction?.value;
  if (typeof transaction?.correlationID !== 'string' || !Number.isSafeInteger(value) || (value as number) < 0) {
    throw new ProviderError('ambiguous', 'provider_error', 'woovi withdraw: 2xx without a readable transaction');
  }
  const providerStatus = typeof transaction.status === 'string' ? transaction.status : 'CREATED';
  // Nothing left the subaccount (its balance went to zero between our read and the withdraw): no payout.
  if (value === 0) {
    return { providerTransferId: transaction.correlationID, payoutId, status: 'failed', providerStatus, amount: 0, wholeBalance: true, failureCode: 'insufficient_balance', failureReason: 'A subconta não tinha saldo na Woovi: nada foi sacado.' };
  }
  const failed = providerStatus === 'FAILED' || providerStatus === 'DENIED';
  return {
    providerTransferId: transaction.correlationID,
    payoutId,
    status: failed ? 'failed' : 'paid',
    providerStatus,
    amount: value as number,
    wholeBalance: true,
    ...(failed ? { failureCode: 'transfer_failed', failureReason: `Woovi: saque ${providerStatus}` } : { paidAt: new Date() }),
  };
}

export async function withdrawFromWooviSubaccount(api: Api, input: SubaccountWithdrawalInput): Promise<ProviderTransfer> {
  const pixKey = input.providerSubaccountId;
  // Read first: Woovi takes whatever there is, and an empty withdrawal is no payout.
  const { available } = await wooviSubaccountBalance(api, pixKey);
  if (available <= 0) throw insufficient(`woovi withdraw: subaccount ${pixKey} has no balance`);
  const answer = await api('POST', `/api/v1/subaccount/${encodeURIComponent(pixKey)}/withdraw`, 'write');
  if (answer.status === 200 || answer.status === 201) return toWithdrawal(answer.body, input.payoutId);
  if (answer.status === 400 && /saldo|balance/i.test(errorMessage(answer.body) ?? '')) throw insufficient(`woovi withdraw: HTTP 400: ${errorMessage(answer.body) ?? ''}`, answer.status);
  throw providerErrorFor(answer.status, answer.body, 'withdraw subaccount');
}

export function getWooviSubaccountWithdrawal(_api: Api, lookup: SubaccountWithdrawalLookup): Promise<ProviderTransfer> {
  return Promise.reject(
    new ProviderError('rejected', 'provider_rejected', `woovi get withdrawal: Woovi has no read of a subaccount withdrawal (${lookup.payoutId})`, undefined, {
      name: 'payout_id',
      publicMessage: 'A Woovi não permite consultar um saque de subconta pela API: confira o saque no painel da Woovi.',
    }),
  );
}
