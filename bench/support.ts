// Shared by the benchmarks: the server as deployed (its own process), and load from autocannon.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import autocannon from 'autocannon';
import type pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { newId } from '../src/domain/ids.js';
import { createApiKey } from '../src/domain/tenancy/create-api-key.js';
import type { PARTNER_SCOPES } from '../src/domain/tenancy/scopes.js';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { ensureBuilt } from '../test/support/build.js';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
/** Server processes (WEB_CONCURRENCY); the machine has two cores, shared with PostgreSQL. */
export const WORKERS = Number(process.env.BENCH_WORKERS ?? 1);

/**
 * One scenario's run. `cpuMs` is CPU time per request: for HTTP scenarios, the server process
 * tree's (user + system, from /proc, divided by the requests it answered); for raw-SQL
 * scenarios, this bench process's own (the `pg` client side). `rssMb`: the server's resident
 * memory at the end of the run (HTTP only). `machineMs` and `idlePct`: the whole machine's
 * (see `machineTicks`).
 */
export type Sample = {
  tps: number;
  p50: number;
  p99: number;
  cpuMs?: number;
  rssMb?: number;
  machineMs?: number;
  idlePct?: number;
};

/** The running server's pid (one per bench), for its CPU and memory. */
let serverPid: number | null = null;
/** The running server's pid, for a bench that samples it itself. */
export const runningServerPid = () => serverPid;

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** CPU ms and RSS MB of a process and its descendants (the cluster's workers), from /proc. */
export function processTreeUsage(root: number): { cpuMs: number; rssMb: number } {
  const stats = new Map<number, string[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name, which may hold spaces: state is field 3.
      stats.set(Number(entry), text.slice(text.lastIndexOf(')') + 2).split(' '));
    } catch {
      // the process ended meanwhile
    }
  }
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, f] of stats) {
      if (tree.has(pid) || !tree.has(Number(f[1]))) continue;
      tree.add(pid);
      grew = true;
    }
  }
  let ticks = 0;
  let pages = 0;
  for (const pid of tree) {
    const f = stats.get(pid);
    if (!f) continue;
    ticks += Number(f[11]) + Number(f[12]); // utime, stime (fields 14, 15)
    pages += Number(f[21]); // rss (field 24)
  }
  return { cpuMs: (ticks * 1000) / CLOCK_TICKS, rssMb: (pages * 4096) / 2 ** 20 };
}

/**
 * The whole machine's busy and idle CPU time so far, in clock ticks, from /proc/stat: every core,
 * every process (server, load generator, PostgreSQL's backends, pgbench) and the kernel. A ratio
 * of two scenarios' throughputs on a saturated machine is the inverse ratio of what a transaction
 * costs it all told, which this measures (docs/performance.md).
 */
export function machineTicks(): { busy: number; idle: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f.map(Number) as number[];
  return { busy: user! + nice! + system! + irq! + softirq! + steal!, idle: idle! + iowait! };
}

/** Machine CPU ms per transaction since `before`, and the share of the cores left idle. */
export function machineUse(
  before: ReturnType<typeof machineTicks>,
  transactions: number,
): { machineMs: number; idlePct: number } {
  const after = machineTicks();
  const busy = after.busy - before.busy;
  const idle = after.idle - before.idle;
  return {
    machineMs: (busy * 1000) / CLOCK_TICKS / transactions,
    idlePct: (100 * idle) / (busy + idle),
  };
}

export const loadAverage = () =>
  readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The server as deployed: its own process, request logs on (written to /dev/null here). */
