import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ANSWER_BODY_LIMIT, sendToolRequest } from './send';
import { TiktokTool } from './tiktok.tool';

// A real local HTTP server answering what each test sets: the sender's reading of real answers.
let server: Server;
let base: string;
let next: { status: number; body: string } = { status: 200, body: '{}' };
let lastBody = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      lastBody = text;
      res.writeHead(next.status, { 'content-type': 'application/json' }).end(next.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const plain = {};
const request = (url = `${base}/x`) => ({ url, headers: { 'content-type': 'application/json' }, body: { a: 1 }, summary: {} });

describe('sendToolRequest', () => {
  it.each([
    [200, 'delivered'],
    [201, 'delivered'],
    [400, 'refused'],
    [401, 'refused'],
    [404, 'refused'],
    [408, 'retry'],
    [429, 'retry'],
    [500, 'retry'],
    [503, 'retry'],
  ])('HTTP %i → %s', async (status, outcome) => {
    next = { status, body: '{"ok":true}' };
    expect(await sendToolRequest(request(), { timeoutMs: 2_000, tool: plain })).toEqual({ outcome, status, body: '{"ok":true}' });
    expect(JSON.parse(lastBody)).toEqual({ a: 1 });
  });

  it('uses the tool’s reading when it has one (TikTok: 200 with an error code)', async () => {
    next = { status: 200, body: '{"code":40105,"message":"Access token is incorrect or has been revoked."}' };
    expect((await sendToolRequest(request(), { timeoutMs: 2_000, tool: new TiktokTool(base) })).outcome).toBe('refused');
  });

  it('truncates the answer to 2 000 characters', async () => {
    next = { status: 500, body: 'x'.repeat(5_000) };
    const answer = await sendToolRequest(request(), { timeoutMs: 2_000, tool: plain });
    expect(answer.body).toHaveLength(ANSWER_BODY_LIMIT);
  });

  it('no answer (connection refused) is a retry with status 0, and the token in the URL is never kept', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const answer = await sendToolRequest(request(`http://127.0.0.1:${port}/v25.0/1/events?access_token=EAAB-secret`), { timeoutMs: 2_000, tool: plain });
    expect(answer).toMatchObject({ outcome: 'retry', status: 0, body: expect.stringMatching(/^connection_error/) });
    expect(answer.body).not.toContain('EAAB-secret');
  });
});
