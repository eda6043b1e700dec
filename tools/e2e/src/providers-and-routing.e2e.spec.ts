import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { api, createPix, emulator, eventually } from './support/api';
import { STACK_INFO_FILE, stackInfo } from './support/stack-info';

// The provider catalog, provider accounts, routing rules, the routing dry run and payment sync,
// through the public REST API of the main test merchant (one Efí sandbox account). Every change
// made here (a disabled account, rules) is undone before the suite ends, so suites after it see
// the merchant as seeded.

const REPO_ROOT = path.resolve(__dirname, '../../..');

interface Verdict {
  account_id: string;
  verdict: 'chosen' | 'ranked_lower' | 'excluded';
  rank: number | null;
  reasons: string[];
}

async function simulate(metadata: Record<string, string> = {}) {
  const response = await api('POST', '/v1/routing/simulate', { body: { method: 'pix', amount: 1990, metadata } });
  expect(response.status).toBe(200);
  const account = (response.body.accounts as Verdict[]).find((verdict) => verdict.account_id === stackInfo().testProviderAccountId);
  if (!account) throw new Error(`the seeded account is missing from the simulation: ${JSON.stringify(response.body)}`);
  return { body: response.body, account };
}

async function setEnabled(enabled: boolean): Promise<void> {
  const response = await api('POST', `/v1/provider-accounts/${stackInfo().testProviderAccountId}/${enabled ? 'enable' : 'disable'}`);
  expect(response.status).toBe(200);
  expect(response.body.enabled).toBe(enabled);
}

