import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender } from './webhook-sender';

describe('WebhookSender', () => {
  let server: Server;
  let port = 0;
  let hits = 0;
  const sender = new WebhookSender(2_000);

  beforeAll(async () => {
    server = createServer((_req, res) => {
      hits += 1;
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await sender.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('delivers to the developer machine in test mode', async () => {
    const result = await sender.send(`http://localhost:${port}/hook`, '{}', {}, 'test');
    expect(result).toMatchObject({ status_code: 200, error: '' });
  });

  it('never connects to an internal address in live mode, even behind a host name (SSRF, DNS rebinding)', async () => {
    const before = hits;
    // "localhost" is a name: it passes a literal-address check but resolves to 127.0.0.1.
    const result = await sender.send(`http://localhost:${port}/hook`, '{}', {}, 'live');
    expect(result.status_code).toBe(0);
    expect(result.error).toMatch(/internal address/);
    expect(hits).toBe(before);
  });
});
