import { randomBytes, randomUUID } from 'node:crypto';
import { saoPauloDate } from '@orquestra/platform';
import { api, eventually, sdk } from './support/api';
import { connectEmulatorAccount, emulatorControl, newMerchant } from './support/merchant';
import { stackInfo } from './support/stack-info';

/**
 * Reconciliation through the whole stack (issue 18): a merchant of its own with an Asaas account
 * (Pix) and a Stripe account (card) makes payments that are paid; then, at the emulators, one Pix
 * is paid behind Orquestra's back (no webhook) and one charge is made in Asaas's dashboard. A run
 * for the period reports exactly those two (a status difference and a charge unknown to
 * Orquestra) and everything else matched; the CSV has their rows; a run with fix: true syncs the
 * payment, after which only the dashboard charge remains. Runs on its own merchant, so no other
 * suite's payments are in its period.
 */
jest.setTimeout(120_000);

type Json = Record<string, any>;

let key = '';
let restrictedKey = '';
let asaasKey = '';
let asaasAccount = '';
let stripeAccount = '';
/**
 * The period of the runs: from 00:00 São Paulo of the day this suite started (a date bound) to the
 * instant after its charges were made (a date-time bound: only ended periods are reconciled).
 */
let period: { start: string; end: string };

const FINISHED = ['completed', 'failed'];
const BUYER = { name: 'Maria Silva', email: 'maria@example.com', document: '529.982.247-25' };

async function pix(amount: number): Promise<Json> {
  const created = await api('POST', '/v1/payments', {
    key,
    idempotencyKey: randomUUID(),
    body: { method: 'pix', amount, description: 'Pedido conciliado', customer: BUYER, provider_account_id: asaasAccount },
  });
  expect({ status: created.status, error: created.body.error }).toMatchObject({ status: 201 });
  expect(created.body).toMatchObject({ status: 'pending', provider: 'asaas', provider_account_id: asaasAccount });
  return created.body;
}

async function paymentStatus(id: string, status: string): Promise<Json> {
  return eventually(
    async () => {
      const payment = (await api('GET', `/v1/payments/${id}`, { key })).body;
      return payment.status === status ? payment : undefined;
    },
    `payment ${id} to become ${status}`,
    20_000,
  );
}

/** Starts a run and waits for its end (it is due work in the payments service). */
async function finishedRun(body: Json): Promise<Json> {
  const created = await api('POST', '/v1/reconciliation-runs', { key, body });
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe(`/v1/reconciliation-runs/${created.body.id}`);
  expect(created.body).toMatchObject({ object: 'reconciliation_run', mode: 'test', fix: body.fix ?? false, completed_at: null, failure_reason: null });
  expect(created.body.id).toMatch(/^rec_/);
  return eventually(
    async () => {
      const run = (await api('GET', `/v1/reconciliation-runs/${created.body.id}`, { key })).body;
      return FINISHED.includes(run.status) ? run : undefined;
    },
    `run ${created.body.id} to finish`,
    60_000,
  );
}

async function findingsOf(runId: string, query = ''): Promise<Json[]> {
  const page = await api('GET', `/v1/reconciliation-runs/${runId}/findings?limit=100${query}`, { key });
  expect(page.status).toBe(200);
  expect(page.body).toMatchObject({ object: 'list', has_more: false });
  return page.body.data as Json[];
}

const account = (run: Json, id: string): Json => (run.accounts as Json[]).find((report) => report.provider_account_id === id)!;

/** And no per-account note (boletos skipped and the like: docs/reconciliation.md). */
const NOTHING_ELSE = { missing_at_provider: 0, amount_differences: 0, fee_differences: 0, refund_differences: 0, error: null, notes: [] };

