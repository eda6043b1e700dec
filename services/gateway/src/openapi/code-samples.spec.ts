import { execFileSync } from 'node:child_process';
import { buildOpenApiDocument } from './openapi.document';
import { literal, NOT_IN_SDK, SDK_METHODS, SDK_PACKAGE, type CodeSample } from './code-samples';

type Json = Record<string, any>;

const SERVER = 'https://api.loja.test';
const doc = buildOpenApiDocument({ serverUrl: SERVER }) as unknown as Json;
const operations = Object.entries(doc['paths'] as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json, id: (op as Json)['operationId'] as string })),
);
const samplesOf = (op: Json): CodeSample[] => op['x-codeSamples'] ?? [];
const byId = (id: string) => operations.find((operation) => operation.id === id)!;

// Running each SDK sample against the SDK itself (it must send this operation's method and path) is
// tools/e2e/src/api-reference.e2e.spec.ts; here, the samples as text.

describe('x-codeSamples of the OpenAPI document', () => {
  it('gives every operation a curl sample, and an SDK sample exactly when the SDK wraps it', () => {
    const missing = operations.filter(({ op }) => !samplesOf(op).some((sample) => sample.label === 'curl'));
    expect(missing.map(({ id }) => id)).toEqual([]);
    for (const { op, id } of operations) {
      const sdk = samplesOf(op).filter((sample) => sample.label === SDK_PACKAGE);
      expect([id, sdk.length]).toEqual([id, SDK_METHODS[id] ? 1 : 0]);
    }
  });

  it('classifies every operation once: called through the SDK, or named with the reason it is not', () => {
    const ids = operations.map(({ id }) => id);
    expect(ids.filter((id) => !SDK_METHODS[id] && !NOT_IN_SDK[id])).toEqual([]);
    expect(ids.filter((id) => SDK_METHODS[id] && NOT_IN_SDK[id])).toEqual([]);
    expect([...Object.keys(SDK_METHODS), ...Object.keys(NOT_IN_SDK)].filter((id) => !ids.includes(id))).toEqual([]);
  });

  it('writes the create-payment samples from the document: path, key, Idempotency-Key and the example body', () => {
    const { op } = byId('createPayment');
    const [curl, sdk] = samplesOf(op);
    const body = op['requestBody']['content']['application/json']['schema'];
    const example = doc['components']['schemas'][body['$ref'].split('/').pop()]['example'];
    expect(curl).toMatchObject({ lang: 'Shell', label: 'curl' });
    expect(curl!.source).toContain(`curl -X POST '${SERVER}/v1/payments'`);
    expect(curl!.source).toContain('-H "Authorization: Bearer $ORQUESTRA_TEST_KEY"');
    expect(curl!.source).toContain("-H 'Idempotency-Key: pedido-10293'");
    expect(JSON.parse(/-d '([\s\S]*)'$/.exec(curl!.source)![1]!)).toEqual(example);
    expect(sdk).toMatchObject({ lang: 'JavaScript', label: SDK_PACKAGE });
    expect(sdk!.source).toContain(`import { Orquestra } from '${SDK_PACKAGE}';`);
    expect(sdk!.source).toContain(`baseUrl: '${SERVER}'`);
    const call = /const payment = await orquestra\.payments\.create\(([\s\S]*)\);$/.exec(sdk!.source);
    expect(call).not.toBeNull();
    expect(new Function(`return (${call![1]});`)()).toEqual(example);
  });

  it('puts the path parameters in, leaves the key out of public routes, and lists with a limit', () => {
    const refund = samplesOf(byId('refundPayment').op);
    expect(refund[0]!.source).toContain(`'${SERVER}/v1/payments/pay_01j9z0k3x7m2q8r4t6v8w0y2a4/refund'`);
    expect(refund[1]!.source).toMatch(/orquestra\.payments\.refund\('pay_01j9z0k3x7m2q8r4t6v8w0y2a4', \{/);
    expect(samplesOf(byId('listPayments').op)[0]!.source).toBe(`curl '${SERVER}/v1/payments?limit=10' \\\n  -H "Authorization: Bearer $ORQUESTRA_TEST_KEY"`);
    expect(samplesOf(byId('listPayments').op)[1]!.source).toContain('const page = await orquestra.payments.list({ limit: 10 });');
    expect(samplesOf(byId('health').op)[0]!.source).toBe(`curl '${SERVER}/healthz'`);
    expect(samplesOf(byId('reorderRoutingRules').op)[1]!.source).toMatch(/orquestra\.routingRules\.reorder\(\[/);
  });

  it('sends every required field of the request body (form bodies too)', () => {
    const incomplete: string[] = [];
    for (const { op, id } of operations) {
      const [type, media] = Object.entries((op['requestBody']?.['content'] ?? {}) as Json)[0] ?? [];
      if (!type || type === '*/*') continue;
      const ref = (media as Json)['schema']['$ref'] as string | undefined;
      const schema = ref ? doc['components']['schemas'][ref.split('/').pop()!] : (media as Json)['schema'];
      const curl = samplesOf(op)[0]!.source;
      const sent =
        type === 'application/json'
          ? Object.keys(JSON.parse(/-d '([\s\S]*)'$/.exec(curl)![1]!.replace(/'\\''/g, "'")))
          : [...new URLSearchParams(/--data '(.*)'$/.exec(curl)![1]!).keys()];
      const missing = ((schema['required'] ?? []) as string[]).filter((field) => !sent.includes(field));
      if (missing.length > 0) incomplete.push(`${id}: ${missing.join(', ')}`);
    }
    expect(incomplete).toEqual([]);
    expect(samplesOf(byId('choosePaymentMethod').op)[0]!.source).toContain("--data 'method=pix'");
  });

  it('writes curl commands a shell runs as written (quotes in the body survive)', () => {
    for (const { op, id } of operations.filter(({ op }) => op['requestBody']?.['content']?.['application/json'])) {
      const curl = samplesOf(op)[0]!.source;
      // The shell's own parse of the -d argument must give back JSON.
      const script = `set -- ${curl.replace(/^curl /, '').replace(/\\\n/g, ' ')}; while [ "$1" != "-d" ]; do shift; done; printf '%s' "$2"`;
      const data = execFileSync('bash', ['-c', script], { env: { ...process.env, ORQUESTRA_TEST_KEY: 'svc_test_x' } }).toString();
      expect([id, typeof JSON.parse(data)]).toEqual([id, 'object']);
    }
  });
});

describe('literal (the SDK sample arguments)', () => {
  it.each([
    [{ a: 1, 'b-c': [1, 'x'], d: { e: null, f: true } }],
    [{ text: "it's \\ a \"quote\"\nnew line", empty: {}, list: [], nested: [{ k: 'v' }] }],
    [['a', 'b']],
    ['plain'],
  ])('is JavaScript that evaluates to the same value: %j', (value) => {
    expect(new Function(`return (${literal(value)});`)()).toEqual(value);
  });
});
