/**
 * Withdrawals from an Asaas subaccount (SubaccountCapable.withdrawFromSubaccount, given the
 * adapter's `api` call). A subaccount is an Asaas account of its own: its money leaves by a
 * transfer made WITH ITS OWN apiKey (the `issuedSecret` kept at creation), `POST /v3/transfers
 * {value, pixAddressKey, pixAddressKeyType}` to the Pix key saved when it was created. Everything
 * else is the main account's transfer code (asaas.transfers.ts), run under the subaccount's key:
 * our payout id in `externalReference`, looked up in the subaccount's transfers before any create
 * (Asaas has no idempotency key), and the same reads by id or by payout id.
 *
 * Without a saved Pix key there is nowhere to send the money: Asaas would need the full bank
 * details, which we do not keep, so the withdrawal is refused before any call.
 */
import { ProviderError } from '../provider-adapter';
import type { ProviderTransfer } from '../provider-payouts';
import type { SubaccountWithdrawalInput, SubaccountWithdrawalLookup, SubaccountWithdrawalSource } from '../provider-subaccounts';
import { createAsaasTransfer, getAsaasTransfer } from './asaas.transfers';

type Api = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown, apiKey?: string) => Promise<{ status: number; body: unknown }>;

function subaccountKey(source: SubaccountWithdrawalSource): string {
  if (source.issuedSecret) return source.issuedSecret;
  throw new ProviderError('rejected', 'provider_rejected', `asaas withdrawal: no apiKey kept for subaccount ${source.providerSubaccountId}`, undefined, {
    name: 'subaccount_id',
    publicMessage: 'A chave de API que o Asaas emitiu para esta subconta não está guardada: o saque só pode ser feito com ela. Faça o saque no painel do Asaas.',
  });
}

/** A transfer of `amount` from the subaccount to its own Pix key; idempotent on `payoutId`. */
export async function withdrawFromAsaasSubaccount(api: Api, input: SubaccountWithdrawalInput): Promise<ProviderTransfer> {
  if (!input.pixKey) {
    // A refusal about our request (param set: the caller answers parameter_invalid), made before any call.
    throw new ProviderError('rejected', 'provider_rejected', `asaas withdrawal: subaccount ${input.providerSubaccountId} has no Pix key`, undefined, {
      name: 'subaccount_id',
      publicMessage: 'Esta subconta não tem chave Pix cadastrada para saques: o Asaas só saca para a chave Pix informada na criação da subconta. Crie a subconta com pix_key ou faça o saque no painel do Asaas.',
    });
  }
  const apiKey = subaccountKey(input);
  const asSubaccount = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown) => api(method, path, operation, body, apiKey);
  try {
    return await createAsaasTransfer(asSubaccount, {
      payoutId: input.payoutId,
      amount: input.amount,
      destination: { type: 'pix_key', keyType: input.pixKey.keyType, key: input.pixKey.key },
      ...(input.description ? { description: input.description } : {}),
    });
  } catch (error) {
    // The balance that fell short is the subaccount's, not the account's the transfer code names.
    if (error instanceof ProviderError && error.normalizedCode === 'insufficient_balance') {
      throw new ProviderError(error.kind, error.normalizedCode, error.message, error.httpStatus, { name: 'amount', publicMessage: 'Saldo insuficiente na subconta Asaas para este saque.' });
    }
    throw error;
  }
}

/** By Asaas's transfer id when known, else by our payout id, in the subaccount's own transfers. */
export async function getAsaasSubaccountWithdrawal(api: Api, lookup: SubaccountWithdrawalLookup): Promise<ProviderTransfer> {
  const apiKey = subaccountKey(lookup);
  const asSubaccount = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown) => api(method, path, operation, body, apiKey);
  return getAsaasTransfer(asSubaccount, { payoutId: lookup.payoutId, ...(lookup.providerTransferId ? { providerTransferId: lookup.providerTransferId } : {}) });
}
