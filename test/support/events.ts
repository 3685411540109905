// Outbound events in tests: the relay and sender over a harness's database (drained by hand, on
// a clock the test moves), and a webhook receiver on loopback that records what arrives and
// answers what the test says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEventWorkers, type EventWorkerOptions } from '../../src/events/service.js';
import { OperationStore } from '../../src/rest/execute-operation.js';
import { getSchema } from '../../src/schema/index.js';
import type { Harness } from './harness.js';
import { silentLogger } from './harness.js';

/**
 * A clock tests move. It starts a minute ahead of the real one: deliveries are written due at
 * the database's now(), so everything the test writes before it moves the clock is due at once.
 */
export function testClock(start = new Date(Date.now() + 60_000)) {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

export function eventWorkers(h: Harness, o: Partial<EventWorkerOptions> = {}) {
  return createEventWorkers({
    prisma: h.db.prisma,
    logger: silentLogger,
    operations: new OperationStore(getSchema()),
    now: () => new Date(),
    engine: { claimTimeoutMs: 30_000 },
    baseUrl: h.url,
    random: () => 0.5, // no jitter: the schedule's delays exactly
    ...o,
  });
}

export type Received = {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: any;
};

/** A receiver: `answer` decides each request's status (200 unless told). */
export async function webhookReceiver(
  answer: (r: Received, count: number) => number | Promise<number> = () => 200,
) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', async () => {
      const r: Received = {
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body,
        json: JSON.parse(body),
      };
      received.push(r);
      const status = await answer(r, received.length);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    /** Distinct event ids received. */
    ids: () => new Set(received.map((r) => r.id)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
