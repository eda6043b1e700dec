import { status } from '@grpc/grpc-js';
import { RpcError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { startApp, type RunningApp } from '../testing/http-harness';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('GET /qr/:paymentId.png', () => {
  let app: RunningApp;
  let clients: FakeClients;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  it('renders the Pix text of an open payment as a cacheable PNG, without a key', async () => {
    const getPaymentQrCode = jest.fn(async () => ({ qr_code: '00020101021226830014br.gov.bcb.pix2561qrcodes.example/v2/abc5204000053039865802BR6304ABCD' }));
    clients.payments.getPaymentQrCode = getPaymentQrCode;
    const answer = await app.request('GET', '/qr/pay_01jabc.png');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    expect(answer.headers.get('cache-control')).toBe('public, max-age=300');
    expect(answer.bytes.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // Width from the IHDR chunk: 400 pixels.
    expect(answer.bytes.readUInt32BE(16)).toBe(400);
    expect(getPaymentQrCode).toHaveBeenCalledWith({ payment_id: 'pay_01jabc' }, expect.objectContaining({ requestId: expect.any(String) }));
  });

  it('answers 404 in the spec body for an unknown or closed payment', async () => {
    clients.payments.getPaymentQrCode = async () => {
      throw new RpcError('not_found', status.NOT_FOUND, {});
    };
    const unknown = await app.request('GET', '/qr/pay_nope.png');
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toMatchObject({ code: 'not_found', type: 'invalid_request_error' });
    expect(unknown.headers.get('cache-control')).toBe('no-store');

    clients.payments.getPaymentQrCode = async () => ({ qr_code: '' });
    expect((await app.request('GET', '/qr/pay_paid.png')).status).toBe(404);
  });

  it('answers 404 for an id that cannot exist, without asking the payments service', async () => {
    const getPaymentQrCode = jest.fn();
    clients.payments.getPaymentQrCode = getPaymentQrCode;
    expect((await app.request('GET', `/qr/${'x'.repeat(101)}.png`)).status).toBe(404);
    expect(getPaymentQrCode).not.toHaveBeenCalled();
  });
});
