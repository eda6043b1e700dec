import { common } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import type { IntegrationDoc } from '../db/integration.model';
import type { SaleDoc } from '../db/sale.model';
import type { VisitDoc } from '../db/visit.model';
import { caller, envelope, newPaymentId, paymentObject, startHarness, waitFor, type Harness } from './tracking-harness';

jest.setTimeout(60_000);

const TOKEN = 'utmify-secret-token-9f8e7d6c';

/**
 * Integrations, visits and sales against the real store and broker over real gRPC (no tool is
 * reached here: the tools point at a closed port and no integration takes these sales).
 */
describe('tracking: integrations, visits and sales', () => {
  let h: Harness;

  beforeAll(async () => {
    const closed = 'http://127.0.0.1:9';
    h = await startHarness('tracking_crud', { utmifyBaseUrl: closed, metaGraphBaseUrl: closed, metaGraphVersion: 'v25.0', tiktokBaseUrl: closed }, { retryScheduleMs: [60_000] });
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('kinds: the three tools with their credential fields and options', async () => {
    const { kinds } = await h.client.listIntegrationKinds({ caller: caller('acct_kinds') });
    expect(kinds.map((kind) => kind.id)).toEqual(['utmify', 'meta', 'tiktok']);
    expect(kinds.find((kind) => kind.id === 'meta')!.options.map((option) => option.name)).toEqual(['pixel_id', 'test_event_code']);
    expect(kinds.find((kind) => kind.id === 'utmify')!.credentials[0]).toMatchObject({ name: 'api_token', required: true });
    await expect(h.client.listIntegrationKinds({ caller: caller('acct_kinds', { restricted: true }) })).rejects.toMatchObject({ code: 'restricted_key' });
  });

  it('CRUD: created with defaults, credentials sealed at rest and shown as last 4, merchant-scoped, updated and deleted', async () => {
    const created = (await h.client.createIntegration({ caller: caller('acct_crud'), kind: 'utmify', name: '', sales: '', options: {}, credentials: { api_token: TOKEN } })).integration!;
    expect(created).toMatchObject({ kind: 'utmify', name: 'Ferramenta de atribuição (Utmify)', enabled: true, sales: 'test', options: { platform: 'Orquestra' }, credentials_last4: { api_token: '7d6c' } });
    expect(created.id).toMatch(/^itg_[0-9a-z]{26}$/);
    // A live key's integration takes live sales unless told otherwise.
    const live = (await h.client.createIntegration({ caller: caller('acct_crud', { mode: common.Mode.MODE_LIVE }), kind: 'meta', name: 'Pixel loja', sales: '', options: { pixel_id: '123456' }, credentials: { access_token: 'EAAB-meta-token-000111' }, enabled: false })).integration!;
    expect(live).toMatchObject({ sales: 'live', enabled: false, name: 'Pixel loja' });

    // At rest: one seal, no plain token anywhere in the document.
    const raw = (await h.db.collection('integrations').findOne({ _id: created.id as never })) as unknown as IntegrationDoc;
    expect(JSON.stringify(raw)).not.toContain(TOKEN);
    expect(JSON.stringify(raw)).not.toContain('9f8e7d6c');
    expect(raw.credentials_sealed).toMatchObject({ key_id: 'k1' });
    expect(JSON.parse(h.box.open(raw.credentials_sealed))).toEqual({ api_token: TOKEN });
    // Never in an answer either.
    const listed = await h.client.listIntegrations({ caller: caller('acct_crud', { mode: common.Mode.MODE_LIVE }) });
    expect(listed.integrations.map((i) => i.id)).toEqual([created.id, live.id]);
    expect(JSON.stringify(listed)).not.toContain(TOKEN);

    // Another merchant sees nothing of it.
    await expect(h.client.getIntegration({ caller: caller('acct_other'), integration_id: created.id })).rejects.toMatchObject({ code: 'not_found', param: 'integration' });
    await expect(h.client.deleteIntegration({ caller: caller('acct_other'), integration_id: created.id })).rejects.toMatchObject({ code: 'not_found', param: 'integration' });
    await expect(h.client.updateIntegration({ caller: caller('acct_other'), integration_id: created.id, name: 'x', options: {}, credentials: {} })).rejects.toMatchObject({ code: 'not_found' });
    expect((await h.client.listIntegrations({ caller: caller('acct_other') })).integrations).toEqual([]);

    // A test key neither sees nor touches an integration that receives real sales, nor makes one.
    const LIVE_KEY = { mode: common.Mode.MODE_LIVE };
    expect((await h.client.listIntegrations({ caller: caller('acct_crud') })).integrations.map((i) => i.id)).toEqual([created.id]);
    await expect(h.client.getIntegration({ caller: caller('acct_crud'), integration_id: live.id })).rejects.toMatchObject({ code: 'not_found', param: 'integration' });
    await expect(h.client.updateIntegration({ caller: caller('acct_crud'), integration_id: live.id, enabled: true, options: {}, credentials: {} })).rejects.toMatchObject({ code: 'not_found' });
    await expect(h.client.deleteIntegration({ caller: caller('acct_crud'), integration_id: live.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(h.client.updateIntegration({ caller: caller('acct_crud'), integration_id: created.id, sales: 'both', options: {}, credentials: {} })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'sales' });
    const refused = await h.client.createIntegration({ caller: caller('acct_crud'), kind: 'utmify', name: '', sales: 'live', options: {}, credentials: { api_token: TOKEN } }).catch((error: AppError) => error);
    expect(refused).toMatchObject({ code: 'parameter_invalid', param: 'sales' });
    expect((refused as AppError).message).toMatch(/chave live/);
    expect(await h.db.collection('integrations').countDocuments({ merchant_id: 'acct_crud' } as never)).toBe(2);

    const updated = (await h.client.updateIntegration({ caller: caller('acct_crud', LIVE_KEY), integration_id: live.id, enabled: true, sales: 'both', options: { test_event_code: 'TEST123' }, credentials: { access_token: 'EAAB-new-token-999888' } })).integration!;
    expect(updated).toMatchObject({ enabled: true, sales: 'both', name: 'Pixel loja', options: { pixel_id: '123456', test_event_code: 'TEST123' }, credentials_last4: { access_token: '9888' } });
    const rawLive = (await h.db.collection('integrations').findOne({ _id: live.id as never })) as unknown as IntegrationDoc;
    expect(JSON.parse(h.box.open(rawLive.credentials_sealed))).toEqual({ access_token: 'EAAB-new-token-999888' });
    // An empty optional value removes it; a required one cannot be emptied.
    const cleared = (await h.client.updateIntegration({ caller: caller('acct_crud', LIVE_KEY), integration_id: live.id, options: { test_event_code: '' }, credentials: {} })).integration!;
    expect(cleared.options).toEqual({ pixel_id: '123456' });
    await expect(h.client.updateIntegration({ caller: caller('acct_crud', LIVE_KEY), integration_id: live.id, options: { pixel_id: '' }, credentials: {} })).rejects.toMatchObject({ code: 'parameter_missing', param: 'options.pixel_id' });

    const deleted = (await h.client.deleteIntegration({ caller: caller('acct_crud', LIVE_KEY), integration_id: live.id })).integration!;
    expect(deleted.id).toBe(live.id);
    await expect(h.client.getIntegration({ caller: caller('acct_crud', LIVE_KEY), integration_id: live.id })).rejects.toMatchObject({ code: 'not_found', param: 'integration' });
    expect(await h.db.collection('integrations').countDocuments({ _id: live.id as never })).toBe(0);
    await expect(h.client.createIntegration({ caller: caller('acct_crud', { restricted: true }), kind: 'utmify', name: '', sales: '', options: {}, credentials: { api_token: TOKEN } })).rejects.toMatchObject({ code: 'restricted_key' });
  });

  it('validation: each bad input names its param in Portuguese and writes nothing', async () => {
    const create = (fields: Record<string, unknown>) =>
      h.client.createIntegration({ caller: caller('acct_valid'), kind: 'meta', name: '', sales: '', options: { pixel_id: '123' }, credentials: { access_token: 'EAAB-token-12345678' }, ...fields }).catch((error: AppError) => error);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ kind: '' }, 'parameter_missing', 'kind'],
      [{ kind: 'google' }, 'parameter_invalid', 'kind'],
      [{ sales: 'sometimes' }, 'parameter_invalid', 'sales'],
      [{ name: 'x'.repeat(101) }, 'parameter_invalid', 'name'],
      [{ options: {} }, 'parameter_missing', 'options.pixel_id'],
      [{ options: { pixel_id: 'abc' } }, 'parameter_invalid', 'options.pixel_id'],
      [{ options: { pixel_id: '1', color: 'blue' } }, 'parameter_invalid', 'options.color'],
      [{ credentials: {} }, 'parameter_missing', 'credentials.access_token'],
    ];
    for (const [fields, code, param] of cases) {
      const error = await create(fields);
      expect(error).toMatchObject({ code, param });
      expect((error as AppError).message).toMatch(/[a-zà-ú]/i);
    }
    expect((await create({ sales: 'sometimes' }) as AppError).message).toContain('live');
    expect(await h.db.collection('integrations').countDocuments({ merchant_id: 'acct_valid' })).toBe(0);
    const ok = await create({});
    expect((ok as { integration: { id: string } }).integration.id).toMatch(/^itg_/);
    await expect(h.client.updateIntegration({ caller: caller('acct_valid'), integration_id: (ok as { integration: { id: string } }).integration.id, name: '  ', options: {}, credentials: {} })).rejects.toMatchObject({ param: 'name' });
  });

  it('visits: one per payment, each tracking key from the first visit that brought it, the last IP and browser, values bounded', async () => {
    const paymentId = newPaymentId();
    const visit = { payment_id: paymentId, merchant_id: 'acct_visit', mode: common.Mode.MODE_LIVE, url: `https://pay.example/${paymentId}?utm_source=google`, referrer: '' };
    // A first visit without UTMs does not freeze an empty set.
    await h.client.recordVisit({ ...visit, tracking: {}, ip: '203.0.113.8', user_agent: 'Safari' });
    // Unknown keys and values over 500 characters are not taken.
    await h.client.recordVisit({ ...visit, tracking: { utm_source: 'google', fbclid: 'x'.repeat(900), utm_foo: 'bar' }, ip: '203.0.113.9', user_agent: 'Firefox' });
    // Racing visits: the key already there stays; of the new key, exactly one value is kept.
    await Promise.all([1, 2, 3].map((n) => h.client.recordVisit({ ...visit, tracking: { utm_source: `other${n}`, utm_campaign: `camp${n}` }, ip: `198.51.100.${n}`, user_agent: 'Chrome' })));
    const stored = (await h.db.collection('visits').findOne({ _id: paymentId as never })) as unknown as VisitDoc;
    expect(stored).toMatchObject({ merchant_id: 'acct_visit', mode: 'live', count: 5, user_agent: 'Chrome' });
    expect(Object.keys(stored.tracking).sort()).toEqual(['utm_campaign', 'utm_source']);
    expect(stored.tracking['utm_source']).toBe('google');
    expect(stored.tracking['utm_campaign']).toMatch(/^camp[123]$/);
    expect(stored.ip).toMatch(/^198\.51\.100\.[123]$/);
    expect(stored.first_seen_at.getTime()).toBeLessThan(stored.last_seen_at.getTime() + 1);
    await expect(h.client.recordVisit({ ...visit, payment_id: 'abc', tracking: {}, ip: '', user_agent: '' })).rejects.toMatchObject({ param: 'payment_id' });
    await expect(h.client.recordVisit({ ...visit, mode: common.Mode.MODE_UNSPECIFIED, tracking: {}, ip: '', user_agent: '' })).rejects.toMatchObject({ param: 'mode' });
  });

  it('sales: the stage never moves backwards under late and repeated events; instants recorded once', async () => {
    const merchant = 'acct_sales';
    const id = newPaymentId();
    const t0 = Math.floor(Date.now() / 1000);
    const at = (seconds: number) => new Date((t0 + seconds) * 1000).toISOString();
    const pending = envelope('payment.pending', merchant, paymentObject({ id, status: 'pending', updated_at: at(0) }), t0);
    const paid = envelope('payment.succeeded', merchant, paymentObject({ id, status: 'succeeded', updated_at: at(10) }), t0 + 10);
    const partial = envelope('payment.partially_refunded', merchant, paymentObject({ id, status: 'partially_refunded', amount_refunded: 1_000, updated_at: at(20) }), t0 + 20);
    const refunded = envelope('payment.refunded', merchant, paymentObject({ id, status: 'refunded', amount_refunded: 12_990, updated_at: at(30) }), t0 + 30);
    const canceled = envelope('payment.canceled', merchant, paymentObject({ id, status: 'canceled', updated_at: at(5) }), t0 + 5);
    const sale = async () => (await h.db.collection('sales').findOne({ _id: id as never })) as unknown as SaleDoc | null;

    // Out of order: paid first, then the older pending, the paid again, a partial refund, a late cancel.
    await h.bus.publish(paid);
    await waitFor(async () => (await sale())?.stage === 'paid', 10_000, 'paid');
    for (const event of [pending, paid, partial, canceled]) await h.bus.publish(event);
    await waitFor(async () => (await sale())?.amount_refunded === 1_000, 10_000, 'partial refund snapshot');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await sale()).toMatchObject({ stage: 'paid', stage_rank: 1, approved_at: new Date(paid.created * 1000), refunded_at: null, amount_refunded: 1_000 });

    await h.bus.publish(refunded);
    await waitFor(async () => (await sale())?.stage === 'refunded', 10_000, 'refunded');
    // An older snapshot never replaces a newer one; a stage of a lower rank never comes back.
    await Promise.all([pending, paid, partial].map((event) => h.bus.publish(event)));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await sale()).toMatchObject({ stage: 'refunded', stage_rank: 2, amount_refunded: 12_990, refunded_at: new Date(refunded.created * 1000), approved_at: new Date(paid.created * 1000), mode: 'test', merchant_id: merchant });
    expect((await sale())!.customer).toMatchObject({ email: 'Ana.Lima@Example.com ' });

    // A lost chargeback after the refund: same rank, the first reached stays; the instant is kept.
    const dispute = { id: 'dp_1', object: 'dispute', kind: 'chargeback', status: 'lost', amount: 12_990, payment_id: id, mode: 'test' };
    await h.bus.publish(envelope('dispute.closed', merchant, dispute, t0 + 40));
    await waitFor(async () => (await sale())?.chargedback_at !== null, 10_000, 'chargedback_at');
    expect((await sale())!.stage).toBe('refunded');
  });

  it('sales: a dispute about a sale not known yet is redelivered until the sale arrives', async () => {
    const merchant = 'acct_dispute';
    const id = newPaymentId();
    const t0 = Math.floor(Date.now() / 1000);
    await h.bus.publish(envelope('dispute.closed', merchant, { id: 'dp_2', object: 'dispute', kind: 'chargeback', status: 'lost', amount: 500, payment_id: id, mode: 'test' }, t0));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await h.db.collection('sales').countDocuments({ _id: id as never })).toBe(0);
    await h.bus.publish(envelope('payment.succeeded', merchant, paymentObject({ id, method: 'card', status: 'succeeded', amount: 500 }), t0 - 60));
    // The bus hands the dispute back after its retry delay (2 s): the sale is then chargedback.
    await waitFor(async () => ((await h.db.collection('sales').findOne({ _id: id as never })) as unknown as SaleDoc | null)?.stage === 'chargedback', 15_000, 'chargedback');
  });
});
