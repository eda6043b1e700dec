import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EmulatorControl } from '../../sandbox/emulator-control';
import type { WebhookRegistration, WebhookRequest } from '../provider-adapter';

/**
 * Helpers shared by the adapters' contract tests (an adapter over real HTTP against its emulator).
 * Test-only: nothing in the providers service imports this folder.
 */

/** Polls `probe` until it answers a value (every 25 ms), or fails after `timeoutMs`. */
export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 5_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A local receiver standing in for our webhook intake: records every request as the adapter reads it. */
export interface WebhookRecorder {
  /** Base URL (http://127.0.0.1:<port>); append the intake path. */
  url: string;
  received: WebhookRequest[];
  close(): Promise<void>;
}

export async function startWebhookRecorder(): Promise<WebhookRecorder> {
  const received: WebhookRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://receiver');
      received.push({
        subPath: '',
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        rawBody: Buffer.concat(chunks),
      });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Pays a charge at the provider's emulator the way `POST /payments/{id}/simulate` does
 * (sandbox/emulator-control.ts), as the account with these credentials.
 */
export async function payAtEmulator(provider: string, controlUrl: string, credentials: Record<string, string>, providerPaymentId: string): Promise<void> {
  const control = new EmulatorControl(provider, controlUrl, credentials, 5_000);
  try {
    await control.pay(providerPaymentId);
  } finally {
    await control.close();
  }
}

/**
 * Registers an account's webhook the way connecting it does when the provider has no webhook API
 * (provider-account.service.ts): the adapter names the events, the emulator stands in for the
 * owner pasting the URL in the dashboard.
 */
export async function registerWebhookAtEmulator(
  adapter: { registerWebhook(url: string): Promise<WebhookRegistration> },
  emulator: { provider: string; controlUrl: string; credentials: Record<string, string> },
  url: string,
): Promise<WebhookRegistration> {
  const registration = await adapter.registerWebhook(url);
  const control = new EmulatorControl(emulator.provider, emulator.controlUrl, emulator.credentials, 5_000);
  try {
    await control.configureWebhook(url, registration.events ?? []);
  } finally {
    await control.close();
  }
  return registration;
}
