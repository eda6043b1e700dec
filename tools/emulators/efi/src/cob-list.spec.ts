/**
 * `GET /v2/cob` (list by creation period, paged) and the dashboard control routes: charges made in
 * Efí's dashboard and status changes behind the integrator's back, without webhooks.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { generateTestCerts, type TestCerts } from '../../testing/test-certs';
import { createEfiEmulator, type EfiEmulator } from './efi-emulator';

jest.setTimeout(30_000);

const CLIENT = { client_id: 'list_client', client_secret: 'list_secret', chave: 'list-chave-0001' };
const OTHER = { client_id: 'list_other', client_secret: 'other_secret', chave: 'list-chave-0002' };

let certs: TestCerts;
let emulator: EfiEmulator;
let api: string;
let control: string;
let agent: Agent;
let token: string;
let receiver: Server;
let receiverHits = 0;

async function call(method: 'GET' | 'PUT' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await request(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    dispatcher: agent,
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: (text ? JSON.parse(text) : undefined) as Record<string, any> };
}

async function controlCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${control}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Record<string, any> };
}

const list = (query: string) => call('GET', `/v2/cob?${query}`);

beforeAll(async () => {
  certs = generateTestCerts('efi-cob-list-spec');
  emulator = createEfiEmulator({
    tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem },
    clients: [CLIENT, OTHER],
    webhooks: { retries: 0, timeoutMs: 1_000 },
    refundSettleMs: 10,
  });
  const ports = await emulator.start();
  api = `https://localhost:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  agent = new Agent({ connect: { ca: certs.caPem, cert: certs.clientCertPem, key: certs.clientKeyPem } });
  const basic = Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64');
  token = String((await call('POST', '/oauth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` })).body['access_token']);
  receiver = createServer((req, res) => {
    receiverHits += 1;
    req.resume();
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook?ignorar=`;
  expect((await call('PUT', `/v2/webhook/${CLIENT.chave}`, { webhookUrl }, { 'x-skip-mtls-checking': 'true' })).status).toBe(201);
});

afterAll(async () => {
  await agent?.close();
  await emulator?.stop();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  certs?.cleanup();
});

beforeEach(async () => {
  await controlCall('POST', '/__control/reset');
  receiverHits = 0;
});

describe('GET /v2/cob', () => {
  it('lists the client’s charges created in [inicio, fim], oldest first, page by page', async () => {
    const at = (iso: string) => controlCall('POST', '/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 1000, created_at: iso });
    const before = await at('2026-03-01T11:59:59.999Z');
    const inside = [await at('2026-03-01T12:00:00.000Z'), await at('2026-03-01T13:00:00.000Z'), await at('2026-03-01T14:00:00.000Z')];
    const after = await at('2026-03-01T15:00:00.001Z');
    await controlCall('POST', '/__control/dashboard-charges', { client_id: OTHER.client_id, amount: 1000, created_at: '2026-03-01T13:30:00.000Z' });

    const query = 'inicio=2026-03-01T12:00:00Z&fim=2026-03-01T15:00:00Z&paginacao.itensPorPagina=2';
    const first = await list(query);
    expect(first.status).toBe(200);
    expect(first.body['parametros']).toEqual({
      inicio: '2026-03-01T12:00:00.000Z',
      fim: '2026-03-01T15:00:00.000Z',
      paginacao: { paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 },
    });
    const second = await list(`${query}&paginacao.paginaAtual=1`);
    expect(second.body['parametros'].paginacao.paginaAtual).toBe(1);
    const txids = [...first.body['cobs'], ...second.body['cobs']].map((c: { txid: string }) => c.txid);
    expect(txids).toEqual(inside.map((c) => c.body['txid']));
    expect(txids).not.toContain(before.body['txid']);
    expect(txids).not.toContain(after.body['txid']);
    // Past the last page: an empty page, not an error.
    expect((await list(`${query}&paginacao.paginaAtual=5`)).body['cobs']).toEqual([]);
  });

  it('filters by status and shows paid charges with pix[] and devoluções', async () => {
    await controlCall('POST', '/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 2500, status: 'refunded' });
    await controlCall('POST', '/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 700 });
    const now = Date.now();
    const window = `inicio=${new Date(now - 60_000).toISOString()}&fim=${new Date(now + 60_000).toISOString()}`;
    const concluded = await list(`${window}&status=CONCLUIDA`);
    expect(concluded.body['cobs']).toHaveLength(1);
    const [cob] = concluded.body['cobs'];
    expect(cob.valor.original).toBe('25.00');
    expect(cob.pix[0].valor).toBe('25.00');
    expect(cob.pix[0].devolucoes).toEqual([expect.objectContaining({ valor: '25.00', status: 'DEVOLVIDO' })]);
    expect((await list(`${window}&status=ATIVA`)).body['cobs'].map((c: { valor: { original: string } }) => c.valor.original)).toEqual(['7.00']);
  });

  it('answers CobConsultaInvalida for missing or bad parameters', async () => {
    for (const query of ['fim=2026-03-01T15:00:00Z', 'inicio=ontem&fim=2026-03-01T15:00:00Z', 'inicio=2026-03-02T00:00:00Z&fim=2026-03-01T00:00:00Z', 'inicio=2026-03-01T00:00:00Z&fim=2026-03-02T00:00:00Z&paginacao.itensPorPagina=1001', 'inicio=2026-03-01T00:00:00Z&fim=2026-03-02T00:00:00Z&status=PAGA']) {
      const answer = await list(query);
      expect({ query, status: answer.status, type: answer.body['type'] }).toEqual({ query, status: 400, type: 'https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida' });
    }
  });
});

describe('dashboard control routes', () => {
  it('creates a charge with a txid Efí chose and refuses what it cannot list', async () => {
    const made = await controlCall('POST', '/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 1234, status: 'paid' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ client_id: CLIENT.client_id, status: 'CONCLUIDA', valor: { original: '12.34' } });
    expect(made.body['txid']).toMatch(/^[a-zA-Z0-9]{32}$/);
    expect((await call('GET', `/v2/cob/${made.body['txid']}`)).body['status']).toBe('CONCLUIDA');
    expect((await controlCall('POST', '/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 100, method: 'boleto' })).status).toBe(400);
    expect((await controlCall('POST', '/__control/dashboard-charges', { client_id: 'nobody', amount: 100 })).status).toBe(404);
    expect((await controlCall('POST', '/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 1.5 })).status).toBe(400);
  });

  it('changes a status behind the integrator’s back without a webhook', async () => {
    const txid = 'behindbackcob00000000000000001';
    expect((await call('PUT', `/v2/cob/${txid}`, { calendario: { expiracao: 600 }, valor: { original: '50.00' }, chave: CLIENT.chave })).status).toBe(201);
    const paid = await controlCall('POST', `/__control/charges/${txid}/status`, { status: 'paid' });
    expect(paid.status).toBe(200);
    expect(paid.body['status']).toBe('CONCLUIDA');
    const refunded = await controlCall('POST', `/__control/charges/${txid}/status`, { status: 'refunded' });
    expect(refunded.body['pix'][0].devolucoes).toEqual([expect.objectContaining({ valor: '50.00', status: 'DEVOLVIDO' })]);
    const read = await call('GET', `/v2/cob/${txid}`);
    expect(read.body['pix'][0].devolucoes[0].status).toBe('DEVOLVIDO');
    // Nothing was sent: the change happened where the integrator does not hear of it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(receiverHits).toBe(0);
    expect(emulator.state.listDeliveries().filter((d) => d.kind === 'pix')).toHaveLength(0);
    // Impossible moves are refused.
    expect((await controlCall('POST', `/__control/charges/${txid}/status`, { status: 'canceled' })).status).toBe(409);
    expect((await controlCall('POST', `/__control/charges/${txid}/status`, { status: 'refunded' })).status).toBe(409);
    expect((await controlCall('POST', '/__control/charges/unknowntxid0000000000000000/status', { status: 'paid' })).status).toBe(404);
  });

  it('cancels and expires ATIVA charges', async () => {
    const a = await controlCall('POST', '/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 100 });
    const b = await controlCall('POST', '/__control/dashboard-charges', { client_id: CLIENT.client_id, amount: 100 });
    expect((await controlCall('POST', `/__control/charges/${a.body['txid']}/status`, { status: 'canceled' })).body['status']).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect((await controlCall('POST', `/__control/charges/${b.body['txid']}/status`, { status: 'expired' })).body['status']).toBe('REMOVIDA_PELO_PSP');
  });
});
