import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from '../client';
import { ApiError } from '../errors';

// A real HTTP server plays the API; the test reads the requests the resource sends.

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: string;
}

const CSV = 'kind,provider_account_id,payment_id,provider_payment_id,field,ours,theirs,fix_result,created_at\r\nstatus_difference,pa_1,pay_1,x,status,pending,paid,,2026-12-01T12:00:05.000Z\r\n';

let server: Server;
let orquestra: Orquestra;
let seen: Seen[] = [];
let pages: Array<{ data: Array<{ id: string }>; has_more: boolean }> = [];
/** Answers to POST /v1/reconciliation-runs before the normal 201 (status codes). */
let createFailures: number[] = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'];
      seen.push({ method: req.method ?? '', url: req.url ?? '', idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined, body });
      const url = req.url ?? '';
      const creating = req.method === 'POST' && url === '/v1/reconciliation-runs';
      const failure = creating ? createFailures.shift() : undefined;
      if (failure !== undefined) {
        res.writeHead(failure, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'api_error', message: 'Serviço indisponível.', code: 'service_unavailable', param: null } }));
        return;
      }
      if (url.includes('/findings.csv')) {
        res.writeHead(200, { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="f.csv"' });
        res.end(CSV);
        return;
      }
      const listing = req.method === 'GET' && (url.startsWith('/v1/reconciliation-runs?') || url === '/v1/reconciliation-runs' || url.includes('/findings'));
      const answer = listing ? { object: 'list', ...(pages.shift() ?? { data: [], has_more: false }) } : { id: 'rec_1', object: 'reconciliation_run' };
      res.writeHead(creating ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  orquestra = new Orquestra({ apiKey: 'svc_test_sdk', baseUrl, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 } });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  pages = [];
  createFailures = [];
});

describe('reconciliation runs resource', () => {
  it('creates with the body as given and no Idempotency-Key, so a lost answer is not replayed into a second run', async () => {
    expect(await orquestra.reconciliationRuns.create({ start: '2026-11-01', end: '2026-11-30', fix: true })).toEqual({ id: 'rec_1', object: 'reconciliation_run' });
    expect(seen.map(({ method, url }) => `${method} ${url}`)).toEqual(['POST /v1/reconciliation-runs']);
    expect(seen[0]?.idempotencyKey).toBeUndefined();
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ start: '2026-11-01', end: '2026-11-30', fix: true });

    seen = [];
    createFailures = [503];
    await expect(orquestra.reconciliationRuns.create({ start: '2026-11-01', end: '2026-11-30' })).rejects.toBeInstanceOf(ApiError);
    expect(seen).toHaveLength(1);
  });

  it('retrieves by id, escaping it, and lists one page or every page', async () => {
    await orquestra.reconciliationRuns.retrieve('rec/1');
    expect(seen[0]?.url).toBe('/v1/reconciliation-runs/rec%2F1');

    seen = [];
    pages = [
      { data: [{ id: 'rec_3' }, { id: 'rec_2' }], has_more: true },
      { data: [{ id: 'rec_1' }], has_more: false },
    ];
    const ids: string[] = [];
    for await (const run of orquestra.reconciliationRuns.listAll({ limit: 2 })) ids.push(run.id);
    expect(ids).toEqual(['rec_3', 'rec_2', 'rec_1']);
    expect(seen.map(({ url }) => url)).toEqual(['/v1/reconciliation-runs?limit=2', '/v1/reconciliation-runs?limit=2&starting_after=rec_2']);

    seen = [];
    await orquestra.reconciliationRuns.list({ starting_after: 'rec_9' });
    expect(seen[0]?.url).toBe('/v1/reconciliation-runs?starting_after=rec_9');
  });

  it('lists the findings of a run, one page with kind or every page', async () => {
    await orquestra.reconciliationRuns.listFindings('rec_1', { kind: 'status_difference', limit: 50 });
    expect(seen[0]?.url).toBe('/v1/reconciliation-runs/rec_1/findings?kind=status_difference&limit=50');

    seen = [];
    pages = [
      { data: [{ id: 'rcf_1' }], has_more: true },
      { data: [{ id: 'rcf_2' }], has_more: false },
    ];
    const ids: string[] = [];
    for await (const finding of orquestra.reconciliationRuns.listAllFindings('rec_1')) ids.push(finding.id);
    expect(ids).toEqual(['rcf_1', 'rcf_2']);
    expect(seen.map(({ url }) => url)).toEqual(['/v1/reconciliation-runs/rec_1/findings', '/v1/reconciliation-runs/rec_1/findings?starting_after=rcf_1']);
  });

  it('downloads the findings CSV as text', async () => {
    expect(await orquestra.reconciliationRuns.findingsCsv('rec_1', { kind: 'status_difference' })).toBe(CSV);
    expect(seen[0]?.url).toBe('/v1/reconciliation-runs/rec_1/findings.csv?kind=status_difference');
  });
});
