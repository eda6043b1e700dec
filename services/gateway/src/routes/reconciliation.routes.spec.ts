import { common, type reconciliation } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';
import { saoPauloStartOfDay } from '../schemas/reconciliation.schema';
import { CSV_PAGE_SIZE } from './reconciliation.routes';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const RESTRICTED = { authorization: `Bearer ${RESTRICTED_KEY}` };

function protoRun(overrides: Partial<reconciliation.ReconciliationRun> = {}): reconciliation.ReconciliationRun {
  return {
    id: 'rec_01jrun',
    mode: common.Mode.MODE_TEST,
    status: 'queued',
    start: '2026-11-01T03:00:00.000Z',
    end: '2026-12-01T03:00:00.000Z',
    fix: false,
    accounts: [],
    created_at: '2026-12-01T12:00:00.000Z',
    completed_at: '',
    failure_reason: '',
    ...overrides,
  };
}

function protoAccount(overrides: Partial<reconciliation.AccountReport> = {}): reconciliation.AccountReport {
  return {
    provider_account_id: 'pa_01jasaas',
    provider: 'asaas',
    status: 'done',
    listed: 5,
    matched: 3,
    missing_at_provider: 0,
    unknown_to_orquestra: 1,
    status_differences: 1,
    amount_differences: 0,
    fee_differences: 0,
    refund_differences: 0,
    fixed: 0,
    error: '',
    notes: [],
    ...overrides,
  };
}

function protoFinding(overrides: Partial<reconciliation.Finding> = {}): reconciliation.Finding {
  return {
    id: 'rcf_01jf1',
    run_id: 'rec_01jrun',
    provider_account_id: 'pa_01jasaas',
    kind: 'status_difference',
    payment_id: 'pay_01jp1',
    provider_payment_id: 'pay_asaas_1',
    ours: { status: 'pending' },
    theirs: { status: 'paid' },
    fix_result: '',
    created_at: '2026-12-01T12:00:05.000Z',
    ...overrides,
  };
}

