import type { Server } from 'node:http';

/**
 * Keep idle connections longer than the load balancers in front usually do (60 s), so the server
 * never closes a socket a client or proxy is about to reuse (that race surfaces as ECONNRESET).
 * headersTimeout must exceed keepAliveTimeout.
 */
export function configureHttpServer(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
