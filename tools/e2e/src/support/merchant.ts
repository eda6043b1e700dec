import { accounts, common } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import { api } from './api';
import { stackInfo } from './stack-info';

type Provider = keyof ReturnType<typeof stackInfo>['controlUrls'];

/** A merchant of a suite's own (nobody else's accounts touched) and its keys: test full, test restricted, live full. */
export interface SuiteMerchant {
  merchantId: string;
  key: string;
  restrictedKey: string;
  liveKey: string;
}

export async function newMerchant(name: string): Promise<SuiteMerchant> {
  const client = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${stackInfo().ports.accounts}`, { deadlineMs: 10_000 });
  try {
    const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
    const { merchant } = await client.createMerchant({ name, email: `e2e-${slug}-${Date.now()}@orquestra.dev` });
    if (!merchant) throw new Error('no merchant');
    const keyOf = async (mode: common.Mode, kind: accounts.KeyKind) => (await client.createApiKey({ merchant_id: merchant.id, mode, kind, name: `${name} e2e` })).secret;
    return {
      merchantId: merchant.id,
      key: await keyOf(common.Mode.MODE_TEST, accounts.KeyKind.KEY_KIND_FULL),
      restrictedKey: await keyOf(common.Mode.MODE_TEST, accounts.KeyKind.KEY_KIND_RESTRICTED),
      liveKey: await keyOf(common.Mode.MODE_LIVE, accounts.KeyKind.KEY_KIND_FULL),
    };
  } finally {
    client.close();
  }
}

/** A POST to an emulator's control port (`/__control/…`), JSON both ways. */
export async function emulatorControl(provider: Provider, path: string, body: unknown = {}): Promise<{ status: number; body: Record<string, any> }> {
  const response = await fetch(`${stackInfo().controlUrls[provider]}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

/**
 * Registers `credentials` at the provider's emulator and connects them as the merchant's account;
 * answers the account id (pa_…).
 */
export async function connectEmulatorAccount(key: string, provider: Provider, name: string, credentials: Record<string, string>, priority = 10): Promise<string> {
  const registered = await emulatorControl(provider, '/__control/accounts', credentials);
  if (registered.status >= 300) throw new Error(`${provider} emulator refused the account: HTTP ${registered.status}`);
  const connected = await api('POST', '/v1/provider-accounts', { key, body: { provider, name, credentials, priority } });
  if (connected.status !== 201) throw new Error(`connecting ${provider}: HTTP ${connected.status} ${JSON.stringify(connected.body)}`);
  return connected.body.id as string;
}

/** A card fields token, as the iframe gets it (the call only the platform's own page may make). */
export async function tokenizeCard(key: string, number: string, options: { cvc?: string; expMonth?: number; expYear?: number } = {}): Promise<string> {
  const config = await api('GET', '/v1/cards/config', { key });
  if (config.status !== 200) throw new Error(`cards config: HTTP ${config.status}`);
  const response = await fetch(`${stackInfo().baseUrl}/v1/cards/tokenize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(stackInfo().baseUrl).origin },
    body: JSON.stringify({
      publishable_key: config.body.publishable_key,
      origin: 'https://loja.example',
      number,
      exp_month: options.expMonth ?? 12,
      exp_year: options.expYear ?? 2031,
      cvc: options.cvc ?? '123',
    }),
  });
  const body = (await response.json()) as Record<string, any>;
  if (response.status !== 201) throw new Error(`tokenize: HTTP ${response.status} ${JSON.stringify(body['error'])}`);
  return body['token'] as string;
}
