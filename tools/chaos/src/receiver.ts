import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The merchant's webhook receiver of a chaos run (loopback): records the event id of every
 * delivery (the Service-Event-Id header, else the body's id) and answers 200.
 */
export async function startReceiver(): Promise<{ url: string; delivered: string[]; close(): Promise<void> }> {
  const delivered: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let id = String(req.headers['service-event-id'] ?? '');
      if (!id) {
        try {
          id = String((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown }).id ?? '');
        } catch {
          // not JSON: recorded as an empty id, which no event has
        }
      }
      delivered.push(id);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    delivered,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
