import { modeFromName } from '@orquestra/contracts';
import type { ProviderAdapter } from '../adapters/provider-adapter';
import { ProviderError } from '../adapters/provider-adapter';
import type { CreateRecurrenceInput, ProviderRecurrence } from '../adapters/provider-recurrences';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import type { EmulatorControl } from '../sandbox/emulator-control';
import { recurrenceHandlers } from './recurrence.handlers';

// Fakes for the collaborators (the account service, the adapter); the handlers under test are the real ones.
const pending: ProviderRecurrence = {
  providerRecurrenceId: 'RR1',
  status: 'pending',
  providerStatus: 'CRIADA',
  cycles: 'ours',
  approval: { qrCode: '000201rec' },
  approvalChargeId: 'cob1',
};

function handlersWith(options: { adapter: Partial<ProviderAdapter> & Record<string, unknown>; mode?: 'test' | 'live'; control?: Pick<EmulatorControl, 'approveRecurrence'> }) {
  const doc = { _id: 'pa_1', provider: 'efi', mode: options.mode ?? 'test', enabled: true } as ProviderAccountDoc;
  const adapter = options.adapter as unknown as ProviderAdapter;
  const accounts = {
    get: () => Promise.resolve(doc),
    adapterFor: () => adapter,
    call: <T>(_doc: ProviderAccountDoc, operation: (a: ProviderAdapter) => Promise<T>) => operation(adapter),
    sandboxAccount: () => ({ provider: doc.provider, mode: doc.mode, credentials: {} }),
    withEmulatorControl: <T>(_account: unknown, work: (c: EmulatorControl) => Promise<T>) => (options.control ? work(options.control as EmulatorControl) : Promise.resolve(undefined)),
  } as unknown as ProviderAccountService;
  return recurrenceHandlers(accounts);
}

const account = (mode: 'test' | 'live' = 'test') => ({ merchant_id: 'acct_1', mode: modeFromName(mode), account_id: 'pa_1' });

const capable = (overrides: Record<string, unknown> = {}) => ({
  createRecurrence: (input: CreateRecurrenceInput) => Promise.resolve({ ...pending, seen: input }),
  getRecurrence: () => Promise.resolve({ ...pending, status: 'active' as const, approval: undefined, approvalChargeId: undefined }),
  cancelRecurrence: () => Promise.resolve({ ...pending, status: 'canceled' as const, approval: undefined, approvalChargeId: undefined }),
  ...overrides,
});

const createRequest = {
  account: account(),
  subscription_id: 'sub_1',
  payer: { name: 'Ana', document: '12345678909' },
  frequency: 'monthly',
  amount: 4_990,
  description: 'Plano',
  start_date: '2026-12-10',
  retry: true,
  approval_expires_in_seconds: 86_400,
};

describe('recurrence handlers', () => {
  it('maps the request to the adapter’s input (absent stays absent) and its answer to the message', async () => {
    const seen: CreateRecurrenceInput[] = [];
    const handlers = handlersWith({ adapter: capable({ createRecurrence: (input: CreateRecurrenceInput) => Promise.resolve(void seen.push(input)).then(() => pending) }) });
    const answer = await handlers.createRecurrence(createRequest as never, {} as never);
    expect(seen).toEqual([
      { subscriptionId: 'sub_1', payer: { name: 'Ana', document: '12345678909' }, frequency: 'monthly', amount: 4_990, description: 'Plano', startDate: '2026-12-10', retry: true, approvalExpiresInSeconds: 86_400 },
    ]);
    expect(answer.recurrence).toEqual({
      provider_recurrence_id: 'RR1',
      status: 'pending',
      provider_status: 'CRIADA',
      cycles: 'ours',
      approval: { qr_code: '000201rec' },
      approval_charge_id: 'cob1',
      cycle_charge_ids: [],
    });
  });

  it('refuses an account whose adapter has no Pix Automático, in Portuguese, naming provider_account_id', async () => {
    const handlers = handlersWith({ adapter: { createCharge: () => Promise.reject(new Error('unused')) } });
    await expect(handlers.createRecurrence(createRequest as never, {} as never)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'provider_account_id',
      message: expect.stringMatching(/^A conta pa_1 \(efi\) não oferece Pix Automático\./),
    });
  });

  it('keeps the param of a provider refusal naming one field', async () => {
    const refusal = new ProviderError('rejected', 'provider_rejected', 'variable amount', 422, { name: 'amount', publicMessage: 'Este provedor exige valor fixo.' });
    const handlers = handlersWith({ adapter: capable({ createRecurrence: () => Promise.reject(refusal) }) });
    await expect(handlers.createRecurrence(createRequest as never, {} as never)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'amount', message: 'Este provedor exige valor fixo.' });
  });

  it('cancels and answers the recurrence as it is after', async () => {
    const handlers = handlersWith({ adapter: capable() });
    const answer = await handlers.cancelRecurrence({ account: account(), provider_recurrence_id: 'RR1' } as never, {} as never);
    expect(answer.recurrence).toMatchObject({ status: 'canceled', cycle_charge_ids: [] });
    expect(answer.recurrence).not.toHaveProperty('approval_charge_id');
  });

  it('approves in the sandbox through the emulator control, then reads the recurrence', async () => {
    const approved: Array<[string, string | undefined]> = [];
    const handlers = handlersWith({ adapter: capable(), control: { approveRecurrence: (id, charge) => Promise.resolve(void approved.push([id, charge])) } });
    const answer = await handlers.approveRecurrenceInSandbox({ account: account(), provider_recurrence_id: 'RR1', approval_charge_id: 'cob1' } as never, {} as never);
    expect(approved).toEqual([['RR1', 'cob1']]);
    expect(answer.recurrence).toMatchObject({ status: 'active' });
  });

  it('never approves in live mode, nor where the account has no emulator', async () => {
    const live = handlersWith({ adapter: capable(), mode: 'live', control: { approveRecurrence: () => Promise.reject(new Error('must not approve')) } });
    await expect(live.approveRecurrenceInSandbox({ account: account('live'), provider_recurrence_id: 'RR1' } as never, {} as never)).rejects.toMatchObject({ code: 'live_mode_forbidden' });
    const realSandbox = handlersWith({ adapter: capable() });
    await expect(realSandbox.approveRecurrenceInSandbox({ account: account(), provider_recurrence_id: 'RR1' } as never, {} as never)).rejects.toMatchObject({ code: 'payment_not_simulatable' });
  });
});
