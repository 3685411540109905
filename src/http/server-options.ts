import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../domain/errors.js';
import { newRequestId } from './request-id.js';
import { httpStatus } from './status.js';

/**
 * Keep idle connections longer than the load balancers in front usually do (60 s), so the server
 * never closes a socket a client or proxy is about to reuse (that race surfaces as ECONNRESET).
 * headersTimeout must exceed keepAliveTimeout.
 */
export function configureHttpServer(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.on('clientError', answerUnparsableRequest);
  return server;
}

/**
 * Requests Node's HTTP parser refuses before express sees them (a URL or headers over Node's
 * 16 KB limit, malformed HTTP) get the error envelope like any other refusal, instead of Node's
 * bare status line with an empty body.
 */
function answerUnparsableRequest(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') return void socket.destroy();
  const refusal =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new AppError(
          'headers_too_large',
          'The request line and headers exceed 16 KB: send long input in a JSON body.',
        )
      : new AppError('invalid_request', 'The request is not valid HTTP/1.1.');
  const requestId = newRequestId();
  const body = JSON.stringify({
    error: { code: refusal.code, message: refusal.message, request_id: requestId },
  });
  const status = httpStatus(refusal);
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
  );
}
