import { randomBytes } from 'node:crypto';
import { SecretBox } from '@orquestra/platform';
import pino from 'pino';
import type { AdapterAccount } from '../adapters/adapter-factory';
import type { ProviderAdapter } from '../adapters/provider-adapter';
import { ProviderError } from '../adapters/provider-adapter';
import type { BreakerRegistry } from '../breakers/breaker-registry';
import type { ProviderAccountDoc, ProviderAccountModel } from '../db/provider-account.model';
import { ProviderAccountService } from './provider-account.service';

// Fakes for the collaborators (the accounts collection, the adapter); the service is the real one.
function serviceWith(adapter: Record<string, unknown>) {
  const stored: ProviderAccountDoc[] = [];
  const model = {
    create: (doc: ProviderAccountDoc) => Promise.resolve(void stored.push(doc)),
    deleteOne: ({ _id }: { _id: string }) => Promise.resolve(void stored.splice(stored.findIndex((d) => d._id === _id), 1)),
    updateOne: () => Promise.resolve(),
  } as unknown as ProviderAccountModel;
  const breakers = {} as BreakerRegistry;
  const secrets = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
  const service = new ProviderAccountService(model, secrets, breakers, () => adapter as unknown as ProviderAdapter, 'https://api.example/', pino({ level: 'silent' }), () => undefined);
  return { service, stored };
}

const connectWoovi = (service: ProviderAccountService) =>
  service.connect({ merchantId: 'acct_1', mode: 'test', provider: 'woovi', name: '', priority: 1, enabled: true, credentials: { app_id: 'app' }, fees: [] });

const recurring = (overrides: Record<string, unknown>) => ({
  verifyCredentials: () => Promise.resolve(),
  registerWebhook: () => Promise.resolve({}),
  createRecurrence: () => Promise.reject(new Error('unused')),
  getRecurrence: () => Promise.reject(new Error('unused')),
  cancelRecurrence: () => Promise.reject(new Error('unused')),
  ...overrides,
});

describe('ProviderAccountService.connect and Pix Automático webhooks', () => {
  it('registers the recurrence webhooks at the same intake URL as the payment one', async () => {
    const urls: string[][] = [];
    const { service, stored } = serviceWith(
      recurring({
        registerWebhook: (url: string) => Promise.resolve(void urls.push(['payments', url])).then(() => ({})),
        registerRecurrenceWebhooks: (url: string) => Promise.resolve(void urls.push(['recurrences', url])),
      }),
    );
    const doc = await connectWoovi(service);
    const intake = service.webhookUrlOf(doc);
    expect(intake).toMatch(new RegExp(`^https://api\\.example/webhooks/providers/${doc._id}\\?hmac=`));
    expect(urls).toEqual([
      ['payments', intake],
      ['recurrences', intake],
    ]);
    expect(stored).toHaveLength(1);
  });

  it('still connects when the provider refuses the recurrence webhooks (credentials without those scopes)', async () => {
    const { service, stored } = serviceWith(recurring({ registerRecurrenceWebhooks: () => Promise.reject(new ProviderError('rejected', 'provider_rejected', 'scope')) }));
    await expect(connectWoovi(service)).resolves.toMatchObject({ provider: 'woovi' });
    expect(stored).toHaveLength(1);
  });
});

describe('ProviderAccountService.adapterFor while an account is being connected', () => {
  it('replaces an adapter built from the account before its signing secret was stored, and a stale read never undoes that', async () => {
    const stored: ProviderAccountDoc[] = [];
    const model = {
      create: (doc: ProviderAccountDoc) => Promise.resolve(void stored.push({ ...doc })),
      updateOne: () => Promise.resolve(),
    } as unknown as ProviderAccountModel;
    let readWhileConnecting: ProviderAccountDoc | undefined;
    // Each adapter keeps the account it was built for, so the test can see its signing secret.
    const build = (account: AdapterAccount) =>
      ({
        account,
        verifyCredentials: () => Promise.resolve(),
        registerWebhook: () => {
          // Meanwhile a reader listing every account (the dispute-poll seeder) builds this one's adapter.
          readWhileConnecting = { ...stored[0]! };
          service.adapterFor(readWhileConnecting);
          return Promise.resolve({ signingSecret: 'whsec_test' });
        },
      }) as unknown as ProviderAdapter;
    const secrets = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
    const service = new ProviderAccountService(model, secrets, {} as BreakerRegistry, build, 'https://api.example/', pino({ level: 'silent' }), () => undefined);
    const signingSecretOf = (adapter: ProviderAdapter) => (adapter as unknown as { account: AdapterAccount }).account.signingSecret;

    const doc = await service.connect({ merchantId: 'acct_1', mode: 'test', provider: 'stripe', name: '', priority: 1, enabled: true, credentials: { secret_key: 'sk_test_1' }, fees: [] });
    expect(readWhileConnecting?.signing_secret_sealed).toBeNull();
    const adapter = service.adapterFor(doc);
    expect(signingSecretOf(adapter)).toBe('whsec_test');
    expect(service.adapterFor(doc)).toBe(adapter);
    expect(service.adapterFor(readWhileConnecting!)).toBe(adapter);
  });
});
