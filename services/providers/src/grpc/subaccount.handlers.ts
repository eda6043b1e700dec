import { modeName, providers } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { isSubaccountCapable, type SubaccountAdapterClass, type SubaccountCapable } from '../adapters/provider-subaccounts';
import { missingRequirement } from '../adapters/subaccount-requirements';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import { providerDefinition } from '../domain/provider-catalog';
import type { SubaccountSecrets } from '../domain/subaccount-secrets';
import { guarded } from './provider-errors';
import { createSubaccountInput, publicCreateBody, toProtoOnboardingLink, toProtoSubaccount, toProtoSubaccountBalance } from './subaccount.mapper';

type SubaccountRpcs = 'createSubaccount' | 'getSubaccount' | 'createOnboardingLink' | 'getSubaccountBalance';

/** Why a provider has no onboarding link, where it is not that its subaccounts are active without one (Woovi). */
const NO_ONBOARDING: Record<string, string> = {
  asaas: 'A Asaas não tem cadastro guiado por link nesta integração: ela analisa a subconta com os dados enviados na criação; acompanhe o status da subconta.',
};
const NO_ONBOARDING_DEFAULT = 'Este provedor não tem cadastro guiado: a subconta fica ativa sem ele.';

/**
 * Subaccounts at the account's provider: each call runs the account's adapter through the account's
 * breaker (accounts.call). A provider-issued credential (Asaas apiKey) is kept sealed in
 * `subaccount_secrets` and handed only to the adapter's reads of that subaccount.
 */
export function subaccountHandlers(accounts: ProviderAccountService, secrets: SubaccountSecrets): Pick<Handlers<typeof providers.ProvidersServiceService>, SubaccountRpcs> {
  const resolve = async (ref: providers.PayoutAccountRef | undefined): Promise<{ account: ProviderAccountDoc; adapter: SubaccountCapable }> => {
    if (!ref) throw new AppError('parameter_missing', { param: 'provider_account_id' });
    const account = await accounts.get(ref.merchant_id, modeName(ref.mode), ref.account_id);
    const adapter = accounts.adapterFor(account);
    if (!isSubaccountCapable(adapter)) {
      throw new AppError('provider_rejected', {
        param: 'provider_account_id',
        message: `Este provedor não oferece subcontas pela API: a conta ${account._id} (${account.provider}) não cria nem consulta subcontas por aqui. Escolha uma conta de um provedor com subcontas (veja GET /v1/providers, capabilities.subaccounts).`,
      });
    }
    return { account, adapter };
  };

  // resolve() checked the adapter; the breaker runs the same cached instance. Unknown ids are the subaccount's.
  const capable = <T>(account: ProviderAccountDoc, work: (adapter: SubaccountCapable) => Promise<T>): Promise<T> =>
    guarded(
      () => accounts.call(account, (adapter) => (isSubaccountCapable(adapter) ? work(adapter) : Promise.reject(new AppError('provider_rejected', { param: 'provider_account_id' })))),
      'subaccount_id',
    );

  const target = (request: { subaccount_id: string; provider_subaccount_id: string }): string => {
    if (!request.subaccount_id) throw new AppError('parameter_missing', { param: 'subaccount_id' });
    if (!request.provider_subaccount_id) throw new AppError('parameter_missing', { param: 'provider_subaccount_id' });
    return request.provider_subaccount_id;
  };

  return {
    async createSubaccount(request) {
      const { account, adapter } = await resolve(request.account);
      if (!account.enabled) throw new AppError('provider_rejected', { param: 'provider_account_id', message: 'A conta do provedor está desativada: nenhuma subconta foi criada.' });
      const input = createSubaccountInput(request);
      // The provider's own table, before anything is sent: the 400 names the public body's field.
      const requirements = (adapter.constructor as SubaccountAdapterClass).subaccountRequirements ?? [];
      const missing = missingRequirement(requirements, publicCreateBody(request), input.type, providerDefinition(account.provider)?.name ?? account.provider);
      if (missing) throw new AppError('parameter_missing', { param: missing.field, message: missing.message });
      const created = await capable(account, (a) => a.createSubaccount(input));
      // Only the first answer carries it (Asaas); a repeat without one leaves the stored one alone.
      if (created.issuedSecret) await secrets.keep(account._id, request.subaccount_id, created.providerSubaccountId, created.issuedSecret);
      return { subaccount: toProtoSubaccount(created), provider: account.provider };
    },

    async getSubaccount(request) {
      const { account } = await resolve(request.account);
      const id = target(request);
      const secret = await secrets.find(account._id, request.subaccount_id);
      return { subaccount: toProtoSubaccount(await capable(account, (adapter) => adapter.getSubaccount(id, secret))) };
    },

    async createOnboardingLink(request) {
      const { account, adapter } = await resolve(request.account);
      const id = target(request);
      if (!adapter.onboardingLink) throw new AppError('invalid_request', { param: 'id', message: NO_ONBOARDING[account.provider] ?? NO_ONBOARDING_DEFAULT });
      return toProtoOnboardingLink(
        await capable(account, (a) => (a.onboardingLink ? a.onboardingLink(id) : Promise.reject(new AppError('invalid_request', { param: 'id', message: NO_ONBOARDING_DEFAULT })))),
      );
    },

    async getSubaccountBalance(request) {
      const { account } = await resolve(request.account);
      const id = target(request);
      const secret = await secrets.find(account._id, request.subaccount_id);
      return { balance: toProtoSubaccountBalance(await capable(account, (adapter) => adapter.getSubaccountBalance(id, secret))) };
    },
  };
}
