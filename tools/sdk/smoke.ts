// Compiled by tools/sdk/pack-check.sh inside a scratch project against the INSTALLED tarball of
// @orquestra/node, once as CommonJS and once as an ES module (tsc, strict, module nodenext), then
// run with node. It checks what a merchant's code relies on from the built package: the exports,
// a real HTTP round trip (lastResponse, per-request options, for-await pagination) against a local
// server, and webhook verification of a header signed by the notifications service's own signer
// (libs/platform, passed in through the environment).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  OPERATIONS,
  Orquestra,
  RequestAbortedError,
  SDK_VERSION,
  SignatureVerificationError,
  constructEvent,
  type Payment,
  type RequestOptions,
} from '@orquestra/node';

function check(condition: unknown, what: string): void {
  if (!condition) throw new Error(`pack-check smoke: ${what}`);
}

async function main(): Promise<void> {
  const body = process.env['SMOKE_WEBHOOK_BODY'] ?? '';
  const header = process.env['SMOKE_WEBHOOK_SIGNATURE'] ?? '';
  const secret = process.env['SMOKE_WEBHOOK_SECRET'] ?? '';
  check(body && header && secret, 'SMOKE_WEBHOOK_BODY, SMOKE_WEBHOOK_SIGNATURE and SMOKE_WEBHOOK_SECRET are set');

  // Webhooks: the platform signer's header verifies; another secret or a changed body does not.
  const event = constructEvent<Payment>(body, header, secret);
  check(event.type === 'payment.succeeded' && event.data.object?.id === 'pay_smoke', 'constructEvent parses the signed event');
  for (const [rawBody, key] of [[body, 'whsec_wrong'], [body.replace('pay_smoke', 'pay_other'), secret]] as const) {
    let refused: unknown;
    try {
      constructEvent(rawBody, header, key);
    } catch (error) {
      refused = error;
    }
    check(refused instanceof SignatureVerificationError, 'a wrong secret or body is refused');
  }
  check(typeof Orquestra.webhooks.generateTestHeader === 'function', 'Orquestra.webhooks is exported');

  // HTTP: two pages over a real socket.
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers['authorization']}`);
    const second = (req.url ?? '').includes('starting_after=pay_2');
    const page = second ? { object: 'list', data: [{ id: 'pay_1' }], has_more: false } : { object: 'list', data: [{ id: 'pay_3' }, { id: 'pay_2' }], has_more: true };
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req_smoke_${seen.length}` }).end(JSON.stringify(page));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const orquestra = new Orquestra({ apiKey: 'svc_test_smoke', baseUrl });
    const options: RequestOptions = { timeout: 5_000, apiKey: 'svc_test_other' };
    const first = await orquestra.payments.list({ limit: 2 }, options);
    check(first.lastResponse.requestId === 'req_smoke_1' && first.lastResponse.statusCode === 200, 'lastResponse carries the request id and status');
    check(!JSON.stringify(first).includes('lastResponse'), 'lastResponse stays out of JSON');
    const ids: string[] = [];
    for await (const payment of orquestra.payments.list({ limit: 2 }, options)) ids.push(payment.id);
    check(ids.join() === 'pay_3,pay_2,pay_1', `for await walks every page (got ${ids.join()})`);
    check(seen.every((line) => line.endsWith('Bearer svc_test_other')), 'the per-request apiKey is sent');
    let aborted: unknown;
    try {
      await orquestra.payments.retrieve('pay_1', { signal: AbortSignal.abort() });
    } catch (error) {
      aborted = error;
    }
    check(aborted instanceof RequestAbortedError, 'an aborted signal rejects with RequestAbortedError');
  } finally {
    server.close();
  }
  console.log(JSON.stringify({ ok: true, version: SDK_VERSION, module: typeof require === 'function' ? 'commonjs' : 'esm', operations: OPERATIONS.length }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
