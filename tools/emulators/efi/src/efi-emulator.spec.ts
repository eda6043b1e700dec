/**
 * The emulator's own behaviour over HTTPS/mTLS: validation answers, webhook registration checks,
 * control routes. The adapter-level flows are in services/providers/src/adapters/efi/efi.contract.spec.ts.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { generateTestCerts, type TestCerts } from '../../testing/test-certs';
import { createEfiEmulator, type EfiEmulator } from './efi-emulator';
import { eventuallyExpect } from '@orquestra/platform/testing';

jest.setTimeout(30_000);

const CLIENT = { client_id: 'emu_client', client_secret: 'emu_secret', chave: 'emu-chave-0001' };
const TXID = 'emulatortxid0000000000000000001';

let certs: TestCerts;
let emulator: EfiEmulator;
let api: string;
let control: string;
let agent: Agent;
let token: string;
const servers: Server[] = [];

async function call(method: 'GET' | 'PUT' | 'PATCH' | 'POST' | 'DELETE', path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await request(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    dispatcher: agent,
  });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

async function controlCall(method: string, path: string, body?: unknown) {
  const response = await fetch(`${control}${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const cob = (overrides: Record<string, unknown> = {}) => ({
  calendario: { expiracao: 600 },
  valor: { original: '10.00' },
  chave: CLIENT.chave,
  ...overrides,
});

beforeAll(async () => {
  certs = generateTestCerts('efi-emulator-spec');
  emulator = createEfiEmulator({
    tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem },
    clients: [CLIENT],
    webhooks: { retries: 0, timeoutMs: 1_000 },
  });
  const ports = await emulator.start();
  api = `https://localhost:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  agent = new Agent({ connect: { ca: certs.caPem, cert: certs.clientCertPem, key: certs.clientKeyPem } });
  const basic = Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64');
  const tokenAnswer = await call('POST', '/oauth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
  token = String(tokenAnswer.body?.['access_token']);
});

afterAll(async () => {
  await agent?.close();
  await emulator?.stop();
  await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  certs?.cleanup();
});

describe('oauth', () => {
  it('answers a token with the documented fields', async () => {
    const basic = Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64');
    const answer = await call('POST', '/oauth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(String(answer.body?.['scope'])).toContain('cob.write');
  });

  it('refuses another grant type and a missing Bearer token', async () => {
    const basic = Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64');
    expect((await call('POST', '/oauth/token', { grant_type: 'password' }, { authorization: `Basic ${basic}` })).status).toBe(400);
    expect((await call('GET', `/v2/cob/${TXID}`, undefined, { authorization: 'Bearer nope' })).status).toBe(401);
  });
});

describe('cob validation', () => {
  it.each([
    ['a txid too short', 'short', cob(), 'valor_invalido'],
    ['a key of another account', TXID, cob({ chave: 'someone-else' }), 'chave_invalida'],
    ['a zero amount', TXID, cob({ valor: { original: '0.00' } }), 'valor_invalido'],
    ['an amount with one decimal', TXID, cob({ valor: { original: '10.0' } }), 'valor_invalido'],
    ['an invalid CPF', TXID, cob({ devedor: { cpf: '12345678900', nome: 'X' } }), 'valor_invalido'],
    ['a devedor with both documents', TXID, cob({ devedor: { cpf: '52998224725', cnpj: '11222333000181', nome: 'X' } }), 'valor_invalido'],
    ['a negative expiracao', TXID, cob({ calendario: { expiracao: -1 } }), 'valor_invalido'],
    ['51 infoAdicionais', TXID, cob({ infoAdicionais: Array.from({ length: 51 }, () => ({ nome: 'n', valor: 'v' })) }), 'valor_invalido'],
  ])('refuses %s', async (_label, txid, body, nome) => {
    const answer = await call('PUT', `/v2/cob/${txid}`, body);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ nome });
  });

  it('defaults expiracao to 86400 s and answers 409 txid_duplicado on reuse', async () => {
    const created = await call('PUT', `/v2/cob/${TXID}`, { valor: { original: '1.00' }, chave: CLIENT.chave });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'ATIVA', revisao: 0, calendario: { expiracao: 86_400 }, loc: { tipoCob: 'cob' } });
    const again = await call('PUT', `/v2/cob/${TXID}`, { valor: { original: '1.00' }, chave: CLIENT.chave });
    expect(again).toEqual({ status: 409, body: { nome: 'txid_duplicado', mensagem: 'Campo txid informado já foi utilizado em outra cobrança' } });
  });
});

describe('webhook registration checks', () => {
  it('refuses a receiver that does not answer the test notification with a 2xx', async () => {
    const port = await listen(createHttpServer((_req, res) => res.writeHead(404).end()));
    const answer = await call('PUT', `/v2/webhook/${CLIENT.chave}`, { webhookUrl: `http://127.0.0.1:${port}/hook` }, { 'x-skip-mtls-checking': 'true' });
    expect(answer).toMatchObject({ status: 400, body: { nome: 'webhook_invalido', mensagem: 'A URL informada respondeu com o código HTTP 404' } });
  });

  it('refuses an unreachable receiver', async () => {
    const port = await listen(createHttpServer());
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const answer = await call('PUT', `/v2/webhook/${CLIENT.chave}`, { webhookUrl: `http://127.0.0.1:${port}/hook` }, { 'x-skip-mtls-checking': 'true' });
    expect(answer).toMatchObject({ status: 400, body: { nome: 'webhook_invalido' } });
    expect(String(answer.body?.['mensagem'])).toContain('ECONNREFUSED');
  });

  it('without x-skip-mtls-checking, requires a receiver that enforces mTLS', async () => {
    const tls = { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem };
    const lax = await listen(createHttpsServer(tls, (_req, res) => res.writeHead(200).end()) as unknown as Server);
    const laxAnswer = await call('PUT', `/v2/webhook/${CLIENT.chave}`, { webhookUrl: `https://localhost:${lax}/hook` });
    expect(laxAnswer.body).toMatchObject({ nome: 'webhook_invalido', mensagem: 'A autenticação de TLS mútuo não está configurada na URL informada' });

    const strict = await listen(
      createHttpsServer({ ...tls, requestCert: true, rejectUnauthorized: true }, (_req, res) => res.writeHead(200).end()) as unknown as Server,
    );
    const strictAnswer = await call('PUT', `/v2/webhook/${CLIENT.chave}`, { webhookUrl: `https://localhost:${strict}/hook` });
    expect(strictAnswer.status).toBe(201);
    expect(emulator.state.getWebhook(CLIENT.client_id, CLIENT.chave)).toMatchObject({ skipMtlsChecking: false });
    expect((await call('GET', `/v2/webhook/${CLIENT.chave}`)).body).toMatchObject({ webhookUrl: `https://localhost:${strict}/hook` });
    expect((await call('DELETE', `/v2/webhook/${CLIENT.chave}`)).status).toBe(204);
    expect((await call('GET', `/v2/webhook/${CLIENT.chave}`)).body).toMatchObject({ nome: 'webhook_nao_encontrado' });
  });
});

describe('control routes', () => {
  it('registers clients idempotently and validates bodies', async () => {
    expect((await controlCall('POST', '/__control/clients', { client_id: 'c2', client_secret: 's2', chave: 'k2' })).status).toBe(201);
    expect((await controlCall('POST', '/__control/clients', { client_id: 'c2', client_secret: 's2', chave: 'k2' })).status).toBe(200);
    expect((await controlCall('POST', '/__control/clients', { client_id: 'c3' })).status).toBe(400);
    expect((await controlCall('POST', '/__control/faults', { error_rate: 2 })).status).toBe(400);
    expect((await controlCall('POST', '/__control/faults', { surprise: true })).status).toBe(400);
  });

  it('pays only ATIVA charges and reports stats; reset keeps clients', async () => {
    const txid = 'emulatortxid0000000000000000002';
    expect((await call('PUT', `/v2/cob/${txid}`, cob())).status).toBe(201);
    expect((await controlCall('POST', `/__control/charges/${txid}/pay`, { infoPagador: 'obrigado' })).body).toMatchObject({
      status: 'CONCLUIDA',
      webhook: 'not_registered',
    });
    expect((await controlCall('POST', `/__control/charges/${txid}/pay`)).status).toBe(409);
    expect((await controlCall('POST', '/__control/charges/nonexistenttxid00000000000000/pay')).status).toBe(404);
    const paid = await call('GET', `/v2/cob/${txid}`);
    expect(paid.body).toMatchObject({ status: 'CONCLUIDA', pix: [{ txid, valor: '10.00', infoPagador: 'obrigado' }] });

    const stats = (await controlCall('GET', '/__control/stats')).body;
    expect(stats).toMatchObject({ by_client: { [CLIENT.client_id]: expect.any(Number) } });
    expect((await controlCall('POST', '/__control/reset')).status).toBe(204);
    expect((await controlCall('GET', '/__control/stats')).body).toMatchObject({ charges_created: 0, charges_stored: 0 });
    expect((await call('GET', `/v2/cob/${txid}`)).body).toMatchObject({ nome: 'cobranca_nao_encontrada' });
    expect((await call('PUT', `/v2/cob/${txid}`, cob())).status).toBe(201);
  });

  it('serves the linkVisualizacao page and the health route', async () => {
    const txid = 'emulatortxid0000000000000000003';
    const created = await call('PUT', `/v2/cob/${txid}`, cob());
    const locId = (created.body?.['loc'] as { id: number }).id;
    const qr = await call('GET', `/v2/loc/${locId}/qrcode`);
    expect(qr.body).toMatchObject({ qrcode: created.body?.['pixCopiaECola'], imagemQrcode: expect.stringMatching(/^data:image\/png;base64,/) });
    const page = await fetch(String(qr.body?.['linkVisualizacao']));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('R$ 10.00');
    expect((await call('GET', '/v2/loc/999999/qrcode')).body).toMatchObject({ nome: 'location_nao_encontrada' });
    expect((await controlCall('GET', '/__control/health')).body).toEqual({ status: 'ok' });
  });
});

describe('devoluções (PUT|GET /v2/pix/:e2eId/devolucao/:id)', () => {
  async function paidPix(txid: string, valor = '10.00'): Promise<string> {
    expect((await call('PUT', `/v2/cob/${txid}`, cob({ valor: { original: valor } }))).status).toBe(201);
    const paid = await controlCall('POST', `/__control/charges/${txid}/pay`);
    return (paid.body?.['pix'] as { endToEndId: string }[])[0]!.endToEndId;
  }

  it('answers EM_PROCESSAMENTO, then DEVOLVIDO shortly after, shown in the cob’s pix[].devolucoes', async () => {
    const txid = 'emulatortxid0000000000000000010';
    const e2e = await paidPix(txid);
    const created = await call('PUT', `/v2/pix/${e2e}/devolucao/dev1`, { valor: '4.00', descricao: 'Troca' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'dev1', valor: '4.00', natureza: 'ORIGINAL', descricao: 'Troca', status: 'EM_PROCESSAMENTO' });
    expect(created.body?.['rtrId']).toMatch(/^D[0-9]{8}[0-9]{12}[a-zA-Z0-9]{11}$/);
    expect((created.body?.['horario'] as Record<string, string>)['solicitacao']).toBeDefined();
    // DEVOLVIDO once the emulator's settle timer fired: polled for.
    await eventuallyExpect(async () => expect((await call('GET', `/v2/pix/${e2e}/devolucao/dev1`)).body).toMatchObject({ status: 'DEVOLVIDO', horario: { liquidacao: expect.any(String) } }));
    const charge = await call('GET', `/v2/cob/${txid}`);
    expect(charge.body).toMatchObject({ pix: [{ devolucoes: [{ id: 'dev1', status: 'DEVOLVIDO' }] }] });
  });

  it('refuses a sum above the Pix value, a reused id, a bad valor or id, and an unknown e2eid, with the Banco Central errors', async () => {
    const e2e = await paidPix('emulatortxid0000000000000000011', '10.00');
    expect((await call('PUT', `/v2/pix/${e2e}/devolucao/a1`, { valor: '6.00' })).status).toBe(201);
    const over = await call('PUT', `/v2/pix/${e2e}/devolucao/a2`, { valor: '4.01' });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida', status: 400, violacoes: [{ propriedade: 'valor' }] });
    expect(String((over.body?.['violacoes'] as { razao: string }[])[0]?.razao)).toContain('4.00');
    expect((await call('PUT', `/v2/pix/${e2e}/devolucao/a1`, { valor: '1.00' })).body).toMatchObject({ type: expect.stringMatching(/PixDevolucaoInvalida$/) });
    expect((await call('PUT', `/v2/pix/${e2e}/devolucao/a3`, { valor: '1' })).body).toMatchObject({ type: expect.stringMatching(/RequisicaoInvalida$/) });
    expect((await call('PUT', `/v2/pix/${e2e}/devolucao/a3`, { valor: '0.00' })).status).toBe(400);
    expect((await call('PUT', `/v2/pix/${e2e}/devolucao/id_with_underscore`, { valor: '1.00' })).body).toMatchObject({ type: expect.stringMatching(/RequisicaoInvalida$/) });
    expect((await call('PUT', `/v2/pix/${e2e}/devolucao/a4`, { valor: '1.00', descricao: 'x'.repeat(141) })).status).toBe(400);
    expect((await call('PUT', `/v2/pix/E09089356202601011200zzzzzzzzzzz/devolucao/a5`, { valor: '1.00' })).status).toBe(404);
    expect((await call('GET', `/v2/pix/${e2e}/devolucao/nope`)).status).toBe(404);
    // Exactly what is left is accepted.
    expect((await call('PUT', `/v2/pix/${e2e}/devolucao/a6`, { valor: '4.00' })).status).toBe(201);
  });

  it('settles NAO_REALIZADO when told to (its amount is free again), and takes dashboard devoluções on the control port', async () => {
    const e2e = await paidPix('emulatortxid0000000000000000012', '10.00');
    expect((await controlCall('POST', '/__control/devolucoes/behaviour', { client_id: CLIENT.client_id, outcome: 'NAO_REALIZADO', settle_after_ms: 0 })).status).toBe(200);
    await call('PUT', `/v2/pix/${e2e}/devolucao/b1`, { valor: '10.00' });
    await eventuallyExpect(async () => expect((await call('GET', `/v2/pix/${e2e}/devolucao/b1`)).body).toMatchObject({ status: 'NAO_REALIZADO', motivo: expect.any(String) }));
    await controlCall('POST', '/__control/devolucoes/behaviour', { client_id: CLIENT.client_id, outcome: 'DEVOLVIDO', settle_after_ms: 0 });
    const dashboard = await controlCall('POST', `/__control/pix/${e2e}/devolucao`, { valor: '10.00' });
    expect(dashboard.status).toBe(201);
    expect(dashboard.body).toMatchObject({ id: expect.stringMatching(/^painel/), status: 'EM_PROCESSAMENTO' });
    expect((await controlCall('POST', `/__control/pix/${e2e}/devolucao`, { valor: '0.01' })).status).toBe(409);
    const listed = await controlCall('GET', `/__control/charges?client_id=${CLIENT.client_id}`);
    const charge = (listed.body?.['charges'] as { txid: string; devolucoes: unknown[] }[]).find((c) => c.txid === 'emulatortxid0000000000000000012');
    expect(charge?.devolucoes).toHaveLength(2);
  });
});
