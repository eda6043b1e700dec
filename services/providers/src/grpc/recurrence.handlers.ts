import { customerFromProto, modeName, providers } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import type { ProviderAdapter } from '../adapters/provider-adapter';
import { ProviderError } from '../adapters/provider-adapter';
import type { CreateRecurrenceInput, ProviderRecurrence, RecurrenceCapable } from '../adapters/provider-recurrences';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import { isRecurrenceFrequency, toProtoRecurrence } from './recurrence.mapper';

type RecurrenceRpcs = 'createRecurrence' | 'getRecurrence' | 'cancelRecurrence' | 'approveRecurrenceInSandbox';

/** An adapter implements Pix Automático when it has RecurrenceCapable's required methods. */
export function isRecurrenceCapable(adapter: ProviderAdapter): adapter is ProviderAdapter & RecurrenceCapable {
  const candidate = adapter as Partial<RecurrenceCapable>;
  return typeof candidate.createRecurrence === 'function' && typeof candidate.getRecurrence === 'function' && typeof candidate.cancelRecurrence === 'function';
}

/** ProviderError → the normalized error; a refusal naming a field keeps its param and message. */
function toAppError(error: unknown): unknown {
  if (!(error instanceof ProviderError)) return error;
  if (error.kind === 'not_found') return new AppError('not_found', { param: 'provider_recurrence_id' });
  if (error.kind === 'invalid_credentials') return new AppError('invalid_credentials');
  if (error.param) return new AppError('parameter_invalid', { param: error.param.name, message: error.param.publicMessage });
  return new AppError(error.normalizedCode === 'not_found' ? 'provider_error' : error.normalizedCode);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error);
  }
}

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
  const recurring = (account: ProviderAccountDoc, work: (adapter: RecurrenceCapable) => Promise<ProviderRecurrence>): Promise<ProviderRecurrence> =>
    guarded(() => accounts.call(account, (adapter) => (isRecurrenceCapable(adapter) ? work(adapter) : Promise.reject(new AppError('parameter_invalid', { param: 'provider_account_id' })))));

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
      const approved = await guarded(() =>
        accounts.withEmulatorControl(accounts.sandboxAccount(account), (control) => control.approveRecurrence(id, approval_charge_id).then(() => true)),
      );
      if (!approved) {
        throw new AppError('payment_not_simulatable', {
          message: `A conta ${account._id} (${account.provider}) usa o sandbox do próprio provedor, que não oferece uma API para aprovar autorizações de teste. Aprove a autorização no ambiente de testes do provedor.`,
        });
      }
      return { recurrence: toProtoRecurrence(await recurring(account, (adapter) => adapter.getRecurrence(id))) };
    },
  };
}
