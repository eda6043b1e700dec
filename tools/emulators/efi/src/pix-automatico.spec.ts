/**
 * Pix Automático in the Efí emulator, over HTTPS/mTLS as an integrator calls it: recurrences and
 * their approval (journeys 1, 2, 3) in the simulated payer's bank, cycle charges on a clock the
 * test moves, failures retried per PERMITE_3R_7D, cancellation, webhooks, and a restart.
 * The clock starts on Monday 2026-03-02, 09:00 in São Paulo, and only moves forward: the tests
 * run in order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { generateTestCerts, type TestCerts } from '../../testing/test-certs';
import { createEfiEmulator, type EfiEmulator } from './efi-emulator';

jest.setTimeout(30_000);

const CLIENT = { client_id: 'rec_client', client_secret: 'rec_secret', chave: 'rec-chave-0001' };
const BASE = new Date('2026-03-02T12:00:00.000Z');

type Answer = { status: number; body: Record<string, unknown> };
type Call = (method: string, path: string, body?: unknown) => Promise<Answer>;

let certs: TestCerts;
let dir: string;
let agent: Agent;
let receiver: Server;
let receiverUrl: string;
const received: { path: string; body: Record<string, { idRec?: string; txid?: string; status: string }[]> }[] = [];

async function startEmulator(): Promise<{ emulator: EfiEmulator; call: Call; control: Call }> {
  const emulator = createEfiEmulator({
    tls: { cert: certs.serverCertPem, key: certs.serverKeyPem, ca: certs.caPem },
    clients: [CLIENT],
    webhooks: { retries: 0, timeoutMs: 1_000, verifyOnRegister: false },
    now: () => BASE,
    // Months pass in these tests; the token must outlive them.
    tokenTtlSeconds: 10 * 365 * 86_400,
    sweepMs: 0,
    stateFile: join(dir, 'efi.json'),
  });
  const ports = await emulator.start();
  const api = `https://localhost:${ports.apiPort}`;
  const send = async (url: string, method: string, body: unknown, headers: Record<string, string>, dispatcher?: Agent) => {
    const response = await request(url, {
      method: method as 'GET',
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      ...(dispatcher ? { dispatcher } : {}),
    });
    const text = await response.body.text();
    return { status: response.statusCode, body: (text ? JSON.parse(text) : {}) as Record<string, unknown> };
  };
  const basic = Buffer.from(`${CLIENT.client_id}:${CLIENT.client_secret}`).toString('base64');
  const token = String((await send(`${api}/oauth/token`, 'POST', { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` }, agent)).body['access_token']);
  return {
    emulator,
    call: (method, path, body) => send(`${api}${path}`, method, body, { authorization: `Bearer ${token}` }, agent),
    control: (method, path, body) => send(`http://127.0.0.1:${ports.controlPort}${path}`, method, body, {}),
  };
}

let emulator: EfiEmulator;
let call: Call;
let control: Call;

const rec = (overrides: Record<string, unknown> = {}) => ({
  vinculo: { contrato: 'contrato-001', devedor: { cpf: '52998224725', nome: 'Fulana de Tal' }, objeto: 'Plano mensal' },
  calendario: { dataInicial: '2026-03-10', periodicidade: 'MENSAL' },
  valor: { valorRec: '49.90' },
  politicaRetentativa: 'PERMITE_3R_7D',
  ...overrides,
});
const cobr = (idRec: string, dataDeVencimento: string, original = '49.90') => ({ idRec, calendario: { dataDeVencimento }, valor: { original } });
const txid = (n: number) => `recurringcharge${String(n).padStart(15, '0')}`;
const advanceTo = (at: string) => control('POST', '/__control/clock', { set: at });

/** A recurrence approved through journey 1 (approval request, payer's bank accepts). */
async function approvedRec(overrides: Record<string, unknown> = {}): Promise<string> {
  const created = await call('POST', '/v2/rec', rec(overrides));
  const idRec = String(created.body['idRec']);
  await call('POST', '/v2/solicrec', solicrec(idRec, '2026-12-31T23:00:00Z'));
  expect((await control('POST', `/__control/recs/${idRec}/approve`)).status).toBe(200);
  return idRec;
}
const solicrec = (idRec: string, dataExpiracaoSolicitacao: string) => ({
  idRec,
  calendario: { dataExpiracaoSolicitacao },
  destinatario: { cpf: '52998224725', conta: '123456', ispbParticipante: '00000000', agencia: '0001' },
});

