import { customerFromProto, modeName, providers, type common } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { ProviderError, RefundNotSupportedError, type ChargeMethod, type CustomerInput } from '../adapters/provider-adapter';
import type { BreakerRegistry } from '../breakers/breaker-registry';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import type { SubaccountSecrets } from '../domain/subaccount-secrets';
import type { WebhookIntakeService } from '../domain/webhook-intake.service';
import { toProtoAccount, toProtoProvider } from './account.mapper';
import { toProtoCharge, toProtoRefund } from './charge.mapper';
import { PROVIDER_CATALOG } from '../domain/provider-catalog';
import { guarded as guardedCall, toAppError } from './provider-errors';
import { payoutHandlers } from './payout.handlers';
import { recurrenceHandlers } from './recurrence.handlers';
import { subaccountHandlers } from './subaccount.handlers';
import { chargeListingHandlers } from './charge-listing.handlers';
import { VaultCards } from '../domain/vault-cards';

/** The charge's buyer as adapters take it: the contracts' customer, whose name every provider requires. */
function chargeCustomer(customer: common.Customer | undefined): CustomerInput {
  const fields = customer && customerFromProto(customer);
  if (!fields?.name) throw new AppError('parameter_missing', { param: 'customer.name' });
  return { ...fields, name: fields.name };
}

/** Failures of calls about one charge. */
const guarded = <T>(work: () => Promise<T>): Promise<T> => guardedCall(work, 'provider_payment_id');

/** Like guarded, with a refund-specific message when the provider refuses the refund. */
async function refundGuarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RefundNotSupportedError) throw new AppError('refund_not_supported', { message: error.publicMessage });
    if (error instanceof ProviderError && error.kind === 'rejected') {
      throw new AppError('provider_rejected', {
        message: 'O provedor recusou o reembolso (por exemplo: valor acima do disponível para devolução ou prazo de devolução encerrado).',
      });
    }
    throw toAppError(error, 'provider_payment_id');
  }
}

/** Like guarded, with a dispute-specific message when the provider refuses the defense. */
async function disputeEvidenceGuarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderError && error.kind === 'rejected') {
      throw new AppError('provider_rejected', {
        param: 'id',
        message: 'O provedor recusou a defesa desta disputa (por exemplo: prazo de resposta encerrado ou disputa já analisada). Confira a disputa no painel do provedor.',
      });
    }
    throw toAppError(error, 'provider_payment_id');
  }
}

