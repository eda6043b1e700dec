import { modeFromName, type providers } from '@orquestra/contracts';
import type { VaultCards } from '../../domain/vault-cards';
import { capabilitiesOf } from '../adapter-capabilities';
import type { CreateChargeInput, ProviderCharge } from '../provider-adapter';
import type { BreakerRegistry } from '../../breakers/breaker-registry';
import type { ProviderAccountDoc } from '../../db/provider-account.model';
import type { ProviderAccountService } from '../../domain/provider-account.service';
import type { SubaccountSecrets } from '../../domain/subaccount-secrets';
import type { WebhookIntakeService } from '../../domain/webhook-intake.service';
import { providersHandlers } from '../../grpc/providers.handlers';
import { StripeAdapter } from './stripe.adapter';
import { destinationParams, isDestinationCharge } from './stripe.splits';

const part = (amount: number, splitTarget = 'acct_1Seller') => ({ subaccountId: 'sub_1', splitTarget, amount });

describe('Stripe splits: one destination per charge', () => {
  it('sends the part as transfer_data[amount] to the connected account', () => {
    expect(destinationParams({ amount: 10_000, splits: [part(3_000)] })).toEqual({ transfer_data: { destination: 'acct_1Seller', amount: 3_000 } });
    expect(destinationParams({ amount: 10_000 })).toEqual({});
  });

  it('refuses two parts, a part that leaves the platform nothing, and a target that is not an account', () => {
    expect(() => destinationParams({ amount: 10_000, splits: [part(1_000), part(1_000, 'acct_2')] })).toThrow(RangeError);
    expect(() => destinationParams({ amount: 10_000, splits: [part(10_000)] })).toThrow(RangeError);
    expect(() => destinationParams({ amount: 10_000, splits: [part(1_000, 'rp_1')] })).toThrow(RangeError);
  });

  it('knows a destination charge from the intent Stripe answers', () => {
    expect(isDestinationCharge({ transfer_data: { destination: 'acct_1' } })).toBe(true);
    expect(isDestinationCharge({ transfer_data: null })).toBe(false);
  });

  it('declares one split part in its capabilities, and the providers handler refuses a second before any call', async () => {
    expect(capabilitiesOf(StripeAdapter).maxSplits).toBe(1);
    const seen: CreateChargeInput[] = [];
    const doc = { _id: 'pa_1', provider: 'stripe', mode: 'test', enabled: true, methods: ['pix'] } as unknown as ProviderAccountDoc;
    const pending: ProviderCharge = { providerPaymentId: 'pi_1', status: 'pending', amount: 10_000, amountPaid: 0, nextAction: { type: 'none' } };
    const accounts = {
      get: () => Promise.resolve(doc),
      call: <T>(_doc: ProviderAccountDoc, operation: (adapter: { createCharge(input: CreateChargeInput): Promise<ProviderCharge> }) => Promise<T>) =>
        operation({ createCharge: (input) => Promise.resolve(void seen.push(input)).then(() => pending) }),
    } as unknown as ProviderAccountService;
    const handlers = providersHandlers({ accounts, breakers: {} as BreakerRegistry, webhooks: {} as WebhookIntakeService, subaccountSecrets: {} as SubaccountSecrets, vaultCards: {} as VaultCards });
    const request = (splits: providers.CreateChargeRequest['splits']): providers.CreateChargeRequest => ({
      merchant_id: 'acct_m', mode: modeFromName('test'), account_id: 'pa_1', payment_id: 'pay_1', method: 'pix', amount: 10_000,
      customer: { name: 'Ana' } as providers.CreateChargeRequest['customer'], expires_in_seconds: 3_600, description: '', metadata: {}, idempotency_key: 'pay_1:pa_1', splits,
    });
    const split = (target: string) => ({ subaccount_id: 'sub_1', split_target: target, amount: 1_000 });
    await expect(handlers.createCharge(request([split('acct_1'), split('acct_2')]), {} as never)).rejects.toMatchObject({ code: 'invalid_request', param: 'splits' });
    expect(seen).toEqual([]);
    await handlers.createCharge(request([split('acct_1')]), {} as never);
    expect(seen[0]?.splits).toEqual([{ subaccountId: 'sub_1', splitTarget: 'acct_1', amount: 1_000 }]);
  });
});
