// `npm run bench -- events`: what outbound events cost and how fast they leave (issue 31). Coin
// adjustments on spread wallets through the whole HTTP stack, interleaved: with no webhook
// endpoint (each still writes its event and the relay renders it) and with one endpoint on a
// receiver on loopback that answers 200 at once. For the runs with an endpoint: the delivery
// rate (events/s arriving at the receiver), the lag from the event's commit to its arrival
// (p50, p99) and how long the backlog took to drain after the load stopped. PostgreSQL only.
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { scratchDatabase } from './scratch-db.js';
import {
  benchCustomerId,
  CONNECTIONS,
  interleave,
  load,
  median,
  percentile,
  printRows,
  ROUNDS,
  saveResults,
  SECONDS,
  seedBenchTenant,
  startServer,
  type Sample,
} from './support.js';

const WALLETS = 1000;
/** Adjustments per second of the steady scenario. */
const STEADY = Number(process.env.BENCH_EVENTS_RATE ?? 100);

type Arrival = { id: string; createdAt: number; at: number };

/** A receiver that answers 200 at once and notes when each event arrived. */
async function receiver() {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const at = Date.now();
      const event = JSON.parse(body) as { id: string; created_at: string };
      arrivals.push({ id: event.id, createdAt: Date.parse(event.created_at), at });
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function benchEvents() {
  const { url, drop } = await scratchDatabase('events');
  const server = { stop: async () => {} };
  const sink = await receiver();
  try {
    const { key } = await seedBenchTenant(url, {
      scopes: ['customers:coins', 'webhooks:manage'],
      customers: WALLETS,
      environment: 'test',
    });
    const base = await startServer(url, server);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on('error', () => {});
    const api = (method: string, path: string, body: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': randomUUID(),
        },
        body: JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { data: { id: string } },
      }));
    const made = await api('POST', '/api/v1/webhook-endpoints', {
      url: sink.url,
      event_types: ['coin_movement.created'],
    });
    if (made.status !== 201) throw new Error(`endpoint: ${made.status}`);
    const endpoint = `/api/v1/webhook-endpoints/${made.body.data.id}`;
    const setEndpoint = async (status: 'active' | 'disabled') => {
      const res = await api('PATCH', endpoint, { status });
      if (res.status !== 200) throw new Error(`endpoint ${status}: ${res.status}`);
    };

    const adjust = (rate?: number) =>
      load(
        base,
        () => ({
          path: `/api/v1/customers/${benchCustomerId(1 + Math.floor(Math.random() * WALLETS))}/coins`,
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': randomUUID(),
          },
          body: '{"delta":1}',
        }),
        undefined,
        rate,
      );
    type Delivered = { rate: number; p50: number; p99: number; drainMs: number; events: number };
    /** Runs `sample`, then waits for every event it made to arrive, and measures how they did. */
    const delivered = async (runs: Delivered[], sample: () => Promise<Sample>) => {
      await setEndpoint('active');
      const from = sink.arrivals.length;
      const started = Date.now();
      const result = await sample();
      const stopped = Date.now();
      // Every event of the run: the movements written since it started.
      const { rows } = await pool.query(
        `SELECT count(*)::int AS n FROM coin_movements WHERE created_at >= $1`,
        [new Date(started - 5)],
      );
      while (sink.arrivals.length - from < rows[0].n) await new Promise((r) => setTimeout(r, 20));
      const run = sink.arrivals.slice(from);
      const lags = run.map((a) => a.at - a.createdAt);
      const times = run.map((a) => a.at);
      runs.push({
        rate: run.length / ((Math.max(...times) - Math.min(...times)) / 1000),
        p50: percentile(lags, 0.5),
        p99: percentile(lags, 0.99),
        drainMs: Math.max(...times) - stopped,
        events: run.length,
      });
      return result;
    };
    const saturated: Delivered[] = [];
    const steady: Delivered[] = [];
    const scenarios: Record<string, () => Promise<Sample>> = {
      'http, no endpoint': async () => {
        await setEndpoint('disabled');
        return adjust();
      },
      'http, one endpoint': () => delivered(saturated, () => adjust()),
      // A steady load the machine keeps up with: the lag a receiver sees on a normal day.
      [`http, one endpoint, ${STEADY}/s`]: () => delivered(steady, () => adjust(STEADY)),
    };
    const vacuum = async () => {
      await pool.query(
        'VACUUM ANALYZE wallets, coin_movements, idempotency_records, events, webhook_deliveries',
      );
    };
    const { rows, samples } = await interleave(scenarios, 'tps', vacuum);
    await pool.end();

    printRows('Events benchmark (adjustments on 1,000 wallets)', 'adjustments/s', rows, {
      'http, one endpoint': 'http, no endpoint',
    });
    const mid = (runs: Delivered[], field: keyof Delivered) =>
      runs.map((d) => d[field]).sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
    const figures = {
      'adjustments/s with an endpoint / without (both as fast as answered)':
        median(samples['http, one endpoint']!, 'tps') /
        median(samples['http, no endpoint']!, 'tps'),
      'delivery rate at saturation, events/s': mid(saturated, 'rate'),
      'commit → arrival lag at saturation, p50 / p99 ms': `${mid(saturated, 'p50')} / ${mid(saturated, 'p99')}`,
      'backlog drained after the saturating load stopped, ms': mid(saturated, 'drainMs'),
      [`commit → arrival lag at ${STEADY} events/s, p50 / p99 ms`]: `${mid(steady, 'p50')} / ${mid(steady, 'p99')}`,
    };
    console.log('\n| figure (medians of runs) | value |\n|---|---|');
    for (const [name, value] of Object.entries(figures))
      console.log(
        `| ${name} | ${typeof value === 'number' ? value.toFixed(name.includes('/ without') ? 2 : 0) : value} |`,
      );
    const runs = (label: string, list: Delivered[]) =>
      `${label}: ${list.map((d) => `${d.events} events, ${d.rate.toFixed(0)}/s, p50 ${d.p50} ms, p99 ${d.p99} ms, drained ${d.drainMs} ms`).join('; ')}`;
    console.log(`\n${runs('Saturated', saturated)}\n${runs(`${STEADY}/s`, steady)}`);
    saveResults('events', {
      seconds: SECONDS,
      rounds: ROUNDS,
      connections: CONNECTIONS,
      rows,
      figures,
      saturated,
      steady,
      samples,
    });
  } finally {
    await server.stop();
    await sink.close();
    await drop();
  }
}