/** RFC 4180 (quoted cells, doubled quotes, CRLF rows), to read back the downloaded file. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) throw new Error('the CSV does not end with CRLF');
  return rows;
}

/** What a spreadsheet-safe cell of `value` reads as once parsed. */
const neutralized = (value: string | null | undefined): string => (value && /^[=+\-@\t\r]/.test(value) ? `'${value}` : (value ?? ''));

let paidPix: Json;
let paidBehindOurBack: Json;
let card: Json;
let dashboardCharge: Json;
let firstRun: Json;

beforeAll(async () => {
  const startedAt = new Date(Date.now() - 60_000);
  ({ key, restrictedKey } = await newMerchant('Loja Conciliação'));
  asaasKey = `$aact_hmlg_${randomBytes(16).toString('hex')}`;
  asaasAccount = await connectEmulatorAccount(key, 'asaas', 'Asaas conciliação', { api_key: asaasKey }, 10);
  stripeAccount = await connectEmulatorAccount(key, 'stripe', 'Stripe conciliação', { secret_key: `sk_test_${randomBytes(12).toString('hex')}` }, 5);

  // A Pix paid the normal way (Asaas notifies Orquestra).
  paidPix = await pix(2_990);
  expect((await emulatorControl('asaas', `/__control/charges/${paidPix.provider_payment_id}/pay`)).status).toBe(200);
  await paymentStatus(paidPix.id, 'succeeded');

  // A card paid at Stripe.
  const created = await api('POST', '/v1/payments', {
    key,
    idempotencyKey: randomUUID(),
    body: {
      method: 'card',
      amount: 15_990,
      description: 'Pedido no cartão',
      customer: BUYER,
      provider_account_id: stripeAccount,
      card: { token: 'pm_card_visa' },
    },
  });
  expect({ status: created.status, error: created.body.error }).toMatchObject({ status: 201 });
  expect(created.body).toMatchObject({ status: 'succeeded', provider_account_id: stripeAccount });
  card = created.body;

  // A Pix paid at Asaas without any notification: Orquestra still has it pending.
  paidBehindOurBack = await pix(4_590);
  const changed = await emulatorControl('asaas', `/__control/charges/${paidBehindOurBack.provider_payment_id}/status`, { status: 'paid', account: asaasKey });
  expect(changed.status).toBe(200);

  // A charge made in Asaas's dashboard, never through Orquestra.
  const dashboard = await emulatorControl('asaas', '/__control/dashboard-charges', { account: asaasKey, amount: 7_700, method: 'pix', status: 'paid', created_at: new Date().toISOString() });
  expect(dashboard.status).toBe(201);
  dashboardCharge = dashboard.body;

  // Nothing told Orquestra: the payment is still pending (the run is what finds out).
  expect((await api('GET', `/v1/payments/${paidBehindOurBack.id}`, { key })).body.status).toBe('pending');
  // Lists filter by whole seconds (Stripe's `created`): let the last charge's second end first.
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  period = { start: saoPauloDate(startedAt), end: new Date().toISOString() };
});

