import { modeName, providers } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { ProviderError } from '../adapters/provider-adapter';
import { isPayoutCapable, type CreateTransferInput, type PayoutCapable, type PayoutDestination } from '../adapters/provider-payouts';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import { isSubaccountCapable, type SubaccountCapable, type SubaccountWithdrawalSource } from '../adapters/provider-subaccounts';
import type { ProviderAccountService } from '../domain/provider-account.service';
import type { SubaccountSecrets } from '../domain/subaccount-secrets';
import { toAppError } from './provider-errors';
import { toProtoBalance, toProtoTransfer } from './payout.mapper';

type PayoutRpcs = 'getBalance' | 'createTransfer' | 'getTransfer';

const KEY_TYPES: ReadonlyArray<string> = ['cpf', 'cnpj', 'email', 'phone', 'evp'] satisfies ReadonlyArray<Extract<PayoutDestination, { type: 'pix_key' }>['keyType']>;
const DESCRIPTION_MAX = 140;

const DESTINATION_WORDS: Record<PayoutDestination['type'], string> = { account: 'a conta bancária cadastrada no provedor (account)', pix_key: 'chaves Pix (pix_key)' };

function destinationOf(destination: providers.TransferDestination | undefined): PayoutDestination {
  if (!destination?.type) throw new AppError('parameter_missing', { param: 'destination.type' });
  if (destination.type === 'account') return { type: 'account' };
  if (destination.type !== 'pix_key') throw new AppError('parameter_invalid', { param: 'destination.type', message: 'destination.type deve ser account ou pix_key.' });
  if (!KEY_TYPES.includes(destination.key_type)) {
    throw new AppError('parameter_invalid', { param: 'destination.key_type', message: 'destination.key_type deve ser cpf, cnpj, email, phone ou evp.' });
  }
  if (!destination.key) throw new AppError('parameter_missing', { param: 'destination.key' });
  return { type: 'pix_key', keyType: destination.key_type as Extract<PayoutDestination, { type: 'pix_key' }>['keyType'], key: destination.key };
}

/**
 * A provider call about a payout. A balance the account does not have is `insufficient_balance`
 * (422 at the API); a transfer that may have been made (`ambiguous`: no answer, or a 5xx after
 * sending) is provider_timeout, which tells the payouts service to ask GetTransfer rather than send
 * again; everything else as for charges.
 */
async function payoutGuarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderError && error.normalizedCode === 'insufficient_balance') throw new AppError('insufficient_balance', { param: 'amount' });
    // A write answered 5xx is `ambiguous` with provider_error: for a transfer that is a lost answer too.
    if (error instanceof ProviderError && error.kind === 'ambiguous' && error.normalizedCode !== 'provider_unavailable') throw new AppError('provider_timeout');
    throw toAppError(error, 'payout_id');
  }
}

const NO_WITHDRAWALS = (account: ProviderAccountDoc) =>
  `Este provedor não faz saques de subcontas pela API: a conta ${account._id} (${account.provider}) não retira o saldo de uma subconta por aqui. Faça o saque no painel do provedor.`;

/**
 * Balance and transfers: each runs the account's adapter through the account's breaker
 * (accounts.call), never retried here. A transfer with a `subaccount` source is a withdrawal from
 * that subaccount's balance (the adapter's withdrawFromSubaccount, with the credential the provider
 * issued for it when there is one).
 */
