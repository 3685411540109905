// `npm run bench -- replica`: what reads on a streaming replica cost and give (issue 36 part 3;
// docs/scaling.md). A primary and a hot standby of its own (test/support/standby.ts), 100,000
// customers; the server run twice in alternation, without and with DATABASE_READ_URL, each time:
//   - reads: GET /api/v1/customers (a page of 25) by a key that has written nothing;
//   - writes: POST /api/v1/customers/{id}/coins (each answer now waits for one
//     pg_current_wal_lsn() on the primary);
//   - write then read: a credit, then the same key's movement history, which must show it (the
//     read waits for the standby to replay the credit).
// Sequential requests (latency) and CONNECTIONS concurrent loops (throughput). On this machine
// the standby shares the two cores with the primary and the server, so the figures say what the
// replica costs per request, not the capacity a standby on its own machine adds.
import { randomUUID } from 'node:crypto';
import { startPrimaryAndStandby } from '../test/support/standby.js';
import {
  benchCustomerId,
  CONNECTIONS,
  percentile,
  saveResults,
  seedBenchTenant,
  startServer,
} from './support.js';

const CUSTOMERS = 100_000;
const SEQUENTIAL = Number(process.env.BENCH_REPEAT ?? 300);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

type Figures = { p50: number; p99: number; perSecond: number };

export async function benchReplica() {
  const servers = await startPrimaryAndStandby({ applyDelayMs: 0 });
  const handle = { stop: async () => {} };
  try {
    console.log(`Seeding ${CUSTOMERS} customers…`);
    const { key } = await seedBenchTenant(servers.primaryUrl, {
      scopes: ['customers:read', 'customers:coins'],
      customers: CUSTOMERS,
    });
    const results: Record<string, Record<string, Figures[]>> = { primary: {}, replica: {} };
    for (let round = 0; round < 2; round++) {
      for (const mode of ['primary', 'replica'] as const) {
        if (mode === 'replica') process.env.DATABASE_READ_URL = servers.standbyUrl;
        else delete process.env.DATABASE_READ_URL;
        const base = await startServer(servers.primaryUrl, handle);
        try {
          for (const [name, figures] of Object.entries(await scenarios(base, key)))
            (results[mode]![name] ??= []).push(figures);
        } finally {
          await handle.stop();
        }
      }
    }
    delete process.env.DATABASE_READ_URL;
    console.log(
      `\nReads on a standby: ${CUSTOMERS} customers, ${SEQUENTIAL} sequential requests and ${SECONDS} s × ${CONNECTIONS} connections per scenario, 2 alternating rounds (the better of the two)\n`,
    );
    console.log(
      '| scenario | primary only p50 ms | with standby p50 ms | primary only p99 | with standby p99 | primary only req/s | with standby req/s |\n|---|---|---|---|---|---|---|',
    );
    const best = (runs: Figures[]) => ({
      p50: Math.min(...runs.map((r) => r.p50)),
      p99: Math.min(...runs.map((r) => r.p99)),
      perSecond: Math.max(...runs.map((r) => r.perSecond)),
    });
    for (const name of Object.keys(results.primary!)) {
      const a = best(results.primary![name]!);
      const b = best(results.replica![name]!);
      console.log(
        `| ${name} | ${a.p50.toFixed(2)} | ${b.p50.toFixed(2)} | ${a.p99.toFixed(2)} | ${b.p99.toFixed(2)} | ${a.perSecond.toFixed(0)} | ${b.perSecond.toFixed(0)} |`,
      );
    }
    saveResults('replica', results);
  } finally {
    await handle.stop();
    servers.stop();
  }
}

async function scenarios(base: string, key: string): Promise<Record<string, Figures>> {
  let n = 0;
  const customer = () => benchCustomerId(1 + (n++ % CUSTOMERS));
  const send = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body ? { 'content-type': 'application/json', 'idempotency-key': randomUUID() } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data: unknown };
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status}`);
    return json;
  };
  const reads = async () => void (await send('GET', '/api/v1/customers?limit=25'));
  const writes = async () =>
    void (await send('POST', `/api/v1/customers/${customer()}/coins`, { delta: 1 }));
  const writeThenRead = async () => {
    const id = customer();
    const moved = (await send('POST', `/api/v1/customers/${id}/coins`, { delta: 1 })) as {
      data: { id: string };
    };
    const history = (await send('GET', `/api/v1/customers/${id}/coins/movements?limit=1`)) as {
      data: { id: string }[];
    };
    if (history.data[0]?.id !== moved.data.id) throw new Error('read its own write missing');
  };
  const out: Record<string, Figures> = {};
  for (const [name, once] of [
    ['customer list page (no write before)', reads],
    ['coin adjustment', writes],
    ['adjustment, then the same key reads its history', writeThenRead],
  ] as const) {
    for (let i = 0; i < 20; i++) await once(); // warm
    const ms: number[] = [];
    for (let i = 0; i < SEQUENTIAL; i++) {
      const t = performance.now();
      await once();
      ms.push(performance.now() - t);
    }
    let done = 0;
    const deadline = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (Date.now() < deadline) {
          await once();
          done++;
        }
      }),
    );
    out[name] = { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), perSecond: done / SECONDS };
  }
  return out;
}
