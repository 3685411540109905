// A row held by a test transaction of its own, so that requests sent meanwhile queue on it at a
// known point (their COMMIT's write to a hot row), and are let go together: the tests of a write
// sent with the COMMIT that finds the row changed (db/sql.ts, TxSql.commitIf). PostgreSQL only.
import pg from 'pg';
import { inject } from 'vitest';
import { until } from './poll.js';

export type HeldRow = {
  /** Resolves once `n` backends wait on the row, directly or behind one another; throws after 10 s. */
  waitForQueue(n: number, what: string): Promise<void>;
  /** Commits the holder's transaction (the row is let go) and closes its connection. */
  release(): Promise<void>;
};

/** Locks the rows `select` (a `SELECT … FOR UPDATE`) finds, in a transaction held open. */
export async function holdRow(select: string, values: unknown[]): Promise<HeldRow> {
  const holder = new pg.Client({ connectionString: inject('databaseUrl') });
  await holder.connect();
  await holder.query('BEGIN');
  await holder.query(select, values);
  const pid = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const queued = async () =>
    Number(
      (
        await holder.query(
          `WITH RECURSIVE behind(pid) AS (
             SELECT $1::int
             UNION
             SELECT a.pid FROM pg_stat_activity a JOIN behind b ON b.pid = ANY (pg_blocking_pids(a.pid))
           )
           SELECT count(*) - 1 AS n FROM behind`,
          [pid],
        )
      ).rows[0].n,
    );
  return {
    waitForQueue: (n, what) => until(async () => (await queued()) >= n, what),
    async release() {
      await holder.query('COMMIT');
      await holder.end();
    },
  };
}
