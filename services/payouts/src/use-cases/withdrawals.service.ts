import { modeFromName, type accounts, type providers } from '@orquestra/contracts';
import { AppError, newId, type RpcClient } from '@orquestra/platform';
import type { PayoutDoc } from '../db/payout.model';
import type { CallerScope, PayoutStore } from '../db/payout.store';
import { MAX_LIST_LIMIT, MAX_PAYOUT_AMOUNT, type PayoutsService } from './payouts.service';
import { SubaccountsService } from './subaccounts.service';

export interface CreateWithdrawalCommand {
  scope: CallerScope;
  keyId: string;
  idempotencyKey: string;
  requestHash: string;
  subaccountId: string;
  amount: number;
  description: string;
  metadata: Record<string, string>;
}

export interface WithdrawalsOptions {
  now?: () => Date;
  /** When a withdrawal whose creating request died is first read back (as for payouts). */
  recheckBaseMs: number;
}

/** Where a withdrawal goes: the subaccount's own destination, named by the source, never by the caller. */
const TO_SUBACCOUNT: providers.TransferDestination = { type: 'subaccount', key_type: '', key: '' };

const SUBACCOUNT_STATUS_PT: Record<string, string> = {
  pending: 'pending (cadastro ainda em análise no provedor; conclua o onboarding ou sincronize com POST /v1/subaccounts/{id}/sync)',
  refused: 'refused (o provedor recusou o cadastro)',
  blocked: 'blocked (bloqueada pelo provedor)',
  inactive: 'inactive (desativada)',
};

/**
 * Subaccount withdrawals (spec §4): a payout from an active subaccount's balance to its own
 * destination. Stored and sent by the payouts machinery (same store, Idempotency-Key, uncertain
 * and recheck handling, payout.* events), with `subaccount_id` and destination `subaccount`.
 * They do not count against the merchant's daily payout limit: the money is the subaccount's
 * (docs/decisions.md).
 */
export class WithdrawalsService {
  private readonly now: () => Date;

  constructor(
    private readonly payouts: PayoutsService,
    private readonly store: PayoutStore,
    private readonly subaccounts: SubaccountsService,
    private readonly owner: Pick<RpcClient<typeof accounts.AccountsServiceService>, 'getPayoutSettings'>,
    private readonly options: WithdrawalsOptions,
  ) {
    this.now = options.now ?? (() => new Date());
  }

  async create(command: CreateWithdrawalCommand): Promise<{ payout: PayoutDoc; replayed: boolean }> {
    const { scope } = command;
    if (!command.subaccountId) throw new AppError('parameter_missing', { param: 'id', message: 'Informe o id da subconta de onde sai o saque.' });
    if (!command.idempotencyKey) {
      throw new AppError('parameter_missing', { param: 'Idempotency-Key', message: 'Envie o cabeçalho Idempotency-Key: um saque sem ele poderia ser feito duas vezes.' });
    }
    if (!Number.isInteger(command.amount) || command.amount < 1 || command.amount > MAX_PAYOUT_AMOUNT) {
      throw new AppError('parameter_invalid', { param: 'amount', message: `O campo amount deve ser um inteiro em centavos entre 1 e ${MAX_PAYOUT_AMOUNT}.` });
    }
    if (command.description.length > 140) throw new AppError('parameter_invalid', { param: 'description', message: 'O campo description aceita até 140 caracteres.' });

    const earlier = await this.store.findByKey(scope, command.idempotencyKey);
    if (earlier) return { payout: this.payouts.replay(earlier, command.requestHash), replayed: true };

    const { settings } = await this.owner.getPayoutSettings({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode) });
    if (!settings?.api_enabled) throw new AppError('payouts_api_disabled');
    const subaccount = await this.subaccounts.get(scope, command.subaccountId);
    if (subaccount.status !== 'active') {
      throw new AppError('subaccount_not_active', {
        param: 'id',
        message: `A subconta ${subaccount._id} está ${SUBACCOUNT_STATUS_PT[subaccount.status] ?? subaccount.status}. Saques só saem de subcontas com status active.`,
      });
    }

    const now = this.now();
    return this.payouts.open(
      {
        _id: newId('payout'),
        merchant_id: scope.merchantId,
        mode: scope.mode,
        source_key_id: command.keyId,
        status: 'pending',
        amount: command.amount,
        amount_requested: command.amount,
        whole_balance: false,
        fee: null,
        provider: subaccount.provider,
        provider_account_id: subaccount.provider_account_id,
        provider_transfer_id: '',
        destination: { type: 'subaccount', destination_id: '', key_type: '', key_masked: '', label: '' },
        uncertain: false,
        checks: 0,
        description: command.description,
        metadata: command.metadata,
        failure_code: null,
        failure_reason: null,
        paid_at: null,
        // Not counted against the merchant's daily limit: nothing to give back on a failure.
        limit_day: '',
        limit_released: true,
        idempotency_key: command.idempotencyKey,
        request_hash: command.requestHash,
        refusal: null,
        subaccount_id: subaccount._id,
        // If this request dies before the provider answers, a recheck reads the transfer back.
        due_at: new Date(now.getTime() + Math.max(this.options.recheckBaseMs, 30_000)),
        created_at: now,
        updated_at: now,
      },
      TO_SUBACCOUNT,
      SubaccountsService.withdrawalSource(subaccount),
    );
  }

  /** A subaccount's withdrawals, newest first (404 naming id when the subaccount is unknown here). */
  async list(scope: CallerScope, subaccountId: string, query: { limit: number; startingAfter: string }): Promise<{ data: PayoutDoc[]; hasMore: boolean }> {
    if (!Number.isInteger(query.limit) || query.limit < 0 || query.limit > MAX_LIST_LIMIT) {
      throw new AppError('parameter_invalid', { param: 'limit', message: `O parâmetro limit deve ser um inteiro de 1 a ${MAX_LIST_LIMIT}.` });
    }
    const subaccount = await this.subaccounts.get(scope, subaccountId);
    return this.store.list(scope, { subaccountId: subaccount._id, limit: query.limit || 10, ...(query.startingAfter ? { startingAfter: query.startingAfter } : {}) });
  }
}