export function payoutHandlers(accounts: ProviderAccountService, secrets: SubaccountSecrets): Pick<Handlers<typeof providers.ProvidersServiceService>, PayoutRpcs> {
  const resolve = async (ref: providers.PayoutAccountRef | undefined): Promise<{ account: ProviderAccountDoc; adapter: PayoutCapable }> => {
    if (!ref) throw new AppError('parameter_missing', { param: 'provider_account_id' });
    const account = await accounts.get(ref.merchant_id, modeName(ref.mode), ref.account_id);
    const adapter = accounts.adapterFor(account);
    if (!isPayoutCapable(adapter)) {
      throw new AppError('provider_rejected', {
        param: 'provider_account_id',
        message: `Este provedor não faz repasses pela API: a conta ${account._id} (${account.provider}) não informa saldo nem envia transferências por aqui. Faça o repasse no painel do provedor ou escolha uma conta de um provedor com repasses (veja GET /v1/providers).`,
      });
    }
    return { account, adapter };
  };

  // resolve() checked the adapter; the breaker runs the same cached instance.
  const capable = <T>(account: ProviderAccountDoc, work: (adapter: PayoutCapable) => Promise<T>): Promise<T> =>
    payoutGuarded(() => accounts.call(account, (adapter) => (isPayoutCapable(adapter) ? work(adapter) : Promise.reject(new AppError('provider_rejected', { param: 'provider_account_id' })))));

  /** The withdrawal's source as the adapter wants it; the subaccount must be this account's. */
  const withdrawalSource = async (account: ProviderAccountDoc, source: providers.SubaccountSource): Promise<{ adapter: SubaccountCapable; source: SubaccountWithdrawalSource }> => {
    const adapter = accounts.adapterFor(account);
    if (!isSubaccountCapable(adapter) || !adapter.withdrawFromSubaccount || !adapter.getSubaccountWithdrawal) {
      throw new AppError('provider_rejected', { param: 'subaccount_id', message: NO_WITHDRAWALS(account) });
    }
    if (!source.subaccount_id) throw new AppError('parameter_missing', { param: 'subaccount_id' });
    if (!source.provider_subaccount_id) throw new AppError('parameter_missing', { param: 'provider_subaccount_id' });
    const issuedSecret = await secrets.find(account._id, source.subaccount_id);
    const pixKey = source.pix_key
      ? destinationOf({ type: 'pix_key', key_type: source.pix_key_type, key: source.pix_key })
      : undefined;
    return {
      adapter,
      source: {
        providerSubaccountId: source.provider_subaccount_id,
        ...(pixKey?.type === 'pix_key' ? { pixKey: { keyType: pixKey.keyType, key: pixKey.key } } : {}),
        ...(issuedSecret ? { issuedSecret } : {}),
      },
    };
  };

  const withdrawing = <T>(account: ProviderAccountDoc, work: (adapter: SubaccountCapable) => Promise<T>): Promise<T> =>
    payoutGuarded(() =>
      accounts.call(account, (adapter) => (isSubaccountCapable(adapter) ? work(adapter) : Promise.reject(new AppError('provider_rejected', { param: 'subaccount_id', message: NO_WITHDRAWALS(account) })))),
    );

  return {
    async getBalance({ account: ref }) {
      const { account } = await resolve(ref);
      return { balance: toProtoBalance(await capable(account, (adapter) => adapter.getBalance())), provider: account.provider };
    },

    async createTransfer(request) {
      const { account, adapter } = await resolve(request.account);
      if (!account.enabled) throw new AppError('provider_rejected', { param: 'provider_account_id', message: 'A conta do provedor está desativada: nenhum repasse foi enviado.' });
      if (!request.payout_id) throw new AppError('parameter_missing', { param: 'payout_id' });
      if (!Number.isSafeInteger(request.amount) || request.amount < 1) throw new AppError('amount_too_small', { param: 'amount' });
      if (request.description.length > DESCRIPTION_MAX) throw new AppError('parameter_invalid', { param: 'description', message: `description deve ter no máximo ${DESCRIPTION_MAX} caracteres.` });
      if (request.subaccount) {
        const { source } = await withdrawalSource(account, request.subaccount);
        const input = { ...source, payoutId: request.payout_id, amount: request.amount, ...(request.description ? { description: request.description } : {}) };
        const transfer = await withdrawing(account, (a) => (a.withdrawFromSubaccount ? a.withdrawFromSubaccount(input) : Promise.reject(new AppError('provider_rejected', { param: 'subaccount_id' }))));
        return { transfer: toProtoTransfer(transfer), provider: account.provider };
      }
      const destination = destinationOf(request.destination);
      if (!adapter.payoutDestinations.includes(destination.type)) {
        throw new AppError('parameter_invalid', {
          param: 'destination.type',
          message: `A conta ${account._id} (${account.provider}) só faz repasses pela API para ${adapter.payoutDestinations.map((type) => DESTINATION_WORDS[type]).join(' e ')}.`,
        });
      }
      const input: CreateTransferInput = {
        payoutId: request.payout_id,
        amount: request.amount,
        destination,
        ...(request.description ? { description: request.description } : {}),
      };
      return { transfer: toProtoTransfer(await capable(account, (a) => a.createTransfer(input))), provider: account.provider };
    },

    async getTransfer({ account: ref, payout_id, provider_transfer_id, subaccount }) {
      const { account } = await resolve(ref);
      if (!payout_id) throw new AppError('parameter_missing', { param: 'payout_id' });
      if (subaccount) {
        const { source } = await withdrawalSource(account, subaccount);
        const lookup = { ...source, payoutId: payout_id, ...(provider_transfer_id ? { providerTransferId: provider_transfer_id } : {}) };
        const transfer = await withdrawing(account, (a) => (a.getSubaccountWithdrawal ? a.getSubaccountWithdrawal(lookup) : Promise.reject(new AppError('provider_rejected', { param: 'subaccount_id' }))));
        return { transfer: toProtoTransfer(transfer) };
      }
      const input = { payoutId: payout_id, ...(provider_transfer_id ? { providerTransferId: provider_transfer_id } : {}) };
      return { transfer: toProtoTransfer(await capable(account, (adapter) => adapter.getTransfer(input))) };
    },
  };
}