export async function startServer(
  url: string,
  handle: { stop: () => Promise<void> },
): Promise<string> {
  const port = await freePort();
  // BENCH_CPU_PROF=<folder>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`]
    : [];
  // The server as production runs it (docs/production.md): compiled, built first when the code
  // is newer. BENCH_SERVER=source runs the TypeScript through tsx instead (more memory: the
  // compiler stays loaded).
  const source = process.env.BENCH_SERVER === 'source';
  if (!source) ensureBuilt();
  const entry = source ? ['--import', 'tsx', 'src/server.ts'] : ['dist/server.js'];
  // The heap bound docs/production.md recommends (BENCH_HEAP_MB=0: V8's default, which lets
  // garbage pile up to several hundred MB before collecting it).
  const heapMb = Number(process.env.BENCH_HEAP_MB ?? 192);
  const heap = heapMb > 0 ? [`--max-old-space-size=${heapMb}`] : [];
  // BENCH_NODE_FLAGS: more flags for the server's node, e.g. --perf-basic-prof for `perf record`.
  const extra = process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...profile, ...heap, ...extra, ...entry], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      NODE_ENV: 'production',
      DATABASE_POOL_SIZE: String(CONNECTIONS),
      WEB_CONCURRENCY: String(WORKERS),
      REDIS_URL: '',
    },
    stdio: ['ignore', process.env.BENCH_STDOUT ? 'inherit' : 'ignore', 'inherit'],
  });
  serverPid = child.pid!;
  handle.stop = async () => {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  };
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/openapi.json`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return base;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the server did not start');
}

/** POSTs with a body and headers made per request, for SECONDS over CONNECTIONS. */
export function load(
  base: string,
  make: () => { path: string; headers: Record<string, string>; body: string },
  /** Called with the request's headers for every answered request. */
  answered?: (headers: Record<string, string>) => void,
  /** Requests per second in all (autocannon's overallRate); as fast as answered when unset. */
  rate?: number,
  /** Clients sending at once, each waiting for its answer before the next request. */
  connections = CONNECTIONS,
): Promise<Sample> {
  const before = serverPid ? processTreeUsage(serverPid) : null;
  const machine = machineTicks();
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: base,
        connections,
        duration: SECONDS,
        ...(rate ? { overallRate: rate } : {}),
        requests: [
          {
            method: 'POST',
            setupRequest: (req, context) => {
              const request = make();
              (context as { headers?: Record<string, string> }).headers = request.headers;
              return { ...req, ...request };
            },
            onResponse: (status, body, context) => {
              // BENCH_DEBUG: print each refused answer (a run stops at the end on any non-2xx).
              if (process.env.BENCH_DEBUG && status >= 300) console.error(status, body);
              answered?.((context as { headers: Record<string, string> }).headers);
            },
          },
        ],
      },
      (error, result) => {
        if (error) return reject(error);
        if (result.non2xx) return reject(new Error(`${result.non2xx} non-2xx answers`));
        const after = serverPid ? processTreeUsage(serverPid) : null;
        const served = result.requests.total;
        resolve({
          tps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          ...machineUse(machine, served),
          ...(before && after && served
            ? { cpuMs: (after.cpuMs - before.cpuMs) / served, rssMb: after.rssMb }
            : {}),
        });
      },
    );
  });
}

/** Medians of interleaved samples. */
/** The value at fraction `p` (0.5, 0.99) of `values`, by rank. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

export function median(samples: Sample[], field: keyof Sample): number {
  const values = samples.map((s) => s[field] ?? Number.NaN).sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)]!;
}

/** Bench customers have ids computable from their number (so pgbench can name them) and external_id `p<n>`. */
export const benchCustomerId = (n: number) =>
  `01a00000-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** A key of `subBrandId` (live unless told) whose rate limits are raised for the bench (the limiter still runs). */
export async function benchKey(
  prisma: PrismaClient,
  subBrandId: string,
  scopes: Parameters<typeof createApiKey>[1]['scopes'],
  environment: 'live' | 'test' = 'live',
): Promise<string> {
  const { key } = await createApiKey(prisma, {
    subBrandId,
    environment,
    scopes,
    readLimit: 1_000_000,
    writeLimit: 1_000_000,
  });
  return key;
}

/** A Prisma client on `url` that records every statement it sends (raw baselines, plans). */
export function recordingPrisma(url: string) {
  const captured: { query: string; params: string }[] = [];
  const prisma = new PrismaClient({
    adapter: new PrismaPg({ connectionString: url }),
    log: [{ emit: 'event', level: 'query' }],
  });
  prisma.$on('query', (e) => captured.push({ query: e.query, params: e.params }));
  return { prisma, captured };
}

/**
 * A migrated scratch database with one live tenant, a key whose rate limits are raised for the
 * bench (the limiter still runs, it never refuses), and `customers` customers with empty wallets.
 */
