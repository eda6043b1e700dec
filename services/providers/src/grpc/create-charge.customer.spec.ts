import { customerToProto, modeFromName, type providers } from '@orquestra/contracts';
import type { VaultCards } from '../domain/vault-cards';
import type { CreateChargeInput, ProviderCharge } from '../adapters/provider-adapter';
import type { BreakerRegistry } from '../breakers/breaker-registry';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import type { SubaccountSecrets } from '../domain/subaccount-secrets';
import type { WebhookIntakeService } from '../domain/webhook-intake.service';
import { providersHandlers } from './providers.handlers';

// Fakes for the collaborators (the account store and the adapter); the handler under test is the real one.
const pending: ProviderCharge = { providerPaymentId: 'txid1', status: 'pending', amount: 1_990, amountPaid: 0, nextAction: { type: 'none' } };

function handlersSeeing(seen: CreateChargeInput[]) {
  const doc = { _id: 'pa_1', provider: 'efi', mode: 'test', enabled: true, methods: ['pix', 'boleto'] } as unknown as ProviderAccountDoc;
  const accounts = {
    get: () => Promise.resolve(doc),
    call: <T>(_doc: ProviderAccountDoc, operation: (adapter: { createCharge(input: CreateChargeInput): Promise<ProviderCharge> }) => Promise<T>) =>
      operation({ createCharge: (input) => Promise.resolve(void seen.push(input)).then(() => pending) }),
  } as unknown as ProviderAccountService;
  return providersHandlers({ accounts, breakers: {} as BreakerRegistry, webhooks: {} as WebhookIntakeService, subaccountSecrets: {} as SubaccountSecrets, vaultCards: {} as VaultCards });
}

const request = (customer: providers.CreateChargeRequest['customer']): providers.CreateChargeRequest => ({
  merchant_id: 'acct_1', mode: modeFromName('test'), account_id: 'pa_1', payment_id: 'pay_1', method: 'boleto', amount: 1_990,
  customer, expires_in_seconds: 3_600, description: '', metadata: {}, idempotency_key: 'pay_1:pa_1', splits: [],
});

describe('createCharge: the buyer', () => {
  it('hands the adapter the contracts’ customer as given, nothing added for what was not', async () => {
    const seen: CreateChargeInput[] = [];
    const address = { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310200' };
    await handlersSeeing(seen).createCharge(request(customerToProto({ name: 'Ana', document: '12345678909', address })), {} as never);
    expect(seen[0]?.customer).toStrictEqual({ name: 'Ana', document: '12345678909', address });
  });

  it('refuses a charge without the buyer’s name, which every provider requires', async () => {
    const seen: CreateChargeInput[] = [];
    await expect(handlersSeeing(seen).createCharge(request({ document: '12345678909' }), {} as never)).rejects.toMatchObject({ code: 'parameter_missing', param: 'customer.name' });
    await expect(handlersSeeing(seen).createCharge(request(undefined), {} as never)).rejects.toMatchObject({ code: 'parameter_missing' });
    expect(seen).toEqual([]);
  });
});