describe('provider catalog and provider accounts', () => {
  it('lists the providers with their credential fields; Efí is there', async () => {
    const response = await api('GET', '/v1/providers');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ object: 'list', has_more: false });
    expect(response.body.data.length).toBeGreaterThanOrEqual(1);
    const efi = response.body.data.find((provider: { code: string }) => provider.code === 'efi');
    expect(efi).toMatchObject({ object: 'provider', capabilities: { methods: expect.arrayContaining(['pix']) } });
    expect(efi.credential_fields.map((field: { name: string }) => field.name)).toEqual(['client_id', 'client_secret', 'certificate', 'pix_key']);
    expect(efi.credential_fields.find((field: { name: string }) => field.name === 'client_secret')).toMatchObject({ secret: true, label: expect.any(String) });
  });

  it('lists the seeded Efí account with the last 4 characters of each credential and never the credentials', async () => {
    const response = await api('GET', '/v1/provider-accounts');
    expect(response.status).toBe(200);
    const account = response.body.data.find((a: { id: string }) => a.id === stackInfo().testProviderAccountId);
    expect(account).toMatchObject({
      object: 'provider_account',
      mode: 'test',
      provider: 'efi',
      enabled: true,
      priority: 10,
      methods: ['pix', 'boleto'],
      fees: [{ method: 'pix', percentage: 0.99, fixed: 0 }],
    });
    expect(account.id).toMatch(/^pa_[0-9a-z]{26}$/);
    expect(Object.keys(account.credentials_last4).sort()).toEqual(['certificate', 'client_id', 'client_secret', 'pix_key']);
    for (const last4 of Object.values(account.credentials_last4)) expect(last4).toHaveLength(4);
    expect(account.credentials_last4.client_id).toBe(stackInfo().emulatorClientId.slice(-4));
    const text = JSON.stringify(response.body);
    expect(text).not.toContain(stackInfo().emulatorClientId);
    expect(text).not.toContain('PRIVATE KEY');
    const seedFile = path.join(path.dirname(STACK_INFO_FILE), 'seed.json');
    const seeded = existsSync(seedFile) ? (JSON.parse(readFileSync(seedFile, 'utf8')) as { clientSecret?: string }) : {};
    if (seeded.clientSecret) expect(text).not.toContain(seeded.clientSecret);

    const one = await api('GET', `/v1/provider-accounts/${account.id}`);
    expect(one.body).toEqual(account);
    const live = await api('GET', '/v1/provider-accounts', { key: stackInfo().liveKey });
    expect(live.body.data.map((a: { id: string }) => a.id)).not.toContain(account.id);
    expect((await api('GET', `/v1/provider-accounts/${account.id}`, { key: stackInfo().liveKey })).status).toBe(404);
  });

  it('refuses to connect an account whose credentials the provider rejects (400 invalid_credentials)', async () => {
    const certificate = ['client.pem', 'client.key'].map((file) => readFileSync(path.join(REPO_ROOT, '.local', 'certs', file), 'utf8')).join('\n');
    const response = await api('POST', '/v1/provider-accounts', {
      body: {
        provider: 'efi',
        name: 'Conta com credenciais erradas',
        credentials: { client_id: 'Client_Id_unknown', client_secret: 'Client_Secret_wrong', certificate, pix_key: 'nada@exemplo.com.br' },
        fees: [{ method: 'pix', percentage: 0.99, fixed: 0 }],
      },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request_error', code: 'invalid_credentials' });
    const after = await api('GET', '/v1/provider-accounts');
    expect(after.body.data.map((a: { name: string }) => a.name)).not.toContain('Conta com credenciais erradas');
  });

  it('validates the connect body in Portuguese with the offending param', async () => {
    const response = await api('POST', '/v1/provider-accounts', {
      body: { provider: 'efi', credentials: { client_id: 'x' }, fees: [{ method: 'pix', percentage: 0.995 }] },
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ code: 'parameter_invalid', param: 'fees[0].percentage' });
    expect(response.body.error.message).toContain('duas casas decimais');
    const unknown = await api('POST', '/v1/provider-accounts', { body: { provider: 'nao-existe', credentials: { a: 'b' } } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'parameter_invalid', param: 'provider' });
  });

  it('refuses restricted keys everywhere here with 403 restricted_key', async () => {
    const key = stackInfo().restrictedTestKey;
    for (const [method, route] of [
      ['GET', '/v1/providers'],
      ['GET', '/v1/provider-accounts'],
      ['POST', `/v1/provider-accounts/${stackInfo().testProviderAccountId}/disable`],
      ['GET', '/v1/routing-rules'],
      ['POST', '/v1/routing/simulate'],
    ] as const) {
      const response = await api(method, route, { key, body: method === 'POST' ? { method: 'pix', amount: 100 } : undefined });
      expect({ route, status: response.status, code: response.body.error?.code }).toEqual({ route, status: 403, code: 'restricted_key' });
    }
    expect((await api('GET', `/v1/provider-accounts/${stackInfo().testProviderAccountId}`)).body.enabled).toBe(true);
  });

  it('changes priority and fees, and refuses a credentials change', async () => {
    const id = stackInfo().testProviderAccountId;
    try {
      const updated = await api('POST', `/v1/provider-accounts/${id}`, { body: { priority: 15, fees: [{ method: 'pix', percentage: 1.19, fixed: 10 }] } });
      expect(updated.status).toBe(200);
      expect(updated.body).toMatchObject({ priority: 15, fees: [{ method: 'pix', percentage: 1.19, fixed: 10 }] });
      const credentials = await api('POST', `/v1/provider-accounts/${id}`, { body: { credentials: { client_secret: 'novo' } } });
      expect(credentials.status).toBe(400);
      expect(credentials.body.error).toMatchObject({ code: 'parameter_invalid', param: 'credentials' });
    } finally {
      const restored = await api('POST', `/v1/provider-accounts/${id}`, { body: { priority: 10, fees: [{ method: 'pix', percentage: 0.99, fixed: 0 }] } });
      expect(restored.status).toBe(200);
    }
  });

  it('a disabled account is excluded by the routing dry run as disabled, and comes back when enabled', async () => {
    const before = await simulate();
    expect(before.account.verdict).toBe('chosen');
    try {
      await setEnabled(false);
      // Routing's account cache is dropped by the providers service's change signal (over the bus):
      // the dry run sees the change as soon as that signal lands, not within the disable request.
      const disabled = await eventually(async () => {
        const seen = await simulate();
        return seen.account.verdict === 'excluded' ? seen : undefined;
      }, 'routing to see the account disabled');
      expect(disabled.account).toMatchObject({ verdict: 'excluded', rank: null });
      expect(disabled.account.reasons).toContain('account disabled');
      expect(disabled.body.candidates.map((c: { account_id: string }) => c.account_id)).not.toContain(stackInfo().testProviderAccountId);
      // The only account of the merchant is off: the simulation says what creating a payment would answer.
      expect(disabled.body.error).toMatchObject({ code: 'no_eligible_account' });
    } finally {
      await setEnabled(true);
    }
    const after = await eventually(async () => {
      const seen = await simulate();
      return seen.account.verdict === 'chosen' ? seen : undefined;
    }, 'routing to see the account enabled again');
    expect(after.account).toMatchObject({ verdict: 'chosen', rank: 1 });
    expect(after.body.error).toBeNull();
  });
});

