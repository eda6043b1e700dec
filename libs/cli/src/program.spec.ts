import { mkdtempSync, readFileSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { configPath } from './config';
import { createPaymentBody } from './commands/payments.command';
import { runCli } from './program';
import { captureIo, startServer } from './testing/api-server';

const KEY = 'svc_test_CliSpecKey0000000000000000wxyz';
const argv = (...args: string[]) => ['node', 'orq', ...args];
const scratch = () => mkdtempSync(path.join(tmpdir(), 'orq-spec-'));

const PAYMENT = {
  id: 'pay_01',
  object: 'payment',
  status: 'pending',
  method: 'pix',
  amount: 1990,
  created_at: '2026-11-28T22:00:00.000Z',
};

describe('orq: arguments and messages', () => {
  it('lists its commands in --help and the supported events in trigger --help (exit 0)', async () => {
    const io = captureIo({ HOME: scratch() });
    expect(await runCli(argv('--help'), io)).toBe(0);
    const help = io.stdout.join('\n');
    for (const command of ['login', 'listen', 'trigger', 'payments', 'logs']) expect(help).toContain(command);

    const triggerIo = captureIo({ HOME: scratch() });
    expect(await runCli(argv('trigger', '--help'), triggerIo)).toBe(0);
    for (const event of ['payment.succeeded', 'refund.succeeded', 'dispute.created', 'subscription.activated']) expect(triggerIo.stdout.join('\n')).toContain(event);
  });

  it('refuses an unknown event (exit 2) and a live key at trigger, showing only the key’s last 4', async () => {
    const unknown = captureIo({ HOME: scratch(), ORQUESTRA_API_KEY: KEY });
    expect(await runCli(argv('trigger', 'payment.exploded'), unknown)).toBe(2);
    expect(unknown.stderr.join('\n')).toContain('Evento não suportado por orq trigger: payment.exploded');

    const liveKey = 'svc_live_SecretLiveKey000000000000000LIVE';
    const live = captureIo({ HOME: scratch() });
    expect(await runCli(argv('trigger', 'payment.succeeded', '--api-key', liveKey), live)).toBe(1);
    const message = live.stderr.join('\n');
    expect(message).toContain('só funciona com uma chave de teste');
    expect(message).toContain('svc_live_…LIVE');
    expect(message).not.toContain(liveKey);
  });

  it('says how to give a key when none is set, and refuses bad option values with exit 1', async () => {
    const none = captureIo({ HOME: scratch() });
    expect(await runCli(argv('payments', 'list'), none)).toBe(1);
    expect(none.stderr.join('\n')).toContain('rode orq login');

    const bad = captureIo({ HOME: scratch(), ORQUESTRA_API_KEY: KEY });
    expect(await runCli(argv('payments', 'list', '--limit', '500'), bad)).toBe(1);
    expect(bad.stderr.join('\n')).toContain('--limit deve estar entre 1 e 100');
    const method = captureIo({ HOME: scratch(), ORQUESTRA_API_KEY: KEY });
    expect(await runCli(argv('payments', 'create', '--amount', '10', '--method', 'cheque'), method)).toBe(1);
  });
});

describe('orq against an HTTP API', () => {
  it('login checks the key with the API and saves it (0600, XDG_CONFIG_HOME), printing only its last 4', async () => {
    const api = await startServer(({ headers }) =>
      headers.authorization === `Bearer ${KEY}`
        ? { status: 200, body: { object: 'list', data: [], has_more: false } }
        : { status: 401, body: { error: { type: 'authentication_error', code: 'unauthenticated', message: 'Chave inválida.', param: null } } },
    );
    try {
      const xdg = scratch();
      const io = captureIo({ HOME: scratch(), XDG_CONFIG_HOME: xdg });
      expect(await runCli(argv('login', '--api-key', KEY, '--base-url', api.url), io)).toBe(0);
      expect(api.requests[0]).toMatchObject({ method: 'GET', path: '/v1/events' });
      const file = path.join(xdg, 'orquestra', 'config.json');
      expect(configPath(io.env)).toBe(file);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ api_key: KEY, base_url: api.url });
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const printed = io.stdout.join('\n');
      expect(printed).toContain('svc_test_…wxyz');
      expect(printed).not.toContain(KEY);

      // The saved key and URL are used by the next commands.
      const list = captureIo({ HOME: scratch(), XDG_CONFIG_HOME: xdg });
      expect(await runCli(argv('payments', 'list', '--limit', '1'), list)).toBe(0);
      expect(api.requests.at(-1)).toMatchObject({ path: '/v1/payments', headers: expect.objectContaining({ authorization: `Bearer ${KEY}` }) });

      const refused = captureIo({ HOME: scratch(), XDG_CONFIG_HOME: scratch() });
      expect(await runCli(argv('login', '--api-key', 'svc_test_revoked0000', '--base-url', api.url), refused)).toBe(1);
      expect(refused.stderr.join('\n')).toContain('A API recusou a chave svc_test_…0000');
      expect(existsSync(configPath(refused.env))).toBe(false);
    } finally {
      await api.close();
    }
  });

  it('payments list (JSON or table), get and create with an Idempotency-Key; API errors in one line with code, param and request id', async () => {
    const api = await startServer(({ method, path }) => {
      if (method === 'GET' && path === '/v1/payments') return { status: 200, body: { object: 'list', data: [PAYMENT], has_more: false } };
      if (method === 'GET' && path === '/v1/payments/pay_01') return { status: 200, body: PAYMENT };
      if (method === 'POST' && path === '/v1/payments') return { status: 201, body: PAYMENT };
      return {
        status: 404,
        body: { error: { type: 'invalid_request_error', code: 'not_found', message: 'Pagamento não encontrado.', param: 'id' } },
        headers: { 'x-request-id': 'req_missing' },
      };
    });
    const env = { HOME: scratch(), ORQUESTRA_API_KEY: KEY, ORQUESTRA_BASE_URL: api.url };
    try {
      const json = captureIo(env);
      expect(await runCli(argv('payments', 'list', '--status', 'pending', '--limit', '5'), json)).toBe(0);
      expect(JSON.parse(json.stdout.join('\n'))).toMatchObject({ object: 'list', data: [{ id: 'pay_01' }] });
      expect(Object.fromEntries(api.requests.at(-1)!.query)).toEqual({ status: 'pending', limit: '5' });

      const tableIo = captureIo(env);
      expect(await runCli(argv('payments', 'list', '--format', 'table'), tableIo)).toBe(0);
      expect(tableIo.stdout.join('\n').split('\n')).toEqual([
        'ID      STATUS   MÉTODO  VALOR     CRIADO',
        'pay_01  pending  pix     R$ 19,90  2026-11-28T22:00:00.000Z',
      ]);

      const get = captureIo(env);
      expect(await runCli(argv('payments', 'get', 'pay_01'), get)).toBe(0);
      expect(JSON.parse(get.stdout.join('\n')).id).toBe('pay_01');

      const create = captureIo(env);
      expect(await runCli(argv('payments', 'create', '--amount', '1990', '--method', 'pix', '--metadata', 'order=42', '--idempotency-key', 'k-1'), create)).toBe(0);
      const sent = api.requests.at(-1)!;
      expect(sent.headers['idempotency-key']).toBe('k-1');
      expect(JSON.parse(sent.body)).toEqual({ amount: 1990, method: 'pix', customer: { name: 'Cliente orq' }, metadata: { order: '42' } });

      const missing = captureIo(env);
      expect(await runCli(argv('payments', 'get', 'pay_nope'), missing)).toBe(1);
      expect(missing.stderr).toEqual(['Erro: Pagamento não encontrado. (not_found, param id, request id req_missing)']);
    } finally {
      await api.close();
    }
  });

  it('merges --data over the options for the rest of the body, and refuses --data that is not a JSON object', () => {
    const base = { amount: 500, customerName: 'Ana', metadata: {} };
    expect(createPaymentBody({ ...base, method: 'boleto', data: '{"customer":{"name":"Ana","document":"52998224725"},"description":"x"}' })).toEqual({
      amount: 500,
      method: 'boleto',
      customer: { name: 'Ana', document: '52998224725' },
      description: 'x',
    });
    expect(() => createPaymentBody({ ...base, data: '[1]' })).toThrow('--data deve ser um objeto JSON');
    expect(() => createPaymentBody({ ...base, data: '{' })).toThrow('--data deve ser um objeto JSON');
  });
});
