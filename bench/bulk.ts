// `npm run bench -- bulk`: one cohort reward over every customer of a sub-brand of 1,000,000
// (BULK_CUSTOMERS), through the server over HTTP as a partner sends it: the dry-run preview,
// then the adjustment, retried with the same Idempotency-Key if the connection gives up (it
// resumes where the last batch committed). Samples the server's resident memory while it runs
// (it must stay flat: batches are streamed, nothing proportional to the cohort is held) and
// checks the ledger after. PostgreSQL only.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { openDatabase } from '../src/db/database.js';
import { scratchDatabase } from './scratch-db.js';
import { seedBigTenant } from './seed-customers.js';
import {
  benchKey,
  loadAverage,
  processTreeUsage,
  runningServerPid,
  startServer,
} from './support.js';

const CUSTOMERS = Number(process.env.BULK_CUSTOMERS ?? 1_000_000);

export async function benchBulk() {
  const { url, drop } = await scratchDatabase('bulk');
  const server = { stop: async () => {} };
  try {
    const { raw, big } = await seedBigTenant(url, CUSTOMERS);
    await raw.query('VACUUM ANALYZE');
    await raw.end();
    const db = await openDatabase({ url });
    const key = await benchKey(db.prisma, big, ['customers:coins', 'customers:read']);
    await db.close();
    const base = await startServer(url, server);
    const pid = runningServerPid()!;
    const post = (body: object, idempotencyKey: string) =>
      fetch(`${base}/api/v1/customers/bulk/coins`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        body: JSON.stringify(body),
      }).then(async (res) => {
        const json = (await res.json()) as { data?: Record<string, unknown>; error?: unknown };
        return { status: res.status, body: json.data ?? (json as Record<string, unknown>) };
      });

    const memory = sampler(pid);
    const load = loadAverage();
    let started = performance.now();
    const preview = await post({ all: true, delta: 1, dry_run: true }, randomUUID());
    const previewMs = performance.now() - started;
    if (preview.status !== 200) throw new Error(`preview: ${JSON.stringify(preview)}`);

    const idem = randomUUID();
    const cpuBefore = processTreeUsage(pid).cpuMs;
    started = performance.now();
    let answer: Awaited<ReturnType<typeof post>> | null = null;
    let attempts = 0;
    while (!answer) {
      attempts++;
      try {
        const res = await post({ all: true, delta: 1, reason: 'bench cohort' }, idem);
        if (res.status === 200) answer = res;
        else if (res.status !== 409) throw new Error(`bulk: ${JSON.stringify(res)}`);
      } catch (error) {
        // A connection that gave up (fetch's 300 s): the same key resumes the adjustment.
        if (attempts > 20) throw error;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const cpuMs = processTreeUsage(pid).cpuMs - cpuBefore;
    const rss = memory.stop();

    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const {
      rows: [moved],
    } = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM coin_movements WHERE bulk_id = $1::uuid`,
      [answer.body.id],
    );
    // The seed gives each wallet a balance derived from its id (and no movements): each of the
    // cohort's must be exactly one more, the other sub-brand's untouched.
    const {
      rows: [off],
    } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM wallets
       WHERE balance <> abs(hashtext(customer_id::text)) % 5000 + CASE WHEN sub_brand_id = $1::uuid THEN 1 ELSE 0 END`,
      [big],
    );
    await pool.end();

    const applied = Number(answer.body.applied);
    console.log(
      `\nBulk adjustment over ${CUSTOMERS.toLocaleString('en')} customers, 1 server process, load average ${load} → ${loadAverage()}\n`,
    );
    console.log('| measure | value |\n|---|---|');
    const rows: [string, string][] = [
      ['dry-run preview', `${(previewMs / 1000).toFixed(2)} s (matched ${preview.body.matched})`],
      ['adjustment', `${seconds.toFixed(1)} s over ${attempts} request(s)`],
      ['customers/s', (applied / seconds).toFixed(0)],
      [
        'applied / matched / skipped',
        `${applied} / ${answer.body.matched} / ${answer.body.skipped}`,
      ],
      ['movements written with the bulk id', moved!.n],
      ['server CPU per customer', `${(cpuMs / applied).toFixed(3)} ms`],
      ['server RSS MB: start / max / end', `${rss.start} / ${rss.max} / ${rss.end}`],
      ['server RSS MB every 10 s', rss.series],
      ['wallets not exactly seed + delta (other sub-brand: seed)', String(off!.n)],
    ];
    for (const [name, value] of rows) console.log(`| ${name} | ${value} |`);
  } finally {
    await server.stop();
    await drop();
  }
}

/** The server's resident memory every 200 ms, in MB. */
function sampler(pid: number) {
  const read = () => Math.round(processTreeUsage(pid).rssMb);
  const samples = [read()];
  const timer = setInterval(() => samples.push(read()), 200);
  return {
    stop: () => {
      clearInterval(timer);
      samples.push(read());
      // Every 10 s of the run: flat memory shows as a plateau, a leak as a ramp.
      const series = samples.filter((_, i) => i % 50 === 0).join(' ');
      return { start: samples[0]!, max: Math.max(...samples), end: samples.at(-1)!, series };
    },
  };
}
