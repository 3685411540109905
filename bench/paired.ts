// `BENCH_OTHER=<checkout> npm run bench -- paired`: this tree's server and another checkout's (a
// `git worktree` of the commit before, with node_modules and src/generated beside it), started
// side by side on one scratch database and called alternately, so both see the machine at the
// same moments. On this machine kind, runs of one bench taken minutes apart drift by more than
// the 5–10 % a change is judged by (docs/performance.md, "The establishment records derived");
// a paired run does not. BENCH_PATH (default POST /players/search) and BENCH_BODY (JSON) choose
// the request; BENCH_CUSTOMERS the tenant's size (50); BENCH_REPEAT the requests per server.
import path from 'node:path';
import { scratchDatabase } from './scratch-db.js';
import { percentile, seedBenchTenant, startServer } from './support.js';

export async function benchPaired() {
  const other = process.env.BENCH_OTHER;
  if (!other) throw new Error('BENCH_OTHER: the checkout to compare with (a git worktree)');
  const route = process.env.BENCH_PATH ?? '/players/search';
  const body = process.env.BENCH_BODY ?? '{"pagination":{"limit":20}}';
  const repeat = Number(process.env.BENCH_REPEAT ?? 1500);
  const theirs = (await import(path.resolve(other, 'bench/support.ts'))) as {
    startServer: typeof startServer;
  };
  const { url, drop } = await scratchDatabase('paired');
  const servers = [{ stop: async () => {} }, { stop: async () => {} }];
  try {
    const { key } = await seedBenchTenant(url, {
      scopes: ['customers:read', 'products:read', 'orders:read'],
      customers: Number(process.env.BENCH_CUSTOMERS ?? 50),
    });
    const bases = [await startServer(url, servers[0]!), await theirs.startServer(url, servers[1]!)];
    const call = async (base: string) => {
      const t = performance.now();
      const res = await fetch(`${base}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body,
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`${res.status} ${text}`);
      return performance.now() - t;
    };
    const times: number[][] = [[], []];
    for (let i = 0; i < repeat + 200; i++) {
      for (const [n, base] of bases.entries()) {
        const ms = await call(base);
        if (i >= 200) times[n]!.push(ms); // the first 200 warm both
      }
    }
    console.log(`POST ${route}, ${repeat} requests each, alternating`);
    console.log('| server | p50 (ms) | p90 | p99 | this / other (p50) |');
    console.log('|---|---|---|---|---|');
    for (const [n, name] of ['this tree', other].entries()) {
      const t = times[n]!;
      const ratio = percentile(times[0]!, 0.5) / percentile(times[1]!, 0.5);
      console.log(
        `| ${name} | ${percentile(t, 0.5).toFixed(2)} | ${percentile(t, 0.9).toFixed(2)} | ` +
          `${percentile(t, 0.99).toFixed(2)} | ${n === 0 ? ratio.toFixed(3) : ''} |`,
      );
    }
  } finally {
    for (const server of servers) await server.stop();
    await drop();
  }
}
