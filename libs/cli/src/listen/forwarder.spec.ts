import { createServer } from 'node:net';
import { constructEvent, SignatureVerificationError, type Event } from '@orquestra/node';
import { startServer } from '../testing/api-server';
import { deliveryBody, forwardEvent, signatureHeader } from './forwarder';

const SECRET = 'whsec_cli_test_secret';
const EVENT: Event = { id: 'evt_01', object: 'event', type: 'payment.succeeded', created: 1_790_000_000, data: { object: { id: 'pay_1', amount: 1990 } } };

/** A port nothing listens on (bound, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('forwarding an event as a webhook delivery', () => {
  it('signs it so the SDK verification a merchant uses accepts it, with the delivery headers', async () => {
    const receiver = await startServer(() => ({ status: 200 }));
    try {
      const result = await forwardEvent(EVENT, { url: `${receiver.url}/webhooks`, secret: SECRET, signal: new AbortController().signal });
      expect(result).toEqual({ status: 200, tries: 1 });
      const [request] = receiver.requests;
      expect(request).toMatchObject({ method: 'POST', path: '/webhooks' });
      expect(request!.headers).toMatchObject({ 'content-type': 'application/json', 'service-event-id': 'evt_01', 'service-event-type': 'payment.succeeded' });
      const verified = constructEvent(request!.body, request!.headers['service-signature'] as string, SECRET);
      expect(verified).toEqual(EVENT);
      expect(() => constructEvent(request!.body, request!.headers['service-signature'] as string, 'whsec_other')).toThrow(SignatureVerificationError);
    } finally {
      await receiver.close();
    }
  });

  it('uses the body shape and header scheme of a real delivery: t=<seconds>,v1=<hex HMAC of "t.body">', () => {
    expect(deliveryBody(EVENT)).toBe(JSON.stringify({ id: 'evt_01', object: 'event', type: 'payment.succeeded', created: 1_790_000_000, data: EVENT.data }));
    // HMAC-SHA256("whsec_cli_test_secret", "1790000000.{}"), computed independently with openssl.
    expect(signatureHeader(SECRET, '{}', 1_790_000_000)).toBe('t=1790000000,v1=fb807bf55315355e3dbbc1e8424cdd59b4d7ebc568b60f2d6e294745d897ee50');
  });

  it('retries with doubling pauses while nothing answers, then delivers once the receiver is up', async () => {
    const port = await freePort();
    const retries: Array<[number, number, string]> = [];
    let receiver: Awaited<ReturnType<typeof startServer>> | undefined;
    const result = await forwardEvent(EVENT, {
      url: `http://127.0.0.1:${port}/hook`,
      secret: SECRET,
      signal: new AbortController().signal,
      initialDelayMs: 20,
      onRetry: (attempt, delayMs, reason) => retries.push([attempt, delayMs, reason]),
      sleep: async (ms) => {
        if (retries.length === 2) receiver = await startServer(() => ({ status: 204 }), port);
        await new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    try {
      expect(retries).toEqual([
        [1, 20, 'ECONNREFUSED'],
        [2, 40, 'ECONNREFUSED'],
      ]);
      expect(result).toEqual({ status: 204, tries: 3 });
      expect(receiver!.requests).toHaveLength(1);
    } finally {
      await receiver?.close();
    }
  });

  it('takes any HTTP answer as final (a 500 is printed, not retried) and gives up after maxTries when nothing answers', async () => {
    const failing = await startServer(() => ({ status: 500 }));
    try {
      expect(await forwardEvent(EVENT, { url: failing.url, secret: SECRET, signal: new AbortController().signal })).toEqual({ status: 500, tries: 1 });
      expect(failing.requests).toHaveLength(1);
    } finally {
      await failing.close();
    }
    const port = await freePort();
    const result = await forwardEvent(EVENT, { url: `http://127.0.0.1:${port}`, secret: SECRET, signal: new AbortController().signal, maxTries: 3, initialDelayMs: 1 });
    expect(result).toEqual({ error: 'ECONNREFUSED', tries: 3 });
  });
});
