import { modeName, type providers, routing } from '@orquestra/contracts';
import { AppError, type Handlers, type RpcClient } from '@orquestra/platform';
import { route, type RoutableAccount } from '../domain/eligibility';

export function routingHandlers(
  providersClient: RpcClient<typeof providers.ProvidersServiceService>,
): Handlers<typeof routing.RoutingServiceService> {
  return {
    async route(request, context) {
      const caller = request.caller;
      if (!caller) throw new AppError('unauthenticated');
      const { accounts } = await providersClient.listAccounts(
        { merchant_id: caller.merchant_id, mode: caller.mode },
        { requestId: context.requestId },
      );
      const routable: Array<RoutableAccount & { fees: providers.FeeRule[] }> = accounts.map((account) => ({
        id: account.id,
        provider: account.provider,
        mode: modeName(account.mode),
        enabled: account.enabled,
        priority: account.priority,
        methods: account.methods,
        requires: account.requires,
        fees: account.fees,
      }));
      const customer = request.customer;
      const address = customer?.address;
      const decision = route(routable, {
        mode: modeName(caller.mode),
        method: request.method,
        customerHas: {
          document: Boolean(customer?.document),
          email: Boolean(customer?.email),
          phone: Boolean(customer?.phone),
          address: Boolean(address?.street && address.number && address.city && address.state && address.zip),
        },
        ...(request.forced_account_id ? { forcedAccountId: request.forced_account_id } : {}),
      });
      if (!decision.ok) throw new AppError(decision.code, { param: decision.param });
      const fees = new Map(routable.map((account) => [account.id, account.fees]));
      return {
        candidates: decision.candidates.map((candidate) => ({
          account_id: candidate.id,
          provider: candidate.provider,
          priority: candidate.priority,
          reason: candidate.reason,
          fees: fees.get(candidate.id) ?? [],
        })),
      };
    },
  };
}
