import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CycleNotDebitableError, EmulatorControl, emulatorControls } from './emulator-control';

// A stand-in for an emulator's control port: records what the client sends, answers `status`.
let server: Server;
let controlUrl: string;
let status = 200;
const seen: { path: string; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString() || '{}') });
      res.writeHead(status, { 'content-type': 'application/json' }).end(status === 409 ? '{"error":"not_due","message":"the debit is scheduled for 2026-12-10"}' : '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  controlUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('emulatorControls', () => {
  const controls = emulatorControls({ efi: { control: 'http://127.0.0.1:1' }, stripe: {} }, 1_000);

  it('gives a control only to test accounts of providers with a control URL', async () => {
    const control = controls({ provider: 'efi', mode: 'test', credentials: {} });
    expect(control).toBeInstanceOf(EmulatorControl);
    await control?.close();
    expect(controls({ provider: 'efi', mode: 'live', credentials: {} })).toBeUndefined();
    expect(controls({ provider: 'stripe', mode: 'test', credentials: {} })).toBeUndefined();
    expect(controls({ provider: 'asaas', mode: 'test', credentials: {} })).toBeUndefined();
  });
});

describe('EmulatorControl', () => {
  it('pays a charge naming the account the way each emulator tells its accounts apart', async () => {
    const efi = new EmulatorControl('efi', controlUrl, { client_id: 'Client_Id_1', client_secret: 'never-sent' }, 1_000);
    await efi.pay('txid/1');
    expect(seen.at(-1)).toEqual({ path: '/__control/charges/txid%2F1/pay', body: { client_id: 'Client_Id_1' } });
    const stripe = new EmulatorControl('stripe', controlUrl, { secret_key: 'sk_test_never_sent' }, 1_000);
    await stripe.pay('pi_1');
    expect(seen.at(-1)).toEqual({ path: '/__control/charges/pi_1/pay', body: {} });
    await Promise.all([efi.close(), stripe.close()]);
  });

  it('answers an unknown charge as not_found and one no longer payable as rejected', async () => {
    const control = new EmulatorControl('woovi', controlUrl, { app_id: 'app' }, 1_000);
    status = 404;
    await expect(control.pay('x')).rejects.toMatchObject({ kind: 'not_found' });
    status = 409;
    await expect(control.pay('x')).rejects.toMatchObject({ kind: 'rejected', httpStatus: 409 });
    status = 200;
    await control.close();
  });

  it('sets a webhook as the owner would in the dashboard', async () => {
    const control = new EmulatorControl('pagarme', controlUrl, { secret_key: 'sk_test_1' }, 1_000);
    await control.configureWebhook('https://hooks/x?hmac=s', ['charge.paid']);
    expect(seen.at(-1)).toEqual({ path: '/__control/webhook', body: { account: 'sk_test_1', url: 'https://hooks/x?hmac=s', events: ['charge.paid'] } });
    await control.close();
  });

  it('approves a recurrence by paying its approval charge when it has one, else at the emulator’s approve route', async () => {
    const efi = new EmulatorControl('efi', controlUrl, { client_id: 'c1' }, 1_000);
    await efi.approveRecurrence('RR1', 'cob1');
    expect(seen.at(-1)).toEqual({ path: '/__control/charges/cob1/pay', body: { client_id: 'c1' } });
    await efi.approveRecurrence('RR1', undefined);
    expect(seen.at(-1)).toEqual({ path: '/__control/recs/RR1/approve', body: { client_id: 'c1' } });
    const woovi = new EmulatorControl('woovi', controlUrl, { app_id: 'app' }, 1_000);
    await woovi.approveRecurrence('sub/1', undefined);
    expect(seen.at(-1)).toEqual({ path: '/__control/subscriptions/sub%2F1/approve', body: { account: 'app' } });
    const asaas = new EmulatorControl('asaas', controlUrl, { api_key: 'k' }, 1_000);
    await expect(asaas.approveRecurrence('auth1', undefined)).rejects.toMatchObject({ kind: 'rejected' });
    status = 409;
    await expect(efi.approveRecurrence('RR1', undefined)).rejects.toMatchObject({ kind: 'rejected', httpStatus: 409 });
    status = 200;
    await Promise.all([efi.close(), woovi.close(), asaas.close()]);
  });

  it('debits or fails a cycle charge at each emulator’s route, and says when the emulator would not debit it now', async () => {
    const efi = new EmulatorControl('efi', controlUrl, { client_id: 'c1' }, 1_000);
    await efi.settleCycle('tx1', 'paid');
    expect(seen.at(-1)).toEqual({ path: '/__control/cobr/tx1/pay', body: { client_id: 'c1' } });
    await efi.settleCycle('tx1', 'failed');
    expect(seen.at(-1)).toEqual({ path: '/__control/cobr/tx1/fail', body: { client_id: 'c1' } });
    const asaas = new EmulatorControl('asaas', controlUrl, { api_key: 'k' }, 1_000);
    await asaas.settleCycle('pay_1', 'failed');
    expect(seen.at(-1)).toEqual({ path: '/__control/charges/pay_1/fail', body: { account: 'k' } });
    const woovi = new EmulatorControl('woovi', controlUrl, { app_id: 'app' }, 1_000);
    await woovi.settleCycle('sub-1', 'paid');
    expect(seen.at(-1)).toEqual({ path: '/__control/charges/sub-1/pay', body: { account: 'app' } });
    const stripe = new EmulatorControl('stripe', controlUrl, {}, 1_000);
    await expect(stripe.settleCycle('pi_1', 'paid')).rejects.toMatchObject({ kind: 'rejected' });
    status = 409;
    const early = await efi.settleCycle('tx1', 'paid').catch((error: unknown) => error);
    expect(early).toBeInstanceOf(CycleNotDebitableError);
    expect(early).toMatchObject({ reason: 'the debit is scheduled for 2026-12-10' });
    status = 404;
    await expect(woovi.settleCycle('x', 'failed')).rejects.toMatchObject({ kind: 'not_found' });
    status = 200;
    await Promise.all([efi.close(), asaas.close(), woovi.close(), stripe.close()]);
  });
});
