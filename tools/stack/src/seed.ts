import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { accounts, common, owners, providers } from '@orquestra/contracts';
import { createRpcClient } from '@orquestra/platform';
import type { StackPorts } from './stack-layout';

export interface SeedResult {
  merchantId: string;
  testKey: string;
  restrictedTestKey: string;
  liveKey: string;
  testProviderAccountId: string;
  liveProviderAccountId: string | null;
  secondTestProviderAccountId: string | null;
  secondEmulatorClientId: string;
  emulatorClient: { clientId: string; clientSecret: string; pixKey: string };
  /** The saved Pix key (pdest_…) test-mode payouts may go to; payouts by API are on in test mode. */
  payoutDestinationId: string;
  /** The same key saved in live mode (with `withLiveAccount`), for test/live isolation; payouts stay off in live. */
  livePayoutDestinationId: string | null;
  /** The merchant's owner (dashboard sign-in), when `owner` was asked for. */
  owner: { email: string; password: string } | null;
  /** With `withAllEmulators` (npm start only): the test account connected at each other emulator. */
  emulatorAccounts: Array<{ provider: EmulatorProvider; accountId: string; priority: number }>;
}

export type EmulatorProvider = 'asaas' | 'pagarme' | 'mercadopago' | 'stripe' | 'woovi';

/**
 * The developer stack's test accounts at the five emulators besides Efí (Efí stays first, priority
 * 10, for Pix). Lower priority numbers are tried first: boleto and card go to Asaas, then the others
 * as fallbacks. Credentials derive from the merchant id and the seed's saved secret, so a restart
 * registers (and finds) the same ones. Pure: unit-tested in seed.spec.ts.
 */
export function emulatorAccountPlan(
  merchantId: string,
  secret: string,
): Array<{ provider: EmulatorProvider; name: string; priority: number; credentials: Record<string, string> }> {
  const tag = `${merchantId.replace(/[^A-Za-z0-9]/g, '')}${secret.replace(/[^A-Za-z0-9]/g, '').slice(-16)}`;
  return [
    { provider: 'asaas', name: 'Asaas sandbox (emulador local)', priority: 30, credentials: { api_key: `$aact_hmlg_${tag}` } },
    { provider: 'pagarme', name: 'Pagar.me teste (emulador local)', priority: 40, credentials: { secret_key: `sk_test_${tag}` } },
    {
      provider: 'mercadopago',
      name: 'Mercado Pago teste (emulador local)',
      priority: 50,
      credentials: { access_token: `TEST-${tag}`, webhook_secret: `whs${tag}` },
    },
    { provider: 'stripe', name: 'Stripe teste (emulador local)', priority: 60, credentials: { secret_key: `sk_test_${tag}` } },
    { provider: 'woovi', name: 'Woovi teste (emulador local)', priority: 70, credentials: { app_id: `app_${tag}` } },
  ];
}