describe('reconciliation runs', () => {
  it('a run for the period reports exactly the charge changed behind our back and the dashboard charge; everything else matched', async () => {
    firstRun = await finishedRun(period);
    expect(firstRun).toMatchObject({ status: 'completed', fix: false, failure_reason: null, completed_at: expect.any(String) });
    expect(firstRun.accounts).toHaveLength(2);
    expect(account(firstRun, asaasAccount)).toEqual({
      provider_account_id: asaasAccount,
      provider: 'asaas',
      status: 'done',
      listed: 3,
      matched: 1,
      unknown_to_orquestra: 1,
      status_differences: 1,
      fixed: 0,
      ...NOTHING_ELSE,
    });
    expect(account(firstRun, stripeAccount)).toEqual({
      provider_account_id: stripeAccount,
      provider: 'stripe',
      status: 'done',
      listed: 1,
      matched: 1,
      unknown_to_orquestra: 0,
      status_differences: 0,
      fixed: 0,
      ...NOTHING_ELSE,
    });

    const findings = await findingsOf(firstRun.id);
    expect(findings).toHaveLength(2);
    const byKind = Object.fromEntries(findings.map((finding) => [finding.kind, finding]));
    expect(Object.keys(byKind).sort()).toEqual(['status_difference', 'unknown_to_orquestra']);
    expect(byKind['status_difference']).toMatchObject({
      object: 'reconciliation_finding',
      run_id: firstRun.id,
      provider_account_id: asaasAccount,
      payment_id: paidBehindOurBack.id,
      provider_payment_id: paidBehindOurBack.provider_payment_id,
      fix_result: null,
    });
    expect(byKind['status_difference']).toMatchObject({ ours: { status: 'pending' }, theirs: { status: 'paid' } });
    expect(byKind['unknown_to_orquestra']).toMatchObject({
      object: 'reconciliation_finding',
      run_id: firstRun.id,
      provider_account_id: asaasAccount,
      payment_id: null,
      provider_payment_id: dashboardCharge.id,
      ours: {},
      fix_result: null,
    });
    expect(byKind['unknown_to_orquestra'].theirs.amount).toBe('7700');
    for (const finding of findings) expect(finding.id).toMatch(/^rcf_/);

    // The kind filter, and the other payments never appear.
    expect((await findingsOf(firstRun.id, '&kind=unknown_to_orquestra')).map((finding) => finding.id)).toEqual([byKind['unknown_to_orquestra'].id]);
    expect(await findingsOf(firstRun.id, '&kind=missing_at_provider')).toEqual([]);
    const mentioned = findings.map((finding) => finding.payment_id);
    expect(mentioned).not.toContain(paidPix.id);
    expect(mentioned).not.toContain(card.id);
  });

  it('the findings CSV has a header and one row per differing field of those two findings, as the JSON says', async () => {
    const response = await fetch(`${stackInfo().baseUrl}/v1/reconciliation-runs/${firstRun.id}/findings.csv`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="reconciliation-${firstRun.id}-findings.csv"`);
    const text = await response.text();
    const rows = parseCsv(text);
    expect(rows[0]).toEqual(['kind', 'provider_account_id', 'payment_id', 'provider_payment_id', 'field', 'ours', 'theirs', 'fix_result', 'created_at']);

    const findings = await findingsOf(firstRun.id);
    const expected = findings.flatMap((finding) =>
      [...new Set([...Object.keys(finding.ours), ...Object.keys(finding.theirs)])].sort().map((field) =>
        [finding.kind, finding.provider_account_id, finding.payment_id, finding.provider_payment_id, field, finding.ours[field], finding.theirs[field], finding.fix_result, finding.created_at].map(neutralized),
      ),
    );
    expect(rows.slice(1)).toEqual(expected);
    expect(rows.slice(1)).toContainEqual(expect.arrayContaining(['status_difference', asaasAccount, paidBehindOurBack.id, paidBehindOurBack.provider_payment_id, 'status', 'pending']));
    expect(rows.slice(1).filter((row) => row[0] === 'unknown_to_orquestra' && row[3] === dashboardCharge.id && row[4] === 'amount' && row[6] === '7700')).toHaveLength(1);

    // The SDK reads the same file.
    expect(await sdk(key).reconciliationRuns.findingsCsv(firstRun.id)).toBe(text);
  });

  it('a run with fix: true syncs the payment (its status changes, the result is recorded); a later run finds only the dashboard charge', async () => {
    const fixing = await finishedRun({ ...period, fix: true });
    expect(fixing).toMatchObject({ status: 'completed', fix: true });
    expect(account(fixing, asaasAccount)).toMatchObject({ status: 'done', status_differences: 1, unknown_to_orquestra: 1, fixed: 1 });
    const [fixed] = await findingsOf(fixing.id, '&kind=status_difference');
    // The difference as found, and what the sync did about it.
    expect(fixed).toMatchObject({ payment_id: paidBehindOurBack.id, ours: { status: 'pending' }, theirs: { status: 'paid' }, fix_result: 'sincronizado: succeeded' });

    const synced = await paymentStatus(paidBehindOurBack.id, 'succeeded');
    expect(synced).toMatchObject({ amount: 4_590, provider_payment_id: paidBehindOurBack.provider_payment_id });

    // The unknown charge is not Orquestra's to change: it stays, and nothing else is found.
    const after = await finishedRun(period);
    expect(account(after, asaasAccount)).toMatchObject({ status: 'done', listed: 3, matched: 2, status_differences: 0, unknown_to_orquestra: 1, fixed: 0 });
    expect((await findingsOf(after.id)).map((finding) => [finding.kind, finding.provider_payment_id])).toEqual([['unknown_to_orquestra', dashboardCharge.id]]);

    // Newest first in the list, through the SDK too.
    const listed = await sdk(key).reconciliationRuns.list({ limit: 3 });
    expect(listed.data.map((run) => run.id)).toEqual([after.id, fixing.id, firstRun.id]);
    expect((await sdk(key).reconciliationRuns.retrieve(fixing.id)).accounts).toEqual(fixing.accounts);
  });

  it('each finished run is a reconciliation_run.completed event with the run as its object', async () => {
    const runs = (await api('GET', '/v1/reconciliation-runs?limit=10', { key })).body.data as Json[];
    expect(runs).toHaveLength(3);
    const events = await eventually(
      async () => {
        const page = (await api('GET', '/v1/events?type=reconciliation_run.completed&limit=100', { key })).body.data as Json[];
        return page.length >= runs.length ? page : undefined;
      },
      'the reconciliation_run.completed events',
      15_000,
    );
    expect(events.map((event) => event.data.object.id).sort()).toEqual(runs.map((run) => run.id).sort());
    for (const event of events) {
      expect(event).toMatchObject({ object: 'event', type: 'reconciliation_run.completed', data: { object: { object: 'reconciliation_run', status: 'completed' } } });
    }
    const first = events.find((event) => event.data.object.id === firstRun.id)!;
    expect(first.data.object).toMatchObject({ id: firstRun.id, start: firstRun.start, end: firstRun.end, fix: false });
  });

  it('refuses a bad period with its param in Portuguese, and any restricted key', async () => {
    const backwards = await api('POST', '/v1/reconciliation-runs', { key, body: { start: '2026-11-15', end: '2026-11-01' } });
    expect(backwards.status).toBe(400);
    expect(backwards.body.error).toMatchObject({ code: 'parameter_invalid', param: 'start', message: expect.stringMatching(/anterior a end/) });
    const future = await api('POST', '/v1/reconciliation-runs', { key, body: { start: period.start, end: new Date(Date.now() + 3_600_000).toISOString() } });
    expect(future.body.error).toMatchObject({ code: 'parameter_invalid', param: 'end', message: expect.stringMatching(/futuro/) });
    const unreadable = await api('POST', '/v1/reconciliation-runs', { key, body: { start: 'ontem', end: period.end } });
    expect(unreadable.status).toBe(400);
    expect(unreadable.body.error).toMatchObject({ code: 'parameter_invalid', param: 'start', message: expect.stringMatching(/AAAA-MM-DD/) });
    const missing = await api('POST', '/v1/reconciliation-runs', { key, body: { start: period.start } });
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'end' });

    const restricted = await api('POST', '/v1/reconciliation-runs', { key: restrictedKey, body: period });
    expect(restricted.status).toBe(403);
    expect(restricted.body.error.code).toBe('restricted_key');
    expect((await api('GET', `/v1/reconciliation-runs/${firstRun.id}/findings.csv`, { key: restrictedKey })).status).toBe(403);
    // None of these started a run.
    expect(((await api('GET', '/v1/reconciliation-runs', { key })).body.data as Json[]).length).toBe(3);
  });
});
