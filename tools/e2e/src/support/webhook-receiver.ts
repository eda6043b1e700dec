import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  rawBody: string;
  event: { id: string; object: string; type: string; created: number; data: { object: Record<string, any> } };
  signature: string;
  eventIdHeader: string;
  /** W3C trace context the sender propagated, if any. */
  traceparent: string;
  at: number;
}

export type Answer = (req: IncomingMessage, res: ServerResponse, received: ReceivedWebhook) => void;

/**
 * A merchant's webhook receiver on 127.0.0.1: records every POST (raw body and headers) and answers
 * as the path's handler says (200 by default).
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly answers = new Map<string, Answer>();
  private server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let event: ReceivedWebhook['event'];
        try {
          event = JSON.parse(rawBody) as ReceivedWebhook['event'];
        } catch {
          res.writeHead(400).end();
          return;
        }
        const received: ReceivedWebhook = {
          path: req.url ?? '',
          rawBody,
          event,
          signature: String(req.headers['service-signature'] ?? ''),
          eventIdHeader: String(req.headers['service-event-id'] ?? ''),
          traceparent: String(req.headers.traceparent ?? ''),
          at: Date.now(),
        };
        this.received.push(received);
        const answer = this.answers.get(received.path) ?? ((_q, r) => void r.writeHead(200).end('ok'));
        answer(req, res, received);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  on(path: string, answer: Answer): void {
    this.answers.set(path, answer);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * An independent check of Service-Signature, written from docs/events.md with node:crypto only
 * (not the code under test): some v1 equals HMAC-SHA256(secret, "<t>.<raw body>") and t is recent.
 */
export function independentlyVerified(rawBody: string, header: string, secret: string, toleranceSec = 300): boolean {
  const pairs = header.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)] as const);
  const t = Number(pairs.find(([k]) => k === 't')?.[1]);
  if (!t || Math.abs(Date.now() / 1000 - t) > toleranceSec) return false;
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(`${t}.${rawBody}`, 'utf8')).digest();
  return pairs.filter(([k]) => k === 'v1').some(([, v]) => {
    const given = Buffer.from(v, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