export function providersHandlers(deps: {
  accounts: ProviderAccountService;
  breakers: BreakerRegistry;
  webhooks: WebhookIntakeService;
  subaccountSecrets: SubaccountSecrets;
  /** Cards from the vault (saved cards, card fields tokens), read at charge time. */
  vaultCards: VaultCards;
}): Handlers<typeof providers.ProvidersServiceService> {
  const { accounts, breakers, webhooks, subaccountSecrets, vaultCards } = deps;

  const resolve = (ref: providers.ChargeRef | undefined): Promise<ProviderAccountDoc> => {
    if (!ref) throw new AppError('parameter_missing', { param: 'ref' });
    return accounts.get(ref.merchant_id, modeName(ref.mode), ref.account_id);
  };

  const view = (doc: ProviderAccountDoc) => toProtoAccount(doc, breakers.state(doc._id), accounts.webhookUrlOf(doc));

  return {
    ...recurrenceHandlers(accounts),
    ...payoutHandlers(accounts, subaccountSecrets),
    ...subaccountHandlers(accounts, subaccountSecrets),
    ...chargeListingHandlers(accounts),

    async listProviders() {
      return { providers: Object.values(PROVIDER_CATALOG).map(toProtoProvider) };
    },

    async getAccount({ merchant_id, mode, account_id }) {
      return { account: view(await accounts.get(merchant_id, modeName(mode), account_id)) };
    },

    async updateAccount(request) {
      const doc = await accounts.update(request.merchant_id, modeName(request.mode), request.account_id, {
        ...(request.name !== undefined ? { name: request.name } : {}),
        ...(request.priority !== undefined ? { priority: request.priority } : {}),
        ...(request.enabled !== undefined ? { enabled: request.enabled } : {}),
        ...(request.set_fees ? { fees: request.fees.map((fee) => ({ method: fee.method, percent_bps: fee.percent_bps, fixed: fee.fixed })) } : {}),
      });
      return { account: view(doc) };
    },

    async connectAccount(request) {
      const doc = await accounts.connect({
        merchantId: request.merchant_id,
        mode: modeName(request.mode),
        provider: request.provider,
        name: request.name,
        priority: request.priority,
        enabled: request.enabled,
        credentials: request.credentials,
        fees: request.fees.map((fee) => ({ method: fee.method, percent_bps: fee.percent_bps, fixed: fee.fixed })),
      });
      return { account: view(doc) };
    },

    async listAccounts({ merchant_id, mode }) {
      const docs = await accounts.list(merchant_id, modeName(mode));
      return { accounts: docs.map(view) };
    },

    async createCharge(request, context) {
      const account = await accounts.get(request.merchant_id, modeName(request.mode), request.account_id);
      if (!account.enabled) throw new AppError('provider_unavailable', { message: 'A conta do provedor está desativada.' });
      if (!account.methods.includes(request.method)) throw new AppError('method_not_available', { param: 'method' });
      const maxSplits = PROVIDER_CATALOG[account.provider]?.capabilities.maxSplits ?? 0;
      if (request.splits.length > maxSplits) {
        throw new AppError('invalid_request', {
          param: 'splits',
          message:
            maxSplits === 0
              ? `A conta ${account._id} (${account.provider}) não aceita divisão de pagamentos (splits).`
              : `A conta ${account._id} (${account.provider}) aceita no máximo ${maxSplits} ${maxSplits === 1 ? 'divisão' : 'divisões'} por pagamento.`,
        });
      }
      const customer = chargeCustomer(request.customer);
      const scope = { merchantId: request.merchant_id, mode: modeName(request.mode) };
      const fromVault = VaultCards.isVaultCard(request.card);
      // Read before the call, outside the breaker: a card the vault refuses says nothing of the account.
      const card = request.card && fromVault
        ? await vaultCards.cardInput(scope, request.card, customer.name, request.payment_id, context.requestId)
        : request.card?.token
          ? { token: request.card.token, installments: request.card.installments || 1, ...(request.card.brand ? { brand: request.card.brand } : {}) }
          : undefined;
      if (card?.vaultCard && !card.vaultCard.cvc && PROVIDER_CATALOG[account.provider]?.capabilities.vaultCardsNeedCvc) {
        // Routing keeps saved cards without it away from these accounts; a card fields token an hour old may still arrive.
        throw new AppError('invalid_card', {
          param: request.card?.id ? 'card.id' : 'card.token',
          message: `O código de segurança deste cartão já foi apagado do cofre (depois da primeira aprovação ou de 1 hora), e ${account.provider} exige o código. Peça ao cliente que digite o cartão de novo.`,
        });
      }
      const charge = await guarded(() =>
        accounts.call(account, (adapter) =>
          adapter.createCharge({
            paymentId: request.payment_id,
            method: request.method as ChargeMethod,
            amount: request.amount,
            customer,
            ...(card ? { card } : {}),
            expiresInSeconds: request.expires_in_seconds,
            ...(request.description ? { description: request.description } : {}),
            metadata: request.metadata,
            idempotencyKey: request.idempotency_key,
            ...(request.splits.length > 0 ? { splits: request.splits.map((split) => ({ subaccountId: split.subaccount_id, splitTarget: split.split_target, amount: split.amount })) } : {}),
          }),
        ),
      );
      if (fromVault && request.card?.id && charge.status === 'paid') vaultCards.approved(scope, request.card.id, context.requestId);
      return { charge: toProtoCharge(account, charge) };
    },

    async getCharge({ ref }) {
      const account = await resolve(ref);
      const charge = await guarded(() => accounts.call(account, (adapter) => adapter.getCharge(ref!.provider_payment_id)));
      return { charge: toProtoCharge(account, charge) };
    },

    async cancelCharge({ ref }) {
      const account = await resolve(ref);
      const charge = await guarded(() => accounts.call(account, (adapter) => adapter.cancelCharge(ref!.provider_payment_id)));
      return { charge: toProtoCharge(account, charge) };
    },

    async simulateChargePaid({ ref }) {
      const account = await resolve(ref);
      if (account.mode !== 'test') throw new AppError('live_mode_forbidden');
      const paid = await guarded(() => accounts.withEmulatorControl(accounts.sandboxAccount(account), (control) => control.pay(ref!.provider_payment_id).then(() => true)));
      if (!paid) {
        throw new AppError('payment_not_simulatable', {
          message: `A conta ${account._id} (${account.provider}) usa o sandbox do próprio provedor, que não oferece uma API para pagar cobranças de teste. Pague a cobrança no ambiente de testes do provedor; o pagamento será atualizado pelo webhook.`,
        });
      }
      const charge = await guarded(() => accounts.call(account, (adapter) => adapter.getCharge(ref!.provider_payment_id)));
      return { charge: toProtoCharge(account, charge) };
    },

    async refundCharge({ ref, refund_key, amount, reason, end_to_end_id }) {
      if (!ref) throw new AppError('parameter_missing', { param: 'ref' });
      const account = await resolve(ref);
      const adapter = accounts.adapterFor(account);
      if (!adapter.refundCharge) {
        throw new AppError('refund_not_supported', {
          message: `A conta ${account._id} (${account.provider}) não permite reembolsos pela API. Faça o reembolso no painel do provedor; ele aparecerá no pagamento após a sincronização.`,
        });
      }
      if (!refund_key) throw new AppError('parameter_missing', { param: 'refund_key' });
      if (!Number.isSafeInteger(amount) || amount < 1) throw new AppError('amount_too_small', { param: 'amount' });
      const input = {
        providerPaymentId: ref.provider_payment_id,
        refundId: refund_key,
        amount,
        ...(reason ? { reason } : {}),
        ...(end_to_end_id ? { endToEndId: end_to_end_id } : {}),
      };
      // The breaker wraps the call of the adapter checked above (the same cached instance).
      const refund = await refundGuarded(() => accounts.call(account, (a) => (a.refundCharge ? a.refundCharge(input) : Promise.reject(new AppError('refund_not_supported')))));
      return { refund: toProtoRefund(refund) };
    },

    async submitDisputeEvidence({ ref, provider_dispute_id, text, urls }) {
      const account = await resolve(ref);
      if (!provider_dispute_id) throw new AppError('parameter_missing', { param: 'provider_dispute_id' });
      if (!accounts.adapterFor(account).submitDisputeEvidence) throw new AppError('dispute_evidence_not_supported', { param: 'id' });
      await disputeEvidenceGuarded(() =>
        accounts.call(account, (a) =>
          a.submitDisputeEvidence ? a.submitDisputeEvidence({ providerDisputeId: provider_dispute_id, text, urls }) : Promise.reject(new AppError('dispute_evidence_not_supported')),
        ),
      );
      return {};
    },

    async handleWebhook(request) {
      const answer = await webhooks.handle({
        accountId: request.account_id,
        subPath: request.sub_path,
        query: request.query,
        headers: request.headers,
        body: Buffer.from(request.body),
      });
      return { http_status: answer.httpStatus, body: answer.body };
    },
  };
}
