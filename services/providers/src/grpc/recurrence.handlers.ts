import { customerFromProto, modeName, providers } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import type { ProviderAdapter } from '../adapters/provider-adapter';
import { isRecurrenceCapable, type CreateRecurrenceInput, type ProviderCycleCharge, type RecurrenceCapable } from '../adapters/provider-recurrences';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import { CycleNotDebitableError, type CycleOutcome } from '../sandbox/emulator-control';
import { guarded } from './provider-errors';
import { isRecurrenceFrequency, toProtoCycleCharge, toProtoRecurrence } from './recurrence.mapper';

type RecurrenceRpcs =
  | 'createRecurrence'
  | 'getRecurrence'
  | 'cancelRecurrence'
  | 'approveRecurrenceInSandbox'
  | 'createCycleCharge'
  | 'getCycleCharge'
  | 'retryCycleCharge'
  | 'simulateCycleCharge';

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date `YYYY-MM-DD` (not 2026-02-30). */
function isCalendarDate(value: string): boolean {
  const match = CALENDAR_DATE.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().slice(0, 10) === value;
}

const OUTCOMES: readonly CycleOutcome[] = ['paid', 'failed'];

/** The Pix Automático RPCs: each runs the account's adapter through the account's breaker. */
export function recurrenceHandlers(accounts: ProviderAccountService): Pick<Handlers<typeof providers.ProvidersServiceService>, RecurrenceRpcs> {
  const resolve = async (ref: providers.RecurrenceAccountRef | undefined): Promise<ProviderAccountDoc> => {
    if (!ref) throw new AppError('parameter_missing', { param: 'provider_account_id' });
    const account = await accounts.get(ref.merchant_id, modeName(ref.mode), ref.account_id);
    if (!isRecurrenceCapable(accounts.adapterFor(account))) {
      throw new AppError('parameter_invalid', {
        param: 'provider_account_id',
        message: `A conta ${account._id} (${account.provider}) não oferece Pix Automático. Escolha uma conta de um provedor com assinaturas (veja GET /v1/providers) ou omita provider_account_id.`,
      });
    }
    return account;
  };

  // The adapter was checked by resolve(); the breaker runs the same cached instance.
  const capable = <T>(account: ProviderAccountDoc, work: (adapter: RecurrenceCapable) => Promise<T>, notFoundParam: string): Promise<T> =>
    guarded(() => accounts.call(account, (adapter) => (isRecurrenceCapable(adapter) ? work(adapter) : Promise.reject(new AppError('parameter_invalid', { param: 'provider_account_id' })))), notFoundParam);
  const recurring = <T>(account: ProviderAccountDoc, work: (adapter: RecurrenceCapable) => Promise<T>): Promise<T> => capable(account, work, 'provider_recurrence_id');
  const cycle = (account: ProviderAccountDoc, work: (adapter: RecurrenceCapable) => Promise<ProviderCycleCharge>): Promise<ProviderCycleCharge> =>
    capable(account, work, 'provider_charge_id');

  const required = (value: string, param: string): string => {
    if (!value) throw new AppError('parameter_missing', { param });
    return value;
  };

  return {
    async createRecurrence(request) {
      const account = await resolve(request.account);
      if (!account.enabled) throw new AppError('provider_unavailable', { message: 'A conta do provedor está desativada.' });
      if (!isRecurrenceFrequency(request.frequency)) throw new AppError('parameter_invalid', { param: 'frequency' });
      const payer = request.payer;
      if (!payer?.name) throw new AppError('parameter_missing', { param: 'customer.name' });
      if (!payer.document) throw new AppError('parameter_missing', { param: 'customer.document' });
      const address = payer.address && customerFromProto({ address: payer.address }).address;
      const input: CreateRecurrenceInput = {
        subscriptionId: required(request.subscription_id, 'subscription_id'),
        payer: { name: payer.name, document: payer.document, ...(address ? { address } : {}) },
        frequency: request.frequency,
        ...(request.amount !== undefined ? { amount: request.amount } : {}),
        ...(request.first_amount !== undefined ? { firstAmount: request.first_amount } : {}),
        description: request.description,
        startDate: required(request.start_date, 'start_date'),
        ...(request.end_date !== undefined ? { endDate: request.end_date } : {}),
        retry: request.retry,
        approvalExpiresInSeconds: request.approval_expires_in_seconds,
      };
      return { recurrence: toProtoRecurrence(await recurring(account, (adapter) => adapter.createRecurrence(input))), provider: account.provider };
    },

    async getRecurrence({ account: ref, provider_recurrence_id }) {
      const account = await resolve(ref);
      const id = required(provider_recurrence_id, 'provider_recurrence_id');
      return { recurrence: toProtoRecurrence(await recurring(account, (adapter) => adapter.getRecurrence(id))) };
    },

    async cancelRecurrence({ account: ref, provider_recurrence_id }) {
      const account = await resolve(ref);
      const id = required(provider_recurrence_id, 'provider_recurrence_id');
      return { recurrence: toProtoRecurrence(await recurring(account, (adapter) => adapter.cancelRecurrence(id))) };
    },

    async approveRecurrenceInSandbox({ account: ref, provider_recurrence_id, approval_charge_id }) {
      const account = await resolve(ref);
      if (account.mode !== 'test') throw new AppError('live_mode_forbidden');
      const id = required(provider_recurrence_id, 'provider_recurrence_id');
      const approved = await guarded(
        () => accounts.withEmulatorControl(accounts.sandboxAccount(account), (control) => control.approveRecurrence(id, approval_charge_id).then(() => true)),
        'provider_recurrence_id',
      );
      if (!approved) {
        throw new AppError('payment_not_simulatable', {
          message: `A conta ${account._id} (${account.provider}) usa o sandbox do próprio provedor, que não oferece uma API para aprovar autorizações de teste. Aprove a autorização no ambiente de testes do provedor.`,
        });
      }
      return { recurrence: toProtoRecurrence(await recurring(account, (adapter) => adapter.getRecurrence(id))) };
    },

    async createCycleCharge(request) {
      const account = await resolve(request.account);
      if (!account.enabled) throw new AppError('provider_unavailable', { message: 'A conta do provedor está desativada.' });
      const providerRecurrenceId = required(request.provider_recurrence_id, 'provider_recurrence_id');
      const paymentId = required(request.payment_id, 'payment_id');
      if (!Number.isSafeInteger(request.amount) || request.amount < 1) throw new AppError('amount_too_small', { param: 'amount' });
      if (!isCalendarDate(request.due_date)) throw new AppError('parameter_invalid', { param: 'due_date', message: 'due_date deve ser uma data no formato AAAA-MM-DD.' });
      const input = {
        providerRecurrenceId,
        paymentId,
        amount: request.amount,
        dueDate: request.due_date,
        ...(request.description ? { description: request.description } : {}),
      };
      return { charge: toProtoCycleCharge(await cycle(account, (adapter) => adapter.createCycleCharge(input))) };
    },

    async getCycleCharge({ account: ref, provider_recurrence_id, provider_charge_id }) {
      const account = await resolve(ref);
      const input = { providerRecurrenceId: required(provider_recurrence_id, 'provider_recurrence_id'), providerChargeId: required(provider_charge_id, 'provider_charge_id') };
      return { charge: toProtoCycleCharge(await cycle(account, (adapter) => adapter.getCycleCharge(input))) };
    },

    async retryCycleCharge({ account: ref, provider_charge_id, date }) {
      const account = await resolve(ref);
      const adapter = accounts.adapterFor(account) as ProviderAdapter & RecurrenceCapable;
      if (!adapter.retryCycleCharge) {
        throw new AppError('parameter_invalid', {
          param: 'provider_account_id',
          message: `A conta ${account._id} (${account.provider}) não aceita pedidos de nova tentativa de débito: o próprio provedor agenda as novas tentativas de cada ciclo.`,
        });
      }
      const input = { providerChargeId: required(provider_charge_id, 'provider_charge_id'), date };
      if (!isCalendarDate(date)) throw new AppError('parameter_invalid', { param: 'date', message: 'date deve ser uma data no formato AAAA-MM-DD.' });
      // The breaker wraps the call of the adapter checked above (the same cached instance).
      return {
        charge: toProtoCycleCharge(
          await cycle(account, (a) => (a.retryCycleCharge ? a.retryCycleCharge(input) : Promise.reject(new AppError('parameter_invalid', { param: 'provider_account_id' })))),
        ),
      };
    },

    async simulateCycleCharge({ account: ref, provider_recurrence_id, provider_charge_id, outcome }) {
      const account = await resolve(ref);
      if (account.mode !== 'test') throw new AppError('live_mode_forbidden');
      const input = { providerRecurrenceId: required(provider_recurrence_id, 'provider_recurrence_id'), providerChargeId: required(provider_charge_id, 'provider_charge_id') };
      if (!(OUTCOMES as readonly string[]).includes(outcome)) throw new AppError('parameter_invalid', { param: 'outcome', message: 'outcome deve ser paid ou failed.' });
      const simulated = await guarded(async () => {
        try {
          return await accounts.withEmulatorControl(accounts.sandboxAccount(account), (control) => control.settleCycle(input.providerChargeId, outcome as CycleOutcome).then(() => true));
        } catch (error) {
          if (!(error instanceof CycleNotDebitableError)) throw error;
          throw new AppError('payment_not_simulatable', {
            param: 'provider_charge_id',
            message:
              'O débito deste ciclo não pode ser simulado agora: o banco do pagador só debita a partir da data da tentativa agendada e enquanto a cobrança está ativa (não paga, expirada ou cancelada).',
          });
        }
      }, 'provider_charge_id');
      if (!simulated) {
        throw new AppError('payment_not_simulatable', {
          message: `A conta ${account._id} (${account.provider}) usa o sandbox do próprio provedor, que não oferece uma API para simular o débito de um ciclo. Simule o débito no ambiente de testes do provedor; o ciclo será atualizado pelo webhook.`,
        });
      }
      return { charge: toProtoCycleCharge(await cycle(account, (adapter) => adapter.getCycleCharge(input))) };
    },
  };
}