/** Registers an account at an emulator's control port: true when the emulator did not know it (201). */
async function registerEmulatorAccount(controlUrl: string, credentials: Record<string, string>): Promise<boolean> {
  const response = await fetch(`${controlUrl}/__control/accounts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  });
  if (!response.ok) throw new Error(`emulator at ${controlUrl} refused the account: ${response.status}`);
  return response.status === 201;
}

/** The seeded merchant's owner, unless ORQUESTRA_OWNER_EMAIL / ORQUESTRA_OWNER_PASSWORD say otherwise. */
export const SEED_OWNER = { email: 'owner@orquestra.test', password: 'orquestra-dev-123' } as const;

/** The company's own Pix key the seeded merchant's payouts go to (not the key it receives on). */
export const SEED_PAYOUT_PIX_KEY = 'financeiro@loja-teste.orquestra.dev';

interface SeedState {
  merchantId?: string;
  testKey?: string;
  restrictedTestKey?: string;
  liveKey?: string;
  clientSecret?: string;
}

async function registerEmulatorClient(controlUrl: string, client: { clientId: string; clientSecret: string; pixKey: string }): Promise<void> {
  const response = await fetch(`${controlUrl}/__control/clients`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: client.clientId, client_secret: client.clientSecret, chave: client.pixKey }),
  });
  if (!response.ok) throw new Error(`emulator refused client registration: ${response.status}`);
}

/** Marks (in its name) an account the seed replaced because the emulator no longer knew its webhook. */
const REPLACED_SUFFIX = ' (substituída: o emulador a esqueceu)';

/**
 * Whether the Efí emulator still has this client's webhook. It keeps its state in a file across
 * restarts of `npm start`; without that file (deleted, or data from before it existed) it starts
 * empty, and an account whose webhook it forgot would never hear of a payment again.
 */
async function emulatorKnowsWebhook(controlUrl: string, clientId: string): Promise<boolean> {
  const response = await fetch(`${controlUrl}/__control/clients/${encodeURIComponent(clientId)}`);
  if (!response.ok) throw new Error(`emulator did not answer for client ${clientId}: ${response.status}`);
  return ((await response.json()) as { webhook_registered?: boolean }).webhook_registered === true;
}

/**
 * Creates (or, on a later start, finds again) the test merchant, its API keys and its provider
 * accounts on the local Efí emulator. State that cannot be read back (full keys are only stored
 * hashed) is kept in `stateFile`, git-ignored.
 */
export async function seedStack(options: {
  ports: StackPorts;
  certDir: string;
  stateFile: string;
  email?: string;
  /** Also connect a live-mode account on the emulator (the e2e stack uses it for isolation tests). */
  withLiveAccount?: boolean;
  /** Also connect a second test-mode Efí account (priority 20), for failover. */
  withSecondTestAccount?: boolean;
  /**
   * Also give the merchant its owner (the dashboard's sign-in). Idempotent: a later start finds the
   * owner and sets the password given again, so the banner's password always works.
   */
  owner?: { email: string; password: string };
  /**
   * Also connect a test account at each other emulator (Asaas, Pagar.me, Mercado Pago, Stripe,
   * Woovi), so Pix, boleto and card all work (npm start; the e2e stack's seed leaves it off).
   * Idempotent: a later start finds them; one an emulator forgot is replaced, as for Efí.
   */
  withAllEmulators?: boolean;
}): Promise<SeedResult> {
  const state: SeedState = existsSync(options.stateFile) ? (JSON.parse(readFileSync(options.stateFile, 'utf8')) as SeedState) : {};
  const accountsClient = createRpcClient(accounts.AccountsServiceService, `127.0.0.1:${options.ports.accounts}`, { deadlineMs: 10_000 });
  const providersClient = createRpcClient(providers.ProvidersServiceService, `127.0.0.1:${options.ports.providers}`, { deadlineMs: 20_000 });
  /** Switches off (and names as replaced) an account whose emulator forgot it; a fresh one is connected next. */
  const retireForgotten = async (merchantId: string, existing: { id: string; name: string }, mode: common.Mode) => {
    await providersClient.updateAccount({ merchant_id: merchantId, mode, account_id: existing.id, enabled: false, name: `${existing.name}${REPLACED_SUFFIX}`, set_fees: false, fees: [] });
  };
  const ownersClient = createRpcClient(owners.OwnersServiceService, `127.0.0.1:${options.ports.accounts}`, { deadlineMs: 10_000 });
  try {
    const email = options.email ?? 'loja-teste@orquestra.dev';
    const merchant = await accountsClient
      .getMerchant({ merchant_id: '', email })
      .then((r) => r.merchant)
      .catch(async () => (await accountsClient.createMerchant({ name: 'Loja Teste', email })).merchant);
    if (!merchant) throw new Error('could not create the test merchant');

    const keyStillWorks = async (secret: string | undefined) =>
      Boolean(secret) && (await accountsClient.authenticateKey({ secret: secret! }).then((r) => r.merchant_id === merchant.id).catch(() => false));
    const makeKey = async (mode: common.Mode, kind: accounts.KeyKind, name: string) =>
      (await accountsClient.createApiKey({ merchant_id: merchant.id, mode, kind, name })).secret;
    const testKey = (await keyStillWorks(state.testKey)) ? state.testKey! : await makeKey(common.Mode.MODE_TEST, accounts.KeyKind.KEY_KIND_FULL, 'test full');
    const restrictedTestKey = (await keyStillWorks(state.restrictedTestKey))
      ? state.restrictedTestKey!
      : await makeKey(common.Mode.MODE_TEST, accounts.KeyKind.KEY_KIND_RESTRICTED, 'test bot (restricted)');
    const liveKey = (await keyStillWorks(state.liveKey)) ? state.liveKey! : await makeKey(common.Mode.MODE_LIVE, accounts.KeyKind.KEY_KIND_FULL, 'live full');

    // One Efí client (and Pix key) per mode, as a real merchant has one sandbox and one production
    // account. Registered again on every start: the emulator may have started empty.
    const clientSecret = state.clientSecret ?? `Client_Secret_${randomBytes(16).toString('hex')}`;
    const clientFor = (mode: 'test' | 'live' | 'testB') => ({
      clientId: `Client_Id_${mode}_${merchant.id}`,
      clientSecret,
      pixKey: `pix-${mode}@loja-teste.orquestra.dev`,
    });
    const emulatorClient = clientFor('test');
    const efiControlUrl = `http://127.0.0.1:${options.ports.efiControl}`;
    for (const mode of ['test', 'live', 'testB'] as const) {
      await registerEmulatorClient(efiControlUrl, clientFor(mode));
    }
    const certificate = ['client.pem', 'client.key'].map((f) => readFileSync(path.join(options.certDir, f), 'utf8')).join('\n');

    const connect = async (mode: common.Mode, second = false): Promise<string> => {
      const client = clientFor(second ? 'testB' : mode === common.Mode.MODE_LIVE ? 'live' : 'test');
      const existing = (await providersClient.listAccounts({ merchant_id: merchant.id, mode })).accounts.find(
        (a) =>
          a.provider === 'efi' &&
          a.credentials_last4.client_id === client.clientId.slice(-4) &&
          a.priority === (second ? 20 : 10) &&
          !a.name.endsWith(REPLACED_SUFFIX),
      );
      if (existing && (await emulatorKnowsWebhook(efiControlUrl, client.clientId))) return existing.id;
      // Only connecting registers the webhook (its URL carries a secret the providers service
      // keeps), so a fresh account replaces the forgotten one, which is switched off.
      if (existing) await retireForgotten(merchant.id, existing, mode);
      const { account } = await providersClient.connectAccount({
        merchant_id: merchant.id,
        mode,
        provider: 'efi',
        name: mode === common.Mode.MODE_LIVE ? 'Efí (emulador, produção)' : second ? 'Efí sandbox B (emulador local)' : 'Efí sandbox (emulador local)',
        priority: second ? 20 : 10,
        enabled: true,
        credentials: {
          client_id: client.clientId,
          client_secret: client.clientSecret,
          certificate,
          pix_key: client.pixKey,
        },
        fees: [{ method: 'pix', percent_bps: 99, fixed: 0 }],
      });
      if (!account) throw new Error('provider account was not connected');
      return account.id;
    };
    const testProviderAccountId = await connect(common.Mode.MODE_TEST);
    const liveProviderAccountId = options.withLiveAccount ? await connect(common.Mode.MODE_LIVE) : null;
    const secondTestProviderAccountId = options.withSecondTestAccount ? await connect(common.Mode.MODE_TEST, true) : null;

    const emulatorAccounts: SeedResult['emulatorAccounts'] = [];
    if (options.withAllEmulators) {
      const controlPorts: Record<EmulatorProvider, number> = {
        asaas: options.ports.asaasControl,
        pagarme: options.ports.pagarmeControl,
        mercadopago: options.ports.mercadopagoControl,
        stripe: options.ports.stripeControl,
        woovi: options.ports.wooviControl,
      };
      const listed = (await providersClient.listAccounts({ merchant_id: merchant.id, mode: common.Mode.MODE_TEST })).accounts;
      for (const planned of emulatorAccountPlan(merchant.id, clientSecret)) {
        // 201: the emulator did not know the account (first start, or it forgot its state).
        const forgotten = await registerEmulatorAccount(`http://127.0.0.1:${controlPorts[planned.provider]}`, planned.credentials);
        const existing = listed.find((a) => a.provider === planned.provider && a.priority === planned.priority && a.enabled && !a.name.endsWith(REPLACED_SUFFIX));
        if (existing && !forgotten) {
          emulatorAccounts.push({ provider: planned.provider, accountId: existing.id, priority: planned.priority });
          continue;
        }
        // Connecting sets up the account's webhook at the emulator: a fresh account replaces the forgotten one.
        if (existing) await retireForgotten(merchant.id, existing, common.Mode.MODE_TEST);
        const { account } = await providersClient.connectAccount({
          merchant_id: merchant.id,
          mode: common.Mode.MODE_TEST,
          provider: planned.provider,
          name: planned.name,
          priority: planned.priority,
          enabled: true,
          credentials: planned.credentials,
          fees: [],
        });
        if (!account) throw new Error(`the ${planned.provider} account was not connected`);
        emulatorAccounts.push({ provider: planned.provider, accountId: account.id, priority: planned.priority });
      }
    }

    // The owner's payout controls (docs/owner.md), so a fresh `npm start` has a working payout path.
    // Turned on only while never set: a restart never undoes the owner's `payouts disable`.
    const { settings } = await accountsClient.getPayoutSettings({ merchant_id: merchant.id, mode: common.Mode.MODE_TEST });
    if (!settings?.updated_at) await accountsClient.setPayoutSettings({ merchant_id: merchant.id, mode: common.Mode.MODE_TEST, api_enabled: true });
    // Saving a saved key answers the saved one: the same id on every start.
    const saveDestination = async (mode: common.Mode) => {
      const { destination } = await accountsClient.createPayoutDestination({
        merchant_id: merchant.id,
        mode,
        key_type: 'email',
        key: SEED_PAYOUT_PIX_KEY,
        label: 'Conta da empresa',
      });
      if (!destination) throw new Error('the payout destination was not saved');
      return destination.id;
    };
    const payoutDestinationId = await saveDestination(common.Mode.MODE_TEST);
    const livePayoutDestinationId = options.withLiveAccount ? await saveDestination(common.Mode.MODE_LIVE) : null;

    if (options.owner) {
      await ownersClient.createOwner({ merchant_id: merchant.id, email: options.owner.email, password: options.owner.password, reset_password: true });
    }

    const next: SeedState = { merchantId: merchant.id, testKey, restrictedTestKey, liveKey, clientSecret };
    writeFileSync(options.stateFile, JSON.stringify(next, null, 2), { mode: 0o600 });
    return {
      merchantId: merchant.id,
      testKey,
      restrictedTestKey,
      liveKey,
      testProviderAccountId,
      liveProviderAccountId,
      secondTestProviderAccountId,
      emulatorClient,
      secondEmulatorClientId: clientFor('testB').clientId,
      payoutDestinationId,
      livePayoutDestinationId,
      owner: options.owner ? { email: options.owner.email.toLowerCase(), password: options.owner.password } : null,
      emulatorAccounts,
    };
  } finally {
    ownersClient.close();
    accountsClient.close();
    providersClient.close();
  }
}
