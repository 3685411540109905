// Benchmarks run on a throw-away PostgreSQL database: created here, dropped after.
import pg from 'pg';

export const BENCH_ADMIN_URL =
  process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export async function scratchDatabase(
  label: string,
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `rewards_bench_${label}_${process.pid}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: BENCH_ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(BENCH_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    // BENCH_KEEP=1 leaves it for a look at its plans afterwards (psql, EXPLAIN).
    drop: async () => {
      if (process.env.BENCH_KEEP === '1') process.stderr.write(`kept database ${name}\n`);
      else await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