export async function seedBenchTenant(
  url: string,
  options: {
    scopes: (typeof PARTNER_SCOPES)[number][];
    customers: number;
    /** Live unless told: a test tenant may send webhooks to a receiver on loopback. */
    environment?: 'live' | 'test';
  },
) {
  const environment = options.environment ?? 'live';
  const db = await openDatabase({ url });
  try {
    const brand = newId();
    const subBrand = newId();
    await db.prisma.brand.create({ data: { id: brand, name: 'Bench' } });
    await db.prisma.subBrand.create({ data: { id: subBrand, brandId: brand, name: 'Bench' } });
    const key = await benchKey(db.prisma, subBrand, options.scopes, environment);
    await db.pool!.query(
      `INSERT INTO customers (id, sub_brand_id, environment, external_id, first_name, last_name, status_changed_at)
       SELECT ('01a00000-0000-7000-8000-' || lpad(g::text, 12, '0'))::uuid, $1, $3::environment, 'p' || g, 'B', 'Ench', now()
       FROM generate_series(1, $2::int) g`,
      [subBrand, options.customers, environment],
    );
    await db.pool!.query(
      `INSERT INTO wallets (customer_id, sub_brand_id, environment) SELECT id, sub_brand_id, environment FROM customers`,
    );
    return { subBrand, key, prisma: db.prisma };
  } finally {
    await db.close();
  }
}

/**
 * The raw-SQL baselines: CONNECTIONS clients each repeat `once` for SECONDS; the sample is
 * completed runs per second and their latency percentiles.
 */