describe('routing rules and the dry run', () => {
  const created: string[] = [];

  afterAll(async () => {
    for (const id of created) await api('DELETE', `/v1/routing-rules/${id}`);
  });

  async function createRule(body: Record<string, unknown>): Promise<Record<string, any>> {
    const response = await api('POST', '/v1/routing-rules', { body });
    expect(response.status).toBe(201);
    created.push(response.body.id);
    return response.body;
  }

  it('validates rule bodies in Portuguese, and refuses targets that are not connected accounts', async () => {
    const noTarget = await api('POST', '/v1/routing-rules', { body: { name: 'Sem alvo' } });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.error).toMatchObject({ code: 'parameter_missing', param: 'target' });
    const weights = await api('POST', '/v1/routing-rules', {
      body: { name: 'Pesos', target: { type: 'weighted', weights: [{ account_id: stackInfo().testProviderAccountId, percentage: 90 }] } },
    });
    expect(weights.body.error).toMatchObject({ code: 'parameter_invalid', param: 'target.weights', message: expect.stringContaining('somar 100') });
    const foreign = await api('POST', '/v1/routing-rules', {
      body: { name: 'Conta de produção', target: { type: 'accounts', accounts: [stackInfo().liveProviderAccountId] } },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toMatchObject({ code: 'parameter_invalid', param: 'target.accounts[0]' });
  });

  it('create, update, reorder and delete rules, and the dry run follows them', async () => {
    const account = stackInfo().testProviderAccountId;
    const tagged = await createRule({
      name: 'Cursos (e2e)',
      conditions: { methods: ['pix'], metadata: [{ key: 'e2e_product', value: 'curso' }] },
      target: { type: 'accounts', accounts: [account] },
      fallback: false,
    });
    expect(tagged).toMatchObject({
      object: 'routing_rule',
      mode: 'test',
      enabled: true,
      conditions: { methods: ['pix'], amount_min: null, amount_max: null, metadata: [{ key: 'e2e_product', value: 'curso' }], customer_has: [] },
      target: { type: 'accounts', accounts: [account], fallback: false },
    });
    expect(tagged.id).toMatch(/^rr_[0-9a-z]{26}$/);
    expect((await api('GET', `/v1/routing-rules/${tagged.id}`)).body).toEqual(tagged);

    const matched = await simulate({ e2e_product: 'curso' });
    expect(matched.body.matched_rule_id).toBe(tagged.id);
    expect(matched.account).toMatchObject({ verdict: 'chosen', reasons: [`target of rule ${tagged.id}`] });
    const unmatched = await simulate({ e2e_product: 'livro' });
    expect(unmatched.body.matched_rule_id).toBeNull();

    // Turned off, the rule no longer decides.
    const disabled = await api('POST', `/v1/routing-rules/${tagged.id}`, { body: { enabled: false } });
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ enabled: false, name: 'Cursos (e2e)', target: { accounts: [account], fallback: false } });
    expect((await simulate({ e2e_product: 'curso' })).body.matched_rule_id).toBeNull();
    await api('POST', `/v1/routing-rules/${tagged.id}`, { body: { enabled: true } });

    // A catch-all rule after it: the tagged rule still wins for its payments, the catch-all for the rest.
    const catchAll = await createRule({ name: 'Todos (e2e)', target: { type: 'accounts', accounts: [account] } });
    expect(catchAll.priority).toBeGreaterThan(tagged.priority);
    expect((await simulate({ e2e_product: 'curso' })).body.matched_rule_id).toBe(tagged.id);
    expect((await simulate()).body.matched_rule_id).toBe(catchAll.id);

    // Catch-all first: it now decides every payment.
    const listed = await api('GET', '/v1/routing-rules');
    const ids: string[] = listed.body.data.map((rule: { id: string }) => rule.id);
    const reordered = await api('POST', '/v1/routing-rules/reorder', { body: { ids: [catchAll.id, ...ids.filter((id) => id !== catchAll.id)] } });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data[0]).toMatchObject({ id: catchAll.id, priority: 1 });
    expect(reordered.body.data.map((rule: { priority: number }) => rule.priority)).toEqual(ids.map((_id, index) => index + 1));
    expect((await simulate({ e2e_product: 'curso' })).body.matched_rule_id).toBe(catchAll.id);

    const incomplete = await api('POST', '/v1/routing-rules/reorder', { body: { ids: [catchAll.id] } });
    if (ids.length > 1) expect(incomplete.body.error).toMatchObject({ code: 'parameter_invalid' });

    for (const id of [catchAll.id, tagged.id]) {
      const deleted = await api('DELETE', `/v1/routing-rules/${id}`);
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ id, object: 'routing_rule', deleted: true });
      expect((await api('GET', `/v1/routing-rules/${id}`)).status).toBe(404);
      created.splice(created.indexOf(id), 1);
    }
    expect((await api('DELETE', `/v1/routing-rules/${tagged.id}`)).body.error).toMatchObject({ code: 'not_found', param: 'id' });
    expect((await simulate({ e2e_product: 'curso' })).body.matched_rule_id).toBeNull();
  });
});

describe('payment sync', () => {
  it('re-reads the payment at the provider: pending while open, succeeded once paid there', async () => {
    const payment = await createPix();
    const open = await api('POST', `/v1/payments/${payment.id}/sync`);
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ id: payment.id, object: 'payment', status: 'pending' });

    const paid = await emulator('POST', `/__control/charges/${payment.provider_payment_id}/pay`, { client_id: stackInfo().emulatorClientId });
    expect(paid.status).toBe('CONCLUIDA');
    const synced = await eventually(async () => {
      const response = await api('POST', `/v1/payments/${payment.id}/sync`);
      return response.body.status === 'succeeded' ? response.body : undefined;
    }, 'sync to see the payment succeeded');
    expect(synced.end_to_end_id).toMatch(/^E[0-9A-Za-z]{31}$/);
  });

  it('answers 404 for an unknown payment and 403 for restricted keys', async () => {
    const missing = await api('POST', '/v1/payments/pay_00000000000000000000000000/sync');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    const payment = await createPix({}, stackInfo().restrictedTestKey);
    const denied = await api('POST', `/v1/payments/${payment.id}/sync`, { key: stackInfo().restrictedTestKey });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('restricted_key');
  });
});
