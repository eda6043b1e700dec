import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { OPERATIONS, OPERATIONS_OUTSIDE_SDK, Orquestra, type ClientOptions } from '@orquestra/node';
import { ARTIFACTS, launchChromium } from './support/dashboard';
import { stackInfo } from './support/stack-info';

// The API reference at /docs (Scalar, served by the gateway) in Debian's Chromium against the
// running stack: it renders the operations, its search finds one, it shows the curl and SDK
// samples, no request leaves the machine and the CSP is never violated. Then every SDK sample of
// the document runs against the SDK itself, which must send that operation's request.

type Json = Record<string, any>;
interface Sample {
  lang: string;
  label: string;
  source: string;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

async function fetchDocument(): Promise<Json> {
  const answer = await fetch(`${stackInfo().baseUrl}/v1/openapi.json`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as Json;
}

function operationsOf(document: Json): Array<{ method: string; path: string; op: Json }> {
  return Object.entries(document['paths'] as Json).flatMap(([pathName, item]) =>
    METHODS.filter((method) => (item as Json)[method]).map((method) => ({ method, path: pathName, op: (item as Json)[method] as Json })),
  );
}

describe('API reference at /docs (Chromium)', () => {
  let browser: Browser;
  let page: Page;
  const requests: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Every CSP violation the page sees, reported by the browser itself.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
    });
    page.on('request', (request) => requests.push(request.url()));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${stackInfo().baseUrl}/docs`);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the operations of the document, grouped by tag', async () => {
    await page.getByText('Cria um pagamento').first().waitFor({ timeout: 30_000 });
    for (const tag of ['Payments', 'Subscriptions', 'Webhooks', 'Meta']) await expect(page.getByText(tag, { exact: true }).first().isVisible()).resolves.toBe(true);
    await page.getByText('Cria um pagamento').first().click();
    await page.waitForURL(/#tag\/payments\/POST\/v1\/payments$/);
    await page.getByRole('heading', { name: 'Cria um pagamento' }).first().waitFor();
  });

  it('shows the curl sample and the @orquestra/node sample of the operation', async () => {
    await page.getByTestId('client-picker').first().click();
    await page.getByRole('option', { name: 'curl', exact: true }).click();
    const curl = page.locator('pre, code').filter({ hasText: "curl -X POST '" }).first();
    await curl.waitFor();
    expect(await curl.innerText()).toContain('Authorization: Bearer $ORQUESTRA_TEST_KEY');

    await page.getByTestId('client-picker').first().click();
    await page.getByRole('option', { name: '@orquestra/node', exact: true }).click();
    const sdk = page.locator('pre, code').filter({ hasText: 'orquestra.payments.create(' }).first();
    await sdk.waitFor();
    expect(await sdk.innerText()).toContain("import { Orquestra } from '@orquestra/node'");
    await page.screenshot({ path: path.join(ARTIFACTS, 'api-reference-create-payment.png') });
  });

  it('finds an operation with the search (Ctrl+K) and opens it', async () => {
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Buscar' }).locator('input').waitFor();
    await page.keyboard.type('reembolsa');
    const result = page.getByRole('option').filter({ hasText: 'Reembolsa um pagamento pago' }).first();
    await result.waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, 'api-reference-search.png') });
    await result.click();
    await page.waitForURL(/#tag\/payments\/POST\/v1\/payments\/\{id\}\/refund$/);
    await page.getByRole('heading', { name: /Reembolsa um pagamento pago/ }).first().waitFor();
  });

  it('made no request outside the gateway and broke no CSP rule', async () => {
    const origin = new URL(stackInfo().baseUrl).origin;
    const outside = requests.filter((url) => /^(https?|wss?):/.test(url) && new URL(url).origin !== origin);
    expect(outside).toEqual([]);
    expect(requests).toEqual(expect.arrayContaining([`${origin}/docs/assets/api-reference.js`, `${origin}/v1/openapi.json`]));
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    expect(consoleErrors.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
  });
});

describe('SDK samples of the OpenAPI document', () => {
  let recorder: Server;
  let recorderUrl: string;
  const received: Array<{ method: string; path: string; body: unknown }> = [];

  beforeAll(async () => {
    // Answers every request like the API would in shape (a JSON object; CSV for the findings
    // file), and keeps what the SDK sent.
    recorder = createServer((request: IncomingMessage, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        received.push({ method: request.method ?? '', path: (request.url ?? '').split('?')[0]!, body: text ? JSON.parse(text) : undefined });
        if (request.url?.includes('.csv')) {
          response.writeHead(200, { 'content-type': 'text/csv' }).end('kind\n');
        } else {
          response.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[],"has_more":false}');
        }
      });
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => recorder.close(() => resolve())));

  it("calls, for each operation, the SDK method the SDK's own table names (libs/sdk operations.ts)", async () => {
    const document = await fetchDocument();
    const mismatches: string[] = [];
    for (const { method, path: pathName, op } of operationsOf(document)) {
      const key = `${method.toUpperCase()} ${pathName}`;
      const sample = ((op['x-codeSamples'] ?? []) as Sample[]).find((entry) => entry.label === '@orquestra/node');
      const called = sample && /await orquestra\.([\w.]+)\(/.exec(sample.source)?.[1];
      const entry = OPERATIONS.find((operation) => operation.method === method.toUpperCase() && operation.path === pathName);
      if (entry ? called !== entry.sdk[0] : called !== undefined) mismatches.push(`${key}: sample calls ${called ?? 'nothing'}, SDK table says ${entry?.sdk[0] ?? 'none'}`);
      if (!entry && !OPERATIONS_OUTSIDE_SDK[key]) mismatches.push(`${key}: in neither SDK table`);
    }
    expect(mismatches).toEqual([]);
  });

  it('runs every SDK sample: it sends its operation (method, path with the example ids) and the example body', async () => {
    const document = await fetchDocument();
    // The sample as written, with the client pointed at the recorder instead of the document's server.
    class RecordedOrquestra extends Orquestra {
      constructor(options: ClientOptions) {
        expect(options.baseUrl).toBe(document['servers'][0].url);
        super({ ...options, baseUrl: recorderUrl, retry: { maxRetries: 0 } });
      }
    }
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
    let ran = 0;
    for (const { method, path: pathName, op } of operationsOf(document)) {
      const sample = ((op['x-codeSamples'] ?? []) as Sample[]).find((entry) => entry.label === '@orquestra/node');
      if (!sample) continue;
      const body = sample.source.replace(/^import .*$/m, '');
      received.length = 0;
      await new AsyncFunction('Orquestra', 'process', body)(RecordedOrquestra, { env: { ORQUESTRA_TEST_KEY: 'svc_test_sample' } });
      const expectedPath = pathName.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const parameter = (op['parameters'] as Json[]).find((p) => p['in'] === 'path' && p['name'] === name)!;
        return encodeURIComponent(parameter['schema']['example']);
      });
      expect([op['operationId'], received.map((r) => `${r.method} ${r.path}`)]).toEqual([op['operationId'], [`${method.toUpperCase()} ${expectedPath}`]]);
      const curl = ((op['x-codeSamples'] ?? []) as Sample[]).find((entry) => entry.label === 'curl')!;
      const curlBody = /-d '([\s\S]*)'$/.exec(curl.source)?.[1];
      if (curlBody) expect([op['operationId'], received[0]!.body]).toEqual([op['operationId'], JSON.parse(curlBody.replace(/'\\''/g, "'"))]);
      ran += 1;
    }
    expect(ran).toBeGreaterThan(75);
  });
});