beforeAll(async () => {
  certs = generateTestCerts('efi-pix-automatico-spec');
  dir = mkdtempSync(join(tmpdir(), 'efi-rec-'));
  agent = new Agent({ connect: { ca: certs.caPem, cert: certs.clientCertPem, key: certs.clientKeyPem } });
  receiver = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: JSON.parse(text) as (typeof received)[number]['body'] });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/efi`;
  ({ emulator, call, control } = await startEmulator());
  expect((await call('PUT', '/v2/webhookrec', { webhookUrl: receiverUrl })).status).toBe(200);
  expect((await call('PUT', '/v2/webhookcobr', { webhookUrl: receiverUrl })).status).toBe(200);
});

afterAll(async () => {
  await emulator?.stop();
  await agent?.close();
  await new Promise<void>((resolve) => receiver?.close(() => resolve()));
  certs?.cleanup();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The notifications received so far about `id` (an idRec or txid), as `path:status`, sorted: concurrent deliveries arrive in any order. */
async function notified(id: string): Promise<string[]> {
  await emulator.webhooksIdle();
  return received.flatMap(({ path, body }) =>
    path.endsWith('/rec')
      ? (body['recs'] ?? []).filter((item) => item.idRec === id).map((item) => `/rec:${item.status}`)
      : (body['cobsr'] ?? []).filter((item) => item.txid === id).map((item) => `/cobr:${item.status}`),
  ).sort();
}

describe('recurrences', () => {
  it('journey 1: an approval request the payer accepts in the bank app', async () => {
    const created = await call('POST', '/v2/rec', rec());
    expect(created.status).toBe(201);
    const idRec = String(created.body['idRec']);
    expect(idRec).toMatch(/^RR0908935620260302[a-zA-Z0-9]{11}$/);
    expect(created.body).toMatchObject({ status: 'CRIADA', politicaRetentativa: 'PERMITE_3R_7D', valor: { valorRec: '49.90' } });

    const request = await call('POST', '/v2/solicrec', solicrec(idRec, '2026-03-09T12:00:00Z'));
    expect(request).toMatchObject({ status: 201, body: { idRec, status: 'CRIADA' } });
    const id = String(request.body['idSolicRec']);
    expect((await call('GET', `/v2/solicrec/${id}`)).body).toMatchObject({ status: 'RECEBIDA' });
    expect((await call('POST', '/v2/solicrec', solicrec(idRec, '2026-03-09T12:00:00Z'))).body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/SolicRecOperacaoInvalida' });

    expect((await control('POST', `/__control/recs/${idRec}/approve`)).body).toMatchObject({ status: 'APROVADA' });
    expect((await call('GET', `/v2/rec/${idRec}`)).body).toMatchObject({ status: 'APROVADA', ativacao: { tipoJornada: 'JORNADA_1' }, atualizacao: [{ status: 'CRIADA' }, { status: 'APROVADA' }] });
    expect((await call('GET', `/v2/solicrec/${id}`)).body).toMatchObject({ status: 'ACEITA' });
    expect(await notified(idRec)).toEqual(['/rec:APROVADA']);
  });

  it('refusal: the recurrence is REJEITADA and takes no charge', async () => {
    const idRec = String((await call('POST', '/v2/rec', rec())).body['idRec']);
    await call('POST', '/v2/solicrec', solicrec(idRec, '2026-03-09T12:00:00Z'));
    expect((await control('POST', `/__control/recs/${idRec}/refuse`)).body).toMatchObject({ status: 'REJEITADA' });
    expect((await control('POST', `/__control/recs/${idRec}/approve`)).status).toBe(409);
    const charge = await call('PUT', `/v2/cobr/${txid(90)}`, cobr(idRec, '2026-03-10'));
    expect(charge).toMatchObject({ status: 400, body: { type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida' } });
    expect(await notified(idRec)).toEqual(['/rec:REJEITADA']);
  });

  it('journey 2: a QR code with only the recurrence, approved in the bank app', async () => {
    const loc = await call('POST', '/v2/locrec');
    expect(loc).toMatchObject({ status: 201, body: { id: expect.any(Number) } });
    const location = String(loc.body['location']);
    expect(location).toContain('/v2/rec/');
    const idRec = String((await call('POST', '/v2/rec', rec({ loc: loc.body['id'] }))).body['idRec']);
    const shown = await call('GET', `/v2/rec/${idRec}`);
    expect(shown.body).toMatchObject({ loc: { id: loc.body['id'], location, idRec }, dadosQR: { jornada: 'JORNADA_2' } });
    expect((shown.body['dadosQR'] as { pixCopiaECola: string }).pixCopiaECola).toContain(location);
    expect((await call('POST', '/v2/rec', rec({ loc: loc.body['id'] }))).body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida' });
    expect((await control('POST', `/__control/recs/${idRec}/approve`)).body).toMatchObject({ status: 'APROVADA' });
    expect((await call('GET', `/v2/rec/${idRec}`)).body['dadosQR']).toBeUndefined();
  });

  it('journey 3: paying the immediate charge of the combined QR approves the recurrence', async () => {
    const cobTxid = 'journeythreeimmediate000000001';
    expect((await call('PUT', `/v2/cob/${cobTxid}`, { calendario: { expiracao: 3600 }, valor: { original: '49.90' }, chave: CLIENT.chave })).status).toBe(201);
    const loc = await call('POST', '/v2/locrec');
    const created = await call('POST', '/v2/rec', rec({ loc: loc.body['id'], ativacao: { dadosJornada: { txid: cobTxid } } }));
    const idRec = String(created.body['idRec']);
    const shown = await call('GET', `/v2/rec/${idRec}?txid=${cobTxid}`);
    expect(shown.body).toMatchObject({ ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid: cobTxid } }, dadosQR: { jornada: 'JORNADA_3' } });
    expect((shown.body['dadosQR'] as { pixCopiaECola: string }).pixCopiaECola).toContain(String(loc.body['location']));
    expect((await control('POST', `/__control/recs/${idRec}/approve`)).status).toBe(409);
    expect((await control('POST', `/__control/charges/${cobTxid}/pay`)).status).toBe(200);
    expect((await call('GET', `/v2/rec/${idRec}`)).body).toMatchObject({ status: 'APROVADA' });
  });

  it('refuses bad bodies with the Banco Central error shape', async () => {
    const answer = await call('POST', '/v2/rec', rec({ politicaRetentativa: 'SEMPRE' }));
    expect(answer).toMatchObject({ status: 400, body: { type: 'https://pix.bcb.gov.br/api/v2/error/RecOperacaoInvalida', violacoes: [{ propriedade: 'politicaRetentativa' }] } });
    expect((await call('POST', '/v2/rec', rec({ calendario: { dataInicial: '2026-03-01', periodicidade: 'MENSAL' } }))).body).toMatchObject({ violacoes: [{ propriedade: 'calendario.dataInicial' }] });
    expect((await call('GET', '/v2/rec/RR0908935620260302nonexistent')).body).toMatchObject({ status: 404, type: 'https://pix.bcb.gov.br/api/v2/error/RecNaoEncontrada' });
    expect((await call('GET', `/v2/cobr/${txid(99)}`)).body).toMatchObject({ status: 404, type: 'https://pix.bcb.gov.br/api/v2/error/CobRNaoEncontrado' });
    expect((await call('GET', '/v2/rec')).body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/RecConsultaInvalida', violacoes: [{ propriedade: 'inicio' }] });
    const listed = await call('GET', '/v2/rec?inicio=2026-03-01T00:00:00Z&fim=2026-03-03T00:00:00Z&status=REJEITADA');
    expect((listed.body['recs'] as unknown[]).length).toBe(1);
  });
});

describe('cycle charges', () => {
  let idRec: string;

  it('schedules a cycle sent 2 to 10 days ahead and settles it on its date', async () => {
    idRec = await approvedRec();
    expect((await call('PUT', `/v2/cobr/${txid(1)}`, cobr(idRec, '2026-03-03'))).body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida' });
    expect((await call('PUT', `/v2/cobr/${txid(1)}`, cobr(idRec, '2026-03-10', '10.00'))).status).toBe(400);

    const created = await call('PUT', `/v2/cobr/${txid(1)}`, cobr(idRec, '2026-03-10'));
    expect(created).toMatchObject({ status: 201, body: { idRec, txid: txid(1), status: 'CRIADA', ajusteDiaUtil: true, calendario: { dataDeVencimento: '2026-03-10' } } });
    expect((await call('GET', `/v2/cobr/${txid(1)}`)).body).toMatchObject({ status: 'ATIVA', tentativas: [{ tipo: 'AGND', status: 'AGENDADA', dataLiquidacao: '2026-03-10' }] });
    // One charge per cycle: 2026-03-12 is still the cycle that started on 2026-03-10.
    expect((await call('PUT', `/v2/cobr/${txid(2)}`, cobr(idRec, '2026-03-12'))).status).toBe(400);
    // The control port lists the recurrence's charges: the refused one was never stored.
    const listed = (await control('GET', `/__control/recs/${idRec}`)).body['cobrs'] as Array<Record<string, unknown>>;
    expect(listed.map((c) => [c['txid'], c['status'], (c['calendario'] as Record<string, unknown>)['dataDeVencimento']])).toEqual([[txid(1), 'ATIVA', '2026-03-10']]);

    expect((await control('POST', `/__control/cobr/${txid(1)}/pay`)).status).toBe(409);
    await advanceTo('2026-03-10T12:00:00Z');
    expect((await control('POST', `/__control/cobr/${txid(1)}/pay`)).body).toMatchObject({ status: 'CONCLUIDA', tentativas: [{ status: 'LIQUIDADA' }] });
    expect(await notified(txid(1))).toEqual(['/cobr:ATIVA', '/cobr:CONCLUIDA']);
  });

  it('retries a failed cycle per PERMITE_3R_7D: up to 3 retries within 7 days, then EXPIRADA', async () => {
    await advanceTo('2026-04-01T12:00:00Z');
    expect((await call('PUT', `/v2/cobr/${txid(3)}`, cobr(idRec, '2026-04-10'))).status).toBe(201);
    await advanceTo('2026-04-10T12:00:00Z');
    expect((await control('POST', `/__control/cobr/${txid(3)}/fail`, { motivo: 'Saldo insuficiente' })).body).toMatchObject({
      status: 'ATIVA',
      tentativas: [{ status: 'FALHA', motivo: 'Saldo insuficiente' }],
    });
    expect((await call('POST', `/v2/cobr/${txid(3)}/retentativa/2026-04-18`)).status).toBe(400);
    for (const [index, date] of ['2026-04-13', '2026-04-15', '2026-04-17'].entries()) {
      const retried = await call('POST', `/v2/cobr/${txid(3)}/retentativa/${date}`);
      expect(retried).toMatchObject({ status: 200, body: { status: 'ATIVA' } });
      expect((retried.body['tentativas'] as unknown[])[index + 1]).toMatchObject({ tipo: 'NTAG', status: 'AGENDADA', dataLiquidacao: date });
      await advanceTo(`${date}T12:00:00Z`);
      expect((await control('POST', `/__control/cobr/${txid(3)}/fail`)).status).toBe(200);
    }
    expect((await call('GET', `/v2/cobr/${txid(3)}`)).body).toMatchObject({ status: 'EXPIRADA' });
    expect((await call('POST', `/v2/cobr/${txid(3)}/retentativa/2026-04-17`)).status).toBe(400);
    expect(await notified(txid(3))).toEqual(['/cobr:ATIVA', '/cobr:ATIVA', '/cobr:ATIVA', '/cobr:ATIVA', '/cobr:EXPIRADA']);
  });

  it('a retry can be paid; a recurrence without retries expires its charge at the first failure', async () => {
    await advanceTo('2026-05-01T12:00:00Z');
    await call('PUT', `/v2/cobr/${txid(4)}`, cobr(idRec, '2026-05-11'));
    await advanceTo('2026-05-11T12:00:00Z');
    await control('POST', `/__control/cobr/${txid(4)}/fail`);
    await call('POST', `/v2/cobr/${txid(4)}/retentativa/2026-05-12`);
    await advanceTo('2026-05-12T12:00:00Z');
    expect((await control('POST', `/__control/cobr/${txid(4)}/pay`)).body).toMatchObject({ status: 'CONCLUIDA', tentativas: [{ status: 'FALHA' }, { tipo: 'NTAG', status: 'LIQUIDADA' }] });

    const strict = await approvedRec({ politicaRetentativa: 'NAO_PERMITE', calendario: { dataInicial: '2026-05-20', periodicidade: 'SEMANAL' }, valor: { valorMinimoRecebedor: '10.00' } });
    expect(strict.startsWith('RN')).toBe(true);
    expect((await call('PUT', `/v2/cobr/${txid(5)}`, cobr(strict, '2026-05-20', '9.99'))).status).toBe(400);
    expect((await call('PUT', `/v2/cobr/${txid(5)}`, cobr(strict, '2026-05-20', '15.00'))).status).toBe(201);
    await advanceTo('2026-05-20T12:00:00Z');
    expect((await control('POST', `/__control/cobr/${txid(5)}/fail`)).body).toMatchObject({ status: 'EXPIRADA' });
    expect((await call('POST', `/v2/cobr/${txid(5)}/retentativa/2026-05-21`)).status).toBe(400);
  });

  it('an unpaid charge with no retry asked for expires once its 7 days are over; it still holds its cycle', async () => {
    await advanceTo('2026-06-01T12:00:00Z');
    await call('PUT', `/v2/cobr/${txid(6)}`, cobr(idRec, '2026-06-10'));
    await advanceTo('2026-06-10T12:00:00Z');
    expect((await call('PATCH', `/v2/cobr/${txid(6)}`, { status: 'CANCELADA' })).body).toMatchObject({ type: 'https://pix.bcb.gov.br/api/v2/error/CobROperacaoInvalida' });
    await control('POST', `/__control/cobr/${txid(6)}/fail`);
    expect((await call('GET', `/v2/cobr/${txid(6)}`)).body).toMatchObject({ status: 'ATIVA' });
    await advanceTo('2026-06-18T12:00:00Z');
    expect((await call('GET', `/v2/cobr/${txid(6)}`)).body).toMatchObject({ status: 'EXPIRADA' });
  });

  it('the receiver cancels a charge before its first attempt date, which frees its cycle', async () => {
    await advanceTo('2026-06-29T12:00:00Z');
    expect((await call('PUT', `/v2/cobr/${txid(9)}`, cobr(idRec, '2026-07-10'))).status).toBe(201);
    expect((await call('PATCH', `/v2/cobr/${txid(9)}`, { status: 'CANCELADA' })).body).toMatchObject({ status: 'CANCELADA', tentativas: [{ status: 'CANCELADA' }] });
    expect(await notified(txid(9))).toEqual(['/cobr:ATIVA', '/cobr:CANCELADA']);
  });

  it('cancelling the recurrence cancels its unpaid charge and stops further ones', async () => {
    await advanceTo('2026-07-01T12:00:00Z');
    // The cycle of 2026-07-10 is free again: its first charge was cancelled.
    expect((await call('PUT', `/v2/cobr/${txid(7)}`, cobr(idRec, '2026-07-10'))).status).toBe(201);
    expect((await call('PATCH', `/v2/rec/${idRec}`, { status: 'CANCELADA' })).body).toMatchObject({ status: 'CANCELADA' });
    expect((await call('GET', `/v2/cobr/${txid(7)}`)).body).toMatchObject({ status: 'CANCELADA', tentativas: [{ status: 'CANCELADA' }] });
    expect((await call('PUT', `/v2/cobr/${txid(8)}`, cobr(idRec, '2026-07-10'))).status).toBe(400);
    expect((await call('PATCH', `/v2/rec/${idRec}`, { status: 'CANCELADA' })).status).toBe(400);
    expect(await notified(idRec)).toContain('/rec:CANCELADA');
    expect(await notified(txid(7))).toContain('/cobr:CANCELADA');
    const listed = await call('GET', `/v2/cobr?inicio=2026-01-01T00:00:00Z&fim=2026-12-31T00:00:00Z&idRec=${idRec}`);
    expect((listed.body['cobsr'] as { status: string }[]).map((c) => c.status)).toEqual(['CONCLUIDA', 'EXPIRADA', 'CONCLUIDA', 'EXPIRADA', 'CANCELADA', 'CANCELADA']);
  });

  it('an approval request not answered in time expires with its recurrence', async () => {
    const idRec2 = String((await call('POST', '/v2/rec', rec({ calendario: { dataInicial: '2026-08-01', periodicidade: 'ANUAL' } }))).body['idRec']);
    await call('POST', '/v2/solicrec', solicrec(idRec2, '2026-07-02T12:00:00Z'));
    await control('POST', '/__control/clock', { advance_days: 2 });
    expect((await call('GET', `/v2/rec/${idRec2}`)).body).toMatchObject({ status: 'EXPIRADA' });
    expect(await notified(idRec2)).toEqual(['/rec:EXPIRADA']);
  });
});

describe('restart', () => {
  it('keeps recurrences, charges, webhooks and the clock in the state file', async () => {
    const before = (await control('GET', '/__control/clock')).body;
    const approved = await call('GET', '/v2/rec?inicio=2026-03-01T00:00:00Z&fim=2026-03-03T00:00:00Z&status=APROVADA');
    const idRec = (approved.body['recs'] as { idRec: string }[])[0]!.idRec;
    await emulator.stop();
    ({ emulator, call, control } = await startEmulator());
    expect((await control('GET', '/__control/clock')).body).toEqual(before);
    expect((await call('GET', `/v2/rec/${idRec}`)).body).toMatchObject({ status: 'APROVADA' });
    expect((await call('GET', `/v2/cobr/${txid(1)}`)).body).toMatchObject({ status: 'CONCLUIDA' });
    expect((await call('GET', '/v2/webhookcobr')).body).toMatchObject({ webhookUrl: receiverUrl });
  });
});
