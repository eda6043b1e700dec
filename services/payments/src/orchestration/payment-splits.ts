import type { common, payments, payouts as payoutsContract, providers as providersContract } from '@orquestra/contracts';
import { AppError, type RpcClient } from '@orquestra/platform';
import type { SplitDoc } from '../db/payment.model';
import { splitParts } from '../domain/splits';

const STATUS_WORDS: Record<string, string> = { refused: 'recusada', blocked: 'bloqueada', inactive: 'inativa' };

/**
 * A payment's splits, as creation stores them (spec §4 split rules): the parts in cents
 * (domain/splits.ts), each subaccount read from the payouts service, which owns them. All must be
 * active or pending and belong to one connected account, which the payment is then pinned to (a
 * split is an instruction to that account's provider: no failover to another account). The
 * remainder-covers-the-fee check needs the account's fee schedule and runs in the charge walk.
 */
export class PaymentSplits {
  /** The providers' split limits (capabilities.max_splits): the catalog is derived from code, read once. */
  private maxSplits: Promise<Map<string, number>> | undefined;

  constructor(
    private readonly payouts: Pick<RpcClient<typeof payoutsContract.PayoutsServiceService>, 'resolveSplits'>,
    private readonly providers: Pick<RpcClient<typeof providersContract.ProvidersServiceService>, 'listProviders'>,
  ) {}

  private async maxSplitsOf(provider: string, requestId: string): Promise<number> {
    this.maxSplits ??= this.providers.listProviders({}, { requestId }).then(
      ({ providers }) => new Map(providers.map((info) => [info.code, info.capabilities?.max_splits ?? 0])),
      (error: unknown) => {
        this.maxSplits = undefined;
        throw error;
      },
    );
    return (await this.maxSplits).get(provider) ?? 0;
  }

  async resolve(request: payments.CreatePaymentRequest, caller: common.Caller, requestId: string): Promise<{ accountId: string; splits: SplitDoc[] } | undefined> {
    if (request.splits.length === 0) return undefined;
    if (caller.restricted) {
      throw new AppError('restricted_key', { param: 'splits', message: 'Chaves restritas não podem criar divisões de pagamento (splits). Use uma chave completa.' });
    }
    const parts = splitParts(
      request.amount,
      request.splits.map((split) => ({
        subaccount_id: split.subaccount_id,
        ...(split.amount !== undefined ? { amount: split.amount } : {}),
        ...(split.percent_bps !== undefined ? { percent_bps: split.percent_bps } : {}),
      })),
    );
    const { subaccounts } = await this.payouts.resolveSplits({ caller, subaccount_ids: parts.map((part) => part.subaccount_id) }, { requestId });
    if (subaccounts.length !== parts.length) throw new AppError('internal', { message: 'O serviço de subcontas respondeu um número diferente de subcontas.' });
    const accountId = subaccounts[0]!.provider_account_id;
    subaccounts.forEach((subaccount, index) => {
      const param = `splits[${index}].subaccount_id`;
      if (subaccount.status !== 'active' && subaccount.status !== 'pending') {
        throw new AppError('parameter_invalid', {
          param,
          message: `A subconta ${subaccount.id} está ${STATUS_WORDS[subaccount.status] ?? subaccount.status}: só subcontas ativas ou pendentes recebem divisões. Remova-a de splits.`,
        });
      }
      if (subaccount.provider_account_id !== accountId) {
        throw new AppError('parameter_invalid', {
          param,
          message: `As subcontas de um pagamento devem ser todas da mesma conta conectada: ${subaccount.id} é da conta ${subaccount.provider_account_id}, e ${subaccounts[0]!.id} da conta ${accountId}.`,
        });
      }
      if (!subaccount.split_target) {
        throw new AppError('parameter_invalid', {
          param,
          message: `A subconta ${subaccount.id} ainda não tem o identificador de divisão do provedor (${subaccount.provider}). Sincronize-a com POST /v1/subaccounts/${subaccount.id}/sync e tente de novo.`,
        });
      }
    });
    // Checked here, not only by the provider call: a payment without a method is charged later.
    const max = await this.maxSplitsOf(subaccounts[0]!.provider, requestId);
    if (parts.length > max) {
      throw new AppError('parameter_invalid', {
        param: 'splits',
        message: `A conta ${accountId} (${subaccounts[0]!.provider}) aceita no máximo ${max} ${max === 1 ? 'divisão' : 'divisões'} por pagamento: junte ou remova partes.`,
      });
    }
    if (request.provider_account_id && request.provider_account_id !== accountId) {
      throw new AppError('parameter_invalid', {
        param: 'provider_account_id',
        message: `As subcontas de splits são da conta ${accountId}: o pagamento é feito nela. Omita provider_account_id ou informe ${accountId}.`,
      });
    }
    return { accountId, splits: parts.map((part, index) => ({ ...part, split_target: subaccounts[index]!.split_target })) };
  }
}
