import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import { AppError } from '../domain/errors.js';
import { newRequestId } from './request-id.js';
import { httpStatus } from './status.js';

/**
 * The HTTP server of an express app (configured as below). Its requests and responses are born
 * with the app's prototypes: express would give them those prototypes per request
 * (`Object.setPrototypeOf`, in its `handle`), a change V8 makes costly. On this project's
 * machines a bare Node server answering ~13,000 requests/s answered ~4,600/s once it set both
 * objects' prototypes per request, and 40 % of its young generation then survived each
 * collection, against none (docs/performance.md, eighth pass). express's own setPrototypeOf
 * then finds the prototype already set, and V8 returns at once.
 */
export function createHttpServer(app: Express): Server {
  const { request, response } = app as unknown as { request: object; response: object };
  // Node's constructors are plain functions (no class), called on the new object as a subclass's.
  function AppRequest(this: IncomingMessage, socket: Socket) {
    Reflect.apply(IncomingMessage, this, [socket]);
  }
  AppRequest.prototype = request;
  function AppResponse(this: ServerResponse, req: IncomingMessage, options: object) {
    Reflect.apply(ServerResponse, this, [req, options]);
  }
  AppResponse.prototype = response;
  return configureHttpServer(
    createServer(
      {
        IncomingMessage: AppRequest as unknown as typeof IncomingMessage,
        ServerResponse: AppResponse as unknown as typeof ServerResponse,
      },
      app,
    ),
  );
}

/**
 * Keep idle connections longer than the load balancers in front usually do (60 s), so the server
 * never closes a socket a client or proxy is about to reuse (that race surfaces as ECONNRESET).
 * headersTimeout must exceed keepAliveTimeout.
 */
function configureHttpServer(server: Server): Server {
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