/** A minimal RFC 4180 reader (quoted cells, doubled quotes, CRLF inside quotes), to read back what the route wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  if (cell !== '' || row.length > 0) throw new Error(`CSV does not end with CRLF: ${JSON.stringify(text.slice(-40))}`);
  return rows;
}

const HEADER = ['kind', 'provider_account_id', 'payment_id', 'provider_payment_id', 'field', 'ours', 'theirs', 'fix_result', 'created_at'];

describe('reconciliation routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  describe('POST /v1/reconciliation-runs', () => {
    it('turns São Paulo days into their 00:00 instants ([start, end)) and answers 201 with Location and the public run', async () => {
      const seen: reconciliation.CreateRunRequest[] = [];
      clients.reconciliation.createRun = async (request) => {
        seen.push(request);
        return { run: protoRun() };
      };
      const answer = await app.request('POST', '/v1/reconciliation-runs', { headers: FULL, body: { start: '2026-11-01', end: '2026-11-15' } });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/reconciliation-runs/rec_01jrun');
      expect(answer.json).toEqual({
        id: 'rec_01jrun',
        object: 'reconciliation_run',
        mode: 'test',
        status: 'queued',
        start: '2026-11-01T03:00:00.000Z',
        end: '2026-12-01T03:00:00.000Z',
        fix: false,
        accounts: [],
        created_at: '2026-12-01T12:00:00.000Z',
        completed_at: null,
        failure_reason: null,
      });
      expect(seen).toEqual([
        {
          caller: expect.objectContaining({ merchant_id: 'acct_1', key_id: 'key_full', restricted: false }),
          start: '2026-11-01T03:00:00.000Z',
          end: '2026-11-15T03:00:00.000Z',
          fix: false,
        },
      ]);
    });

    it('takes RFC 3339 date-times with any offset as the instants they are (end not included), and fix: true', async () => {
      const seen: reconciliation.CreateRunRequest[] = [];
      clients.reconciliation.createRun = async (request) => {
        seen.push(request);
        return { run: protoRun({ fix: true }) };
      };
      const answer = await app.request('POST', '/v1/reconciliation-runs', {
        headers: FULL,
        body: { start: '2026-11-01T00:00:00-03:00', end: '2026-11-02T12:30:15.250Z', fix: true },
      });
      expect(answer.status).toBe(201);
      expect(answer.json.fix).toBe(true);
      expect(seen[0]).toMatchObject({ start: '2026-11-01T03:00:00.000Z', end: '2026-11-02T12:30:15.250Z', fix: true });
    });

    it('refuses a bad period or body in Portuguese with the param, without calling the service', async () => {
      let called = false;
      clients.reconciliation.createRun = async () => {
        called = true;
        return { run: protoRun() };
      };
      const cases: Array<[unknown, string, string, RegExp]> = [
        [{ end: '2026-11-15' }, 'parameter_missing', 'start', /start é obrigatório/],
        [{ start: '2026-11-01' }, 'parameter_missing', 'end', /end é obrigatório/],
        [{ start: '01/11/2026', end: '2026-11-15' }, 'parameter_invalid', 'start', /AAAA-MM-DD.*RFC 3339/],
        [{ start: '2026-02-30', end: '2026-03-05' }, 'parameter_invalid', 'start', /AAAA-MM-DD/],
        [{ start: '2026-11-01', end: '2026-11-15T00:00:00' }, 'parameter_invalid', 'end', /com fuso/],
        [{ start: '2026-11-01', end: '2026-11-15T24:00:00Z' }, 'parameter_invalid', 'end', /RFC 3339/],
        [{ start: 20261101, end: '2026-11-15' }, 'parameter_invalid', 'start', /deve ser um texto/],
        [{ start: '2026-11-15', end: '2026-11-01' }, 'parameter_invalid', 'start', /anterior a end/],
        [{ start: '2026-11-01T03:00:00Z', end: '2026-11-01T00:00:00-03:00' }, 'parameter_invalid', 'start', /anterior a end/],
        [{ start: '2026-06-01', end: '2026-09-03' }, 'parameter_invalid', 'end', /no máximo 93 dias/],
        [{ start: '2026-11-01', end: '2099-01-31' }, 'parameter_invalid', 'end', /futuro/],
        [{ start: '2026-11-01', end: '2026-11-15', fix: 'yes' }, 'parameter_invalid', 'fix', /verdadeiro ou falso/],
        [{ start: '2026-11-01', end: '2026-11-15', accounts: ['pa_1'] }, 'parameter_invalid', 'accounts', /não existe/],
      ];
      for (const [body, code, param, message] of cases) {
        const answer = await app.request('POST', '/v1/reconciliation-runs', { headers: FULL, body: body as object });
        expect({ body, status: answer.status, error: answer.json.error }).toEqual({
          body,
          status: 400,
          error: expect.objectContaining({ type: 'invalid_request_error', code, param, message: expect.stringMatching(message) }),
        });
      }
      const empty = await app.request('POST', '/v1/reconciliation-runs', { headers: FULL });
      expect(empty.status).toBe(400);
      expect(empty.json.error).toMatchObject({ code: 'parameter_missing', param: 'start' });
      expect(called).toBe(false);
    });

    it('accepts exactly 93 days, and a period that ends now but not a moment later', async () => {
      clients.reconciliation.createRun = async (request) => ({ run: protoRun({ start: request.start, end: request.end }) });
      const longest = await app.request('POST', '/v1/reconciliation-runs', { headers: FULL, body: { start: '2026-06-01', end: '2026-09-02' } });
      expect(longest.status).toBe(201);
      expect(longest.json).toMatchObject({ start: '2026-06-01T03:00:00.000Z', end: '2026-09-02T03:00:00.000Z' });
      const day = 24 * 60 * 60 * 1000;
      const [start, end] = [new Date(Date.now() - 10 * day).toISOString(), new Date(Date.now() - 1).toISOString()];
      const untilNow = await app.request('POST', '/v1/reconciliation-runs', { headers: FULL, body: { start, end } });
      expect(untilNow.status).toBe(201);
      expect(untilNow.json).toMatchObject({ start, end });
      const later = await app.request('POST', '/v1/reconciliation-runs', { headers: FULL, body: { start, end: new Date(Date.now() + 60_000).toISOString() } });
      expect(later.json.error).toMatchObject({ code: 'parameter_invalid', param: 'end' });
    });

    it('passes the service refusal through with its param', async () => {
      clients.reconciliation.createRun = async () => {
        throw new AppError('parameter_invalid', { param: 'start', message: 'O período é antigo demais para o provedor.' });
      };
      const answer = await app.request('POST', '/v1/reconciliation-runs', { headers: FULL, body: { start: '2026-11-01', end: '2026-11-15' } });
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatchObject({ code: 'parameter_invalid', param: 'start', message: 'O período é antigo demais para o provedor.' });
    });
  });

  describe('São Paulo days', () => {
    it('start at 00:00 São Paulo, found on the zone clock (−3 today, −2 under the old daylight saving, a day whose 00:00 did not exist)', () => {
      expect(saoPauloStartOfDay('2026-11-25').toISOString()).toBe('2026-11-25T03:00:00.000Z');
      expect(saoPauloStartOfDay('2018-12-01').toISOString()).toBe('2018-12-01T02:00:00.000Z');
      // Daylight saving began at 00:00 on 2018-11-04: the day started at 01:00 (−2).
      expect(saoPauloStartOfDay('2018-11-04').toISOString()).toBe('2018-11-04T03:00:00.000Z');
      // It ended at 00:00 on 2019-02-17 (back to 23:00 of the 16th): the 17th began at 03:00Z.
      expect(saoPauloStartOfDay('2019-02-17').toISOString()).toBe('2019-02-17T03:00:00.000Z');
    });
  });

  describe('GET /v1/reconciliation-runs', () => {
    it('passes limit and starting_after and answers the list shape with each account report', async () => {
      const seen: reconciliation.ListRunsRequest[] = [];
      clients.reconciliation.listRuns = async (request) => {
        seen.push(request);
        return {
          runs: [
            protoRun({
              status: 'completed',
              completed_at: '2026-12-01T12:01:00.000Z',
              accounts: [
                protoAccount(),
                protoAccount({ provider_account_id: 'pa_01jefi', provider: 'efi', status: 'failed', error: 'A Efí recusou as credenciais.' }),
                protoAccount({ provider_account_id: 'pa_01jefipix', provider: 'efi', notes: ['Boletos não conferidos.'] }),
              ],
            }),
          ],
          has_more: true,
        };
      };
      const answer = await app.request('GET', '/v1/reconciliation-runs?limit=1&starting_after=rec_01jprev', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(seen[0]).toMatchObject({ limit: 1, starting_after: 'rec_01jprev' });
      expect(answer.json).toMatchObject({ object: 'list', has_more: true });
      expect(answer.json.data[0]).toMatchObject({ status: 'completed', completed_at: '2026-12-01T12:01:00.000Z', failure_reason: null });
      expect(answer.json.data[0].accounts).toEqual([
        {
          provider_account_id: 'pa_01jasaas',
          provider: 'asaas',
          status: 'done',
          listed: 5,
          matched: 3,
          missing_at_provider: 0,
          unknown_to_orquestra: 1,
          status_differences: 1,
          amount_differences: 0,
          fee_differences: 0,
          refund_differences: 0,
          fixed: 0,
          error: null,
          notes: [],
        },
        expect.objectContaining({ provider_account_id: 'pa_01jefi', status: 'failed', error: 'A Efí recusou as credenciais.' }),
        // Compared, with what its list could not tell.
        expect.objectContaining({ provider_account_id: 'pa_01jefipix', status: 'done', error: null, notes: ['Boletos não conferidos.'] }),
      ]);
    });

    it('defaults limit to 10 and refuses a bad one with its param', async () => {
      const seen: reconciliation.ListRunsRequest[] = [];
      clients.reconciliation.listRuns = async (request) => {
        seen.push(request);
        return { runs: [], has_more: false };
      };
      expect((await app.request('GET', '/v1/reconciliation-runs', { headers: FULL })).json).toEqual({ object: 'list', data: [], has_more: false });
      expect(seen[0]).toMatchObject({ limit: 10, starting_after: '' });
      const bad = await app.request('GET', '/v1/reconciliation-runs?limit=500', { headers: FULL });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatchObject({ code: 'parameter_invalid', param: 'limit' });
      const unknown = await app.request('GET', '/v1/reconciliation-runs?status=completed', { headers: FULL });
      expect(unknown.json.error).toMatchObject({ code: 'parameter_invalid', param: 'status' });
      expect(seen).toHaveLength(1);
    });
  });

  describe('GET /v1/reconciliation-runs/{id}', () => {
    it('answers the run, and 404 with param id when the service does not know it', async () => {
      clients.reconciliation.getRun = async ({ run_id }) => {
        if (run_id !== 'rec_01jrun') throw new AppError('not_found', { param: 'run_id', message: 'Não existe a execução rec_other.' });
        return { run: protoRun({ status: 'failed', failure_reason: 'Nenhuma conta neste modo.', completed_at: '2026-12-01T12:00:01.000Z' }) };
      };
      const found = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun', { headers: FULL });
      expect(found.status).toBe(200);
      expect(found.json).toMatchObject({ id: 'rec_01jrun', status: 'failed', failure_reason: 'Nenhuma conta neste modo.' });
      const missing = await app.request('GET', '/v1/reconciliation-runs/rec_other', { headers: FULL });
      expect(missing.status).toBe(404);
      expect(missing.json.error).toMatchObject({ code: 'not_found', param: 'id' });
      const impossible = await app.request('GET', '/v1/reconciliation-runs/rec%20x', { headers: FULL });
      expect(impossible.status).toBe(404);
    });

    it('fails loudly on a status the document does not promise', async () => {
      clients.reconciliation.getRun = async () => ({ run: protoRun({ status: 'paused' }) });
      const answer = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun', { headers: FULL });
      expect(answer.status).toBe(500);
    });
  });

  describe('GET /v1/reconciliation-runs/{id}/findings', () => {
    it('passes kind, limit and starting_after and answers the public findings (empty payment_id and fix_result as null)', async () => {
      const seen: reconciliation.ListFindingsRequest[] = [];
      clients.reconciliation.listFindings = async (request) => {
        seen.push(request);
        return {
          findings: [
            protoFinding({ fix_result: 'Sincronizado: o pagamento agora está succeeded.' }),
            protoFinding({ id: 'rcf_01jf2', kind: 'unknown_to_orquestra', payment_id: '', provider_payment_id: 'pay_dash', ours: {}, theirs: { status: 'paid', amount: '4990' } }),
          ],
          has_more: false,
        };
      };
      const answer = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings?kind=status_difference&limit=2&starting_after=rcf_01jf0', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(seen[0]).toMatchObject({ run_id: 'rec_01jrun', kind: 'status_difference', limit: 2, starting_after: 'rcf_01jf0' });
      expect(answer.json).toEqual({
        object: 'list',
        has_more: false,
        data: [
          {
            id: 'rcf_01jf1',
            object: 'reconciliation_finding',
            run_id: 'rec_01jrun',
            provider_account_id: 'pa_01jasaas',
            kind: 'status_difference',
            payment_id: 'pay_01jp1',
            provider_payment_id: 'pay_asaas_1',
            ours: { status: 'pending' },
            theirs: { status: 'paid' },
            fix_result: 'Sincronizado: o pagamento agora está succeeded.',
            created_at: '2026-12-01T12:00:05.000Z',
          },
          expect.objectContaining({ id: 'rcf_01jf2', kind: 'unknown_to_orquestra', payment_id: null, ours: {}, theirs: { status: 'paid', amount: '4990' }, fix_result: null }),
        ],
      });
    });

    it('refuses an unknown kind with its param, and maps the service 404 to the path id', async () => {
      clients.reconciliation.listFindings = async () => {
        throw new AppError('not_found', { param: 'run_id' });
      };
      const bad = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings?kind=everything', { headers: FULL });
      expect(bad.status).toBe(400);
      expect(bad.json.error).toMatchObject({ code: 'parameter_invalid', param: 'kind', message: expect.stringMatching(/status_difference/) });
      const missing = await app.request('GET', '/v1/reconciliation-runs/rec_01jother/findings', { headers: FULL });
      expect(missing.status).toBe(404);
      expect(missing.json.error).toMatchObject({ code: 'not_found', param: 'id' });
    });

    it('keeps the service answer about a cursor that is not a finding of the run on starting_after', async () => {
      clients.reconciliation.listFindings = async () => {
        throw new AppError('not_found', { param: 'starting_after', message: 'starting_after não é uma divergência desta conciliação (rcf_…).' });
      };
      const answer = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings?starting_after=rcf_other', { headers: FULL });
      expect(answer.status).toBe(404);
      expect(answer.json.error).toMatchObject({ code: 'not_found', param: 'starting_after', message: expect.stringMatching(/starting_after/) });
    });
  });

  describe('GET /v1/reconciliation-runs/{id}/findings.csv', () => {
    beforeEach(() => {
      clients.reconciliation.getRun = async ({ run_id }) => {
        if (run_id !== 'rec_01jrun') throw new AppError('not_found', { param: 'run_id' });
        return { run: protoRun({ status: 'completed' }) };
      };
    });

    it('writes every page as an attachment: a header row, one row per differing field, RFC 4180 quoting', async () => {
      const seen: reconciliation.ListFindingsRequest[] = [];
      const pages: reconciliation.ListFindingsResponse[] = [
        {
          findings: [
            protoFinding({ fix_result: 'Sincronizado: "succeeded", agora.' }),
            protoFinding({ id: 'rcf_01jf2', kind: 'amount_difference', ours: { amount: '5000', fee: '99' }, theirs: { amount: '4990', fee: '99' } }),
          ],
          has_more: true,
        },
        {
          findings: [
            protoFinding({
              id: 'rcf_01jf3',
              kind: 'unknown_to_orquestra',
              payment_id: '',
              provider_payment_id: 'pay_dash,1',
              ours: {},
              theirs: { status: 'paid', description: 'linha 1\r\nlinha 2' },
            }),
          ],
          has_more: false,
        },
      ];
      clients.reconciliation.listFindings = async (request) => {
        seen.push(request);
        return pages.shift()!;
      };
      const answer = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings.csv', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(answer.headers.get('content-disposition')).toBe('attachment; filename="reconciliation-rec_01jrun-findings.csv"');
      expect(seen.map(({ run_id, limit, starting_after, kind }) => ({ run_id, limit, starting_after, kind }))).toEqual([
        { run_id: 'rec_01jrun', limit: CSV_PAGE_SIZE, starting_after: '', kind: '' },
        { run_id: 'rec_01jrun', limit: CSV_PAGE_SIZE, starting_after: 'rcf_01jf2', kind: '' },
      ]);
      expect(answer.text.startsWith(`${HEADER.join(',')}\r\n`)).toBe(true);
      expect(answer.text).toContain('"Sincronizado: ""succeeded"", agora."');
      expect(answer.text).toContain('"pay_dash,1"');
      expect(parseCsv(answer.text)).toEqual([
        HEADER,
        ['status_difference', 'pa_01jasaas', 'pay_01jp1', 'pay_asaas_1', 'status', 'pending', 'paid', 'Sincronizado: "succeeded", agora.', '2026-12-01T12:00:05.000Z'],
        ['amount_difference', 'pa_01jasaas', 'pay_01jp1', 'pay_asaas_1', 'amount', '5000', '4990', '', '2026-12-01T12:00:05.000Z'],
        ['amount_difference', 'pa_01jasaas', 'pay_01jp1', 'pay_asaas_1', 'fee', '99', '99', '', '2026-12-01T12:00:05.000Z'],
        ['unknown_to_orquestra', 'pa_01jasaas', '', 'pay_dash,1', 'description', '', 'linha 1\r\nlinha 2', '', '2026-12-01T12:00:05.000Z'],
        ['unknown_to_orquestra', 'pa_01jasaas', '', 'pay_dash,1', 'status', '', 'paid', '', '2026-12-01T12:00:05.000Z'],
      ]);
    });

    it('neutralizes spreadsheet formulas: a cell starting with = + - @ (or tab, CR) gets a leading apostrophe', async () => {
      clients.reconciliation.listFindings = async () => ({
        findings: [
          protoFinding({
            kind: 'unknown_to_orquestra',
            payment_id: '',
            provider_payment_id: '=HYPERLINK("http://evil.example","x")',
            ours: {},
            theirs: { a: '+55 11 9999', b: '-2+3', c: '@SUM(A1)', d: '\tcmd', e: 'safe=1' },
          }),
        ],
        has_more: false,
      });
      const answer = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings.csv', { headers: FULL });
      const rows = parseCsv(answer.text).slice(1);
      expect(rows.map((row) => [row[3], row[4], row[6]])).toEqual([
        [`'=HYPERLINK("http://evil.example","x")`, 'a', "'+55 11 9999"],
        [`'=HYPERLINK("http://evil.example","x")`, 'b', "'-2+3"],
        [`'=HYPERLINK("http://evil.example","x")`, 'c', "'@SUM(A1)"],
        [`'=HYPERLINK("http://evil.example","x")`, 'd', "'\tcmd"],
        [`'=HYPERLINK("http://evil.example","x")`, 'e', 'safe=1'],
      ]);
      expect(answer.text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    });

    it('streams a long list to the end: every page, in order, each row once', async () => {
      const all = Array.from({ length: 2_500 }, (_, i) =>
        protoFinding({ id: `rcf_${String(i).padStart(5, '0')}`, provider_payment_id: `pi_${i}`, ours: { status: 'pending', note: 'x'.repeat(200) }, theirs: { status: 'paid' } }),
      );
      const cursors: string[] = [];
      clients.reconciliation.listFindings = async ({ starting_after, limit }) => {
        cursors.push(starting_after);
        const from = starting_after ? all.findIndex((finding) => finding.id === starting_after) + 1 : 0;
        return { findings: all.slice(from, from + limit), has_more: from + limit < all.length };
      };
      const answer = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings.csv', { headers: FULL });
      expect(answer.status).toBe(200);
      const rows = parseCsv(answer.text);
      expect(rows).toHaveLength(1 + 2 * all.length);
      expect(rows.filter((row) => row[4] === 'status').map((row) => row[3])).toEqual(all.map((finding) => finding.provider_payment_id));
      expect(cursors).toEqual(['', 'rcf_00999', 'rcf_01999']);
    });

    it('writes the header alone for a run without findings, and passes kind', async () => {
      const seen: reconciliation.ListFindingsRequest[] = [];
      clients.reconciliation.listFindings = async (request) => {
        seen.push(request);
        return { findings: [], has_more: false };
      };
      const answer = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings.csv?kind=fee_difference', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(`${HEADER.join(',')}\r\n`);
      expect(seen[0]?.kind).toBe('fee_difference');
    });

    it('answers JSON errors before the first byte: 404 for an unknown run, 400 for a bad kind, the service error for a first page that fails', async () => {
      let pagesAsked = 0;
      clients.reconciliation.listFindings = async () => {
        pagesAsked += 1;
        throw new AppError('service_unavailable');
      };
      const missing = await app.request('GET', '/v1/reconciliation-runs/rec_01jother/findings.csv', { headers: FULL });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/application\/json/);
      expect(missing.json.error).toMatchObject({ code: 'not_found', param: 'id' });
      const badKind = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings.csv?kind=x', { headers: FULL });
      expect(badKind.json.error).toMatchObject({ code: 'parameter_invalid', param: 'kind' });
      expect(pagesAsked).toBe(0);
      const down = await app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings.csv', { headers: FULL });
      expect(down.status).toBe(503);
      expect(down.json.error.code).toBe('service_unavailable');
    });

    it('cuts the connection when a later page fails, so a partial file never looks whole', async () => {
      let page = 0;
      clients.reconciliation.listFindings = async () => {
        page += 1;
        if (page === 1) return { findings: [protoFinding()], has_more: true };
        throw new AppError('service_unavailable');
      };
      await expect(app.request('GET', '/v1/reconciliation-runs/rec_01jrun/findings.csv', { headers: FULL })).rejects.toThrow();
      expect(page).toBe(2);
    });
  });

  it('refuses a restricted key on every route with 403 restricted_key, without calling the service', async () => {
    const called: string[] = [];
    for (const method of ['createRun', 'listRuns', 'getRun', 'listFindings'] as const) {
      clients.reconciliation[method] = (async () => {
        called.push(method);
        throw new Error('must not be called');
      }) as never;
    }
    const routes: Array<[string, string]> = [
      ['POST', '/v1/reconciliation-runs'],
      ['GET', '/v1/reconciliation-runs'],
      ['GET', '/v1/reconciliation-runs/rec_01jrun'],
      ['GET', '/v1/reconciliation-runs/rec_01jrun/findings'],
      ['GET', '/v1/reconciliation-runs/rec_01jrun/findings.csv'],
    ];
    for (const [method, path] of routes) {
      const answer = await app.request(method, path, { headers: RESTRICTED, ...(method === 'POST' ? { body: { start: '2026-11-01', end: '2026-11-15' } } : {}) });
      expect({ route: `${method} ${path}`, status: answer.status, code: answer.json?.error?.code }).toEqual({ route: `${method} ${path}`, status: 403, code: 'restricted_key' });
    }
    const anonymous = await app.request('GET', '/v1/reconciliation-runs');
    expect(anonymous.status).toBe(401);
    expect(called).toEqual([]);
  });
});
