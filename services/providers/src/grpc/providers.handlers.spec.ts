import { modeFromName } from '@orquestra/contracts';
import type { VaultCards } from '../domain/vault-cards';
import type { ProviderCharge } from '../adapters/provider-adapter';
import type { BreakerRegistry } from '../breakers/breaker-registry';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import type { SubaccountSecrets } from '../domain/subaccount-secrets';
import type { WebhookIntakeService } from '../domain/webhook-intake.service';
import type { EmulatorControl } from '../sandbox/emulator-control';
import { providersHandlers } from './providers.handlers';

// Fakes for the collaborators; the handler under test is the real one.
const paidCharge: ProviderCharge = { providerPaymentId: 'txid1', status: 'paid', amount: 1_990, amountPaid: 1_990, nextAction: { type: 'none' } };

function handlersWith(account: Partial<ProviderAccountDoc>, control: Pick<EmulatorControl, 'pay'> | undefined) {
  const doc = { _id: 'pa_1', provider: 'efi', mode: 'test', ...account } as ProviderAccountDoc;
  const accounts = {
    get: () => Promise.resolve(doc),
    sandboxAccount: () => ({ provider: doc.provider, mode: doc.mode, credentials: {} }),
    withEmulatorControl: <T>(_account: unknown, work: (c: EmulatorControl) => Promise<T>) => (control ? work(control as EmulatorControl) : Promise.resolve(undefined)),
    call: <T>(_doc: ProviderAccountDoc, operation: (adapter: { getCharge(): Promise<ProviderCharge> }) => Promise<T>) => operation({ getCharge: () => Promise.resolve(paidCharge) }),
  } as unknown as ProviderAccountService;
  return providersHandlers({ accounts, breakers: {} as BreakerRegistry, webhooks: {} as WebhookIntakeService, subaccountSecrets: {} as SubaccountSecrets, vaultCards: {} as VaultCards });
}

const request = (mode: 'test' | 'live') => ({ ref: { merchant_id: 'acct_1', mode: modeFromName(mode), account_id: 'pa_1', provider_payment_id: 'txid1' } });

describe('simulateChargePaid', () => {
  it('pays through the account’s emulator control, then answers the charge as the provider reads it', async () => {
    const paid: string[] = [];
    const handlers = handlersWith({}, { pay: (id: string) => Promise.resolve(void paid.push(id)) });
    const answer = await handlers.simulateChargePaid(request('test') as never, {} as never);
    expect(paid).toEqual(['txid1']);
    expect(answer.charge).toMatchObject({ provider_payment_id: 'txid1', amount_paid: 1_990 });
  });

  it('answers a clear Portuguese 4xx when the account’s sandbox cannot simulate', async () => {
    const handlers = handlersWith({ provider: 'stripe' }, undefined);
    await expect(handlers.simulateChargePaid(request('test') as never, {} as never)).rejects.toMatchObject({
      code: 'payment_not_simulatable',
      message: expect.stringMatching(/^A conta pa_1 \(stripe\) usa o sandbox do próprio provedor, que não oferece uma API para pagar cobranças de teste\./),
    });
  });

  it('never simulates in live mode', async () => {
    const handlers = handlersWith({ mode: 'live' }, { pay: () => Promise.reject(new Error('must not pay')) });
    await expect(handlers.simulateChargePaid(request('live') as never, {} as never)).rejects.toMatchObject({ code: 'live_mode_forbidden' });
  });
});
