import { modeFromName } from '@orquestra/contracts';
import type { ProviderAdapter } from '../adapters/provider-adapter';
import { ProviderError } from '../adapters/provider-adapter';
import { CycleChargeNotApplicableError, type CreateCycleChargeInput, type CreateRecurrenceInput, type ProviderCycleCharge, type ProviderRecurrence, type RetryCycleChargeInput } from '../adapters/provider-recurrences';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import { CycleNotDebitableError, type EmulatorControl } from '../sandbox/emulator-control';
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

function handlersWith(options: { adapter: Partial<ProviderAdapter> & Record<string, unknown>; mode?: 'test' | 'live'; control?: Partial<Pick<EmulatorControl, 'approveRecurrence' | 'settleCycle'>> }) {
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

describe('cycle charge handlers', () => {
  const retrying: ProviderCycleCharge = {
    providerChargeId: 'tx1',
    providerRecurrenceId: 'RR1',
    status: 'retrying',
    providerStatus: 'ATIVA',
    amount: 4_990,
    dueDate: '2026-12-10',
    failedAttempts: 1,
    nextAttemptDate: '2026-12-12',
  };
  const paid: ProviderCycleCharge = { ...retrying, status: 'paid', providerStatus: 'CONCLUIDA', failedAttempts: 0, nextAttemptDate: undefined, endToEndId: 'E123' };
  const createRequest = { account: account(), provider_recurrence_id: 'RR1', payment_id: 'pay_1', amount: 4_990, due_date: '2026-12-10', description: '' };

  it('sends the cycle’s charge keyed by our payment id and maps the answer (absent stays absent)', async () => {
    const seen: CreateCycleChargeInput[] = [];
    const handlers = handlersWith({ adapter: capable({ createCycleCharge: (input: CreateCycleChargeInput) => Promise.resolve(void seen.push(input)).then(() => ({ ...retrying, status: 'scheduled', failedAttempts: 0, nextAttemptDate: undefined })) }) });
    const answer = await handlers.createCycleCharge(createRequest as never, {} as never);
    expect(seen).toEqual([{ providerRecurrenceId: 'RR1', paymentId: 'pay_1', amount: 4_990, dueDate: '2026-12-10' }]);
    expect(answer.charge).toEqual({
      provider_charge_id: 'tx1',
      provider_recurrence_id: 'RR1',
      status: 'scheduled',
      provider_status: 'ATIVA',
      amount: 4_990,
      due_date: '2026-12-10',
      failed_attempts: 0,
    });
  });

  it('refuses bad input before calling the provider', async () => {
    const handlers = handlersWith({ adapter: capable({ createCycleCharge: () => Promise.reject(new Error('must not be called')) }) });
    await expect(handlers.createCycleCharge({ ...createRequest, due_date: '2026-02-30' } as never, {} as never)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'due_date' });
    await expect(handlers.createCycleCharge({ ...createRequest, amount: 0 } as never, {} as never)).rejects.toMatchObject({ code: 'amount_too_small', param: 'amount' });
    await expect(handlers.createCycleCharge({ ...createRequest, payment_id: '' } as never, {} as never)).rejects.toMatchObject({ code: 'parameter_missing', param: 'payment_id' });
  });

  it('answers a provider that makes its own cycles with provider_rejected and its Portuguese message', async () => {
    const handlers = handlersWith({ adapter: capable({ createCycleCharge: () => Promise.reject(new CycleChargeNotApplicableError('asaas')) }) });
    await expect(handlers.createCycleCharge(createRequest as never, {} as never)).rejects.toMatchObject({
      code: 'provider_rejected',
      param: 'id',
      message: expect.stringMatching(/^Este provedor cria sozinho a cobrança de cada ciclo/),
    });
  });

  it('reads a cycle charge with its attempts; an unknown one is not_found naming provider_charge_id', async () => {
    const handlers = handlersWith({ adapter: capable({ getCycleCharge: () => Promise.resolve(retrying) }) });
    const answer = await handlers.getCycleCharge({ account: account(), provider_recurrence_id: 'RR1', provider_charge_id: 'tx1' } as never, {} as never);
    expect(answer.charge).toMatchObject({ status: 'retrying', failed_attempts: 1, next_attempt_date: '2026-12-12' });
    expect(answer.charge).not.toHaveProperty('end_to_end_id');
    const unknown = handlersWith({ adapter: capable({ getCycleCharge: () => Promise.reject(new ProviderError('not_found', 'not_found', 'no cobr')) }) });
    await expect(unknown.getCycleCharge({ account: account(), provider_recurrence_id: 'RR1', provider_charge_id: 'tx9' } as never, {} as never)).rejects.toMatchObject({
      code: 'not_found',
      param: 'provider_charge_id',
    });
  });

  it('asks for a retry where the adapter can, and says in Portuguese where the provider schedules its own', async () => {
    const seen: RetryCycleChargeInput[] = [];
    const handlers = handlersWith({ adapter: capable({ retryCycleCharge: (input: RetryCycleChargeInput) => Promise.resolve(void seen.push(input)).then(() => retrying) }) });
    const answer = await handlers.retryCycleCharge({ account: account(), provider_charge_id: 'tx1', date: '2026-12-12' } as never, {} as never);
    expect(seen).toEqual([{ providerChargeId: 'tx1', date: '2026-12-12' }]);
    expect(answer.charge).toMatchObject({ next_attempt_date: '2026-12-12' });
    await expect(handlers.retryCycleCharge({ account: account(), provider_charge_id: 'tx1', date: '12/12/2026' } as never, {} as never)).rejects.toMatchObject({ code: 'parameter_invalid', param: 'date' });
    const own = handlersWith({ adapter: capable() });
    await expect(own.retryCycleCharge({ account: account(), provider_charge_id: 'tx1', date: '2026-12-12' } as never, {} as never)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'provider_account_id',
      message: expect.stringMatching(/^A conta pa_1 \(efi\) não aceita pedidos de nova tentativa de débito/),
    });
  });

  it('simulates the debit through the emulator control, then reads the charge', async () => {
    const settled: Array<[string, string]> = [];
    const handlers = handlersWith({ adapter: capable({ getCycleCharge: () => Promise.resolve(paid) }), control: { settleCycle: (id, outcome) => Promise.resolve(void settled.push([id, outcome])) } });
    const answer = await handlers.simulateCycleCharge({ account: account(), provider_recurrence_id: 'RR1', provider_charge_id: 'tx1', outcome: 'paid' } as never, {} as never);
    expect(settled).toEqual([['tx1', 'paid']]);
    expect(answer.charge).toMatchObject({ status: 'paid', end_to_end_id: 'E123' });
    await expect(handlers.simulateCycleCharge({ account: account(), provider_recurrence_id: 'RR1', provider_charge_id: 'tx1', outcome: 'late' } as never, {} as never)).rejects.toMatchObject({
      code: 'parameter_invalid',
      param: 'outcome',
    });
  });

  it('never simulates a debit in live mode, nor where there is no emulator, nor before the attempt’s date', async () => {
    const request = (mode: 'test' | 'live') => ({ account: account(mode), provider_recurrence_id: 'RR1', provider_charge_id: 'tx1', outcome: 'failed' });
    const live = handlersWith({ adapter: capable(), mode: 'live', control: { settleCycle: () => Promise.reject(new Error('must not settle')) } });
    await expect(live.simulateCycleCharge(request('live') as never, {} as never)).rejects.toMatchObject({ code: 'live_mode_forbidden' });
    const realSandbox = handlersWith({ adapter: capable() });
    await expect(realSandbox.simulateCycleCharge(request('test') as never, {} as never)).rejects.toMatchObject({
      code: 'payment_not_simulatable',
      message: expect.stringMatching(/^A conta pa_1 \(efi\) usa o sandbox do próprio provedor/),
    });
    const early = handlersWith({ adapter: capable(), control: { settleCycle: () => Promise.reject(new CycleNotDebitableError('efi', 'A tentativa está agendada para 2026-12-10.')) } });
    await expect(early.simulateCycleCharge(request('test') as never, {} as never)).rejects.toMatchObject({
      code: 'payment_not_simulatable',
      param: 'provider_charge_id',
      message: expect.stringMatching(/^O débito deste ciclo não pode ser simulado agora/),
    });
  });
});
