import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '@orquestra/platform';
import { toHttpError } from './error-mapper';

const MESSAGE =
  'A requisição HTTP está malformada (por exemplo, um cabeçalho com caractere inválido). ' +
  'Envie cabeçalhos só com caracteres ASCII visíveis e um corpo JSON com Content-Type: application/json.';

/**
 * Requests Node's HTTP parser refuses (a header with a control character, a broken request line)
 * never reach express: by default Node answers a bare `400` with no body. This answers them with
 * the spec's error body instead, like every other 400. Found by the Schemathesis run (tools/fuzz).
 */
export function answerMalformedRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, body } = toHttpError(new AppError('invalid_request', { message: MESSAGE }));
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        'Cache-Control: no-store\r\nConnection: close\r\n\r\n' +
        json,
    );
  });
}