export async function rawLoad(
  pool: pg.Pool,
  once: (client: pg.PoolClient) => Promise<void>,
  options: {
    /** Operations one call of `once` performs (a batch's), for the rate and the CPU per one. */
    perCall?: number;
    /** Clients calling `once` at the same time. */
    connections?: number;
  } = {},
): Promise<Sample> {
  const { perCall = 1, connections = CONNECTIONS } = options;
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const machine = machineTicks();
  const deadline = Date.now() + SECONDS * 1000;
  const worker = async () => {
    const client = await pool.connect();
    try {
      while (Date.now() < deadline) {
        const started = process.hrtime.bigint();
        await once(client);
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
      }
    } finally {
      client.release();
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const used = process.cpuUsage(cpu);
  const machineUsed = machineUse(machine, latencies.length * perCall);
  latencies.sort((a, b) => a - b);
  return {
    ...machineUsed,
    cpuMs: (used.user + used.system) / 1000 / (latencies.length * perCall),
    tps: (latencies.length * perCall) / SECONDS,
    p50: latencies[Math.floor(latencies.length * 0.5)]!,
    p99: latencies[Math.floor(latencies.length * 0.99)]!,
  };
}

export type Row = {
  name: string;
  tps: number;
  p50: number;
  p99: number;
  cpuMs: number | null;
  rssMb: number | null;
  machineMs: number | null;
  idlePct: number | null;
  load: string;
};

/**
 * Runs every scenario once per round, interleaved (so a slow patch of the machine hits them
 * alike), ROUNDS times, every other round in reverse order, and answers each scenario's medians
 * and its samples.
 */
export async function interleave(
  /** By name. The server's scenarios (sent over HTTP) are named `http…`: only they warm up. */
  scenarios: Record<string, () => Promise<Sample>>,
  unit: string,
  /** Run after every scenario, e.g. a VACUUM (this machine's PostgreSQL has autovacuum off). */
  between?: () => Promise<void>,
): Promise<{ rows: Row[]; samples: Record<string, Sample[]> }> {
  const samples: Record<string, Sample[]> = Object.fromEntries(
    Object.keys(scenarios).map((k) => [k, []]),
  );
  const loads: string[] = [];
  // BENCH_ONLY=<name>|<name>: only these scenarios (a profile of one path). Names hold commas.
  const only = process.env.BENCH_ONLY?.split('|');
  const chosen = Object.entries(scenarios).filter(([name]) => !only || only.includes(name));
  // A round of the server's scenarios first, not counted (BENCH_WARMUP=0 to skip it): a fresh
  // process runs its first seconds before V8 has optimized the request path (2026-11-24, the
  // activity bench: 2.9-3.1 ms of CPU per request in round 1, 1.6-2.2 in rounds 2-3), and a
  // production server is measured warm.
  if (process.env.BENCH_WARMUP !== '0') {
    for (const [name, run] of chosen.filter(([name]) => name.startsWith('http'))) {
      const s = await run();
      process.stderr.write(`warm-up: ${name} ${s.tps.toFixed(0)} ${unit} (not counted)\n`);
      await between?.();
    }
  }
  for (let round = 1; round <= ROUNDS; round++) {
    // Every other round in reverse (A B C, C B A, …): the machine's speed drifts within a round
    // (and a scenario run just after another's VACUUM meets its aftermath), so a fixed order let
    // the last scenario meet the slow end every time (the orders bench's last pair: 0.68-0.89 in
    // fixed order, its two scenarios alone 25 s each: the last the faster).
    for (const [name, run] of round % 2 ? chosen : [...chosen].reverse()) {
      samples[name]!.push(await run());
      const s = samples[name]!.at(-1)!;
      loads.push(loadAverage());
      process.stderr.write(
        `round ${round}: ${name} ${s.tps.toFixed(0)} ${unit}` +
          (s.cpuMs === undefined ? '' : `, ${s.cpuMs.toFixed(2)} ms CPU/request`) +
          (s.machineMs === undefined
            ? ''
            : `, machine ${s.machineMs.toFixed(2)} ms/request (${s.idlePct!.toFixed(0)} % idle)`) +
          `, load ${loads.at(-1)}\n`,
      );
      await between?.();
    }
  }
  const medianOrNull = (name: string, field: 'cpuMs' | 'rssMb' | 'machineMs' | 'idlePct') => {
    const values = samples[name]!.filter((s) => s[field] !== undefined);
    return values.length ? median(values, field) : null;
  };
  const rows = chosen.map(([name]) => ({
    name,
    tps: median(samples[name]!, 'tps'),
    p50: median(samples[name]!, 'p50'),
    p99: median(samples[name]!, 'p99'),
    cpuMs: medianOrNull(name, 'cpuMs'),
    machineMs: medianOrNull(name, 'machineMs'),
    idlePct: medianOrNull(name, 'idlePct'),
    rssMb: samples[name]!.reduce<number | null>(
      (m, s) => Math.max(m ?? 0, s.rssMb ?? 0) || m,
      null,
    ),
    load: `${loads[0]} → ${loads.at(-1)}`,
  }));
  return { rows, samples };
}

/** a's rate over b's, or NaN when BENCH_ONLY left either out (printed as "NaN", not a crash). */
export function ratioOf(rows: Row[], a: string, b: string): number {
  const find = (name: string) => rows.find((r) => r.name === name)?.tps ?? NaN;
  return find(a) / find(b);
}

/** Prints a benchmark's header and its table of medians (Markdown, for docs/performance.md). */
export function printRows(
  title: string,
  unit: string,
  rows: Row[],
  baselines?: Record<string, string>,
) {
  console.log(
    `\n${title}: ${ROUNDS} rounds × ${SECONDS} s, ${CONNECTIONS} connections, ${WORKERS} server process(es), medians; load average ${rows[0]?.load}\n`,
  );
  console.log(
    `| scenario | ${unit} | p50 ms | p99 ms | CPU ms/request | machine CPU ms/request | machine idle % | max RSS MB | ratio to baseline |\n|---|---|---|---|---|---|---|---|---|`,
  );
  const byName = new Map(rows.map((r) => [r.name, r]));
  for (const r of rows) {
    const base = baselines?.[r.name];
    const ratio =
      base && byName.get(base) ? `${(r.tps / byName.get(base)!.tps).toFixed(2)} (${base})` : '';
    console.log(
      `| ${r.name} | ${r.tps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.cpuMs?.toFixed(2) ?? '–'} | ${r.machineMs?.toFixed(2) ?? '–'} | ${r.idlePct?.toFixed(0) ?? '–'} | ${r.rssMb?.toFixed(0) ?? '–'} | ${ratio} |`,
    );
  }
}

/** The ledger's invariant after a run: wallets whose balance is not the sum of their movements. */
export async function walletsOffTheirSum(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n FROM wallets w
     WHERE w.balance <> (SELECT coalesce(sum(delta), 0) FROM coin_movements m WHERE m.customer_id = w.customer_id)`,
  );
  return rows[0].n;
}

/** Keeps a run's figures in bench/results (ignored by git). */
export function saveResults(name: string, results: unknown) {
  mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
  writeFileSync(
    path.join(ROOT, `bench/results/${name}-${new Date().toISOString().slice(0, 19)}.json`),
    JSON.stringify(results, null, 2),
  );
}
