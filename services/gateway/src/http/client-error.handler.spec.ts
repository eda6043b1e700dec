import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createApp } from './app';
import { answerMalformedRequests } from './client-error.handler';
import { fakeClients } from '../testing/fake-clients';
import { TEST_SETTINGS, alwaysReady, silentLogger } from '../testing/fixtures';

function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('malformed HTTP requests', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer(createApp({ clients: fakeClients(), logger: silentLogger, readiness: alwaysReady, settings: TEST_SETTINGS }));
    answerMalformedRequests(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a header with a control character with 400 and the spec error body', async () => {
    const answer = await raw(port, 'POST /v1/payments HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\x01b\r\nContent-Length: 2\r\n\r\n[]');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toContain('Content-Type: application/json');
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toEqual({ error: { type: 'invalid_request_error', code: 'invalid_request', param: null, message: expect.stringMatching(/malformada/) } });
  });

  it('leaves well-formed requests to express', async () => {
    const answer = await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
  });
});
