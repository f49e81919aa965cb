import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from '../lib/logger';

const ANSWERS: Record<string, [number, string, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'headers_too_large', 'the request headers are larger than the server accepts (16 KiB)'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'request_timeout', 'the request was not received in time'],
};
const BAD_REQUEST: [number, string, string, string] = [
  400,
  'Bad Request',
  'bad_request',
  'the request is not valid HTTP/1.1 (request line, header names or values)',
];

/**
 * The raw HTTP/1.1 answer to a request Node's parser refused before any handler saw it (control
 * characters in a header, headers over the size limit, a malformed request line): the same JSON
 * error body and X-Request-Id as every other answer, then the connection is closed.
 */
export function clientErrorResponse(code: string | undefined): { status: number; body: string; raw: string; requestId: string } {
  const [status, reason, error, message] = (code && ANSWERS[code]) || BAD_REQUEST;
  const requestId = randomUUID();
  const body = JSON.stringify({ error, message });
  const raw = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
  return { status, body, raw, requestId };
}

/** Handles the server's `clientError` event (see clientErrorResponse). */
export function handleClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // a response already under way on this connection cannot be followed by another one
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = clientErrorResponse(err.code);
    logger.info({ req_id: answer.requestId, status: answer.status, code: err.code }, 'request refused by the HTTP parser');
    socket.end(answer.raw);
  });
}
