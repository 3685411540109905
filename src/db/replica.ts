// Reads on a streaming replica (DATABASE_READ_URL; docs/scaling.md): lists, searches, reports and
// leaderboards may read from a PostgreSQL hot standby, and no caller reads its own write missing.
//
// How: after a caller's write commits, and before its answer goes out, the primary's WAL position
// is remembered for that caller (`wrote`, one `pg_current_wal_lsn()`). A later read by the same
// caller goes to the standby only once the standby has replayed that far
// (`pg_last_wal_replay_lsn()`), waiting at most `maxWaitMs`; past that, or when the standby does
// not answer, the read goes to the primary. A caller with no recent write reads the standby at
// once (it may be a little behind, as any replica is). Callers are API keys, staff members and
// player sessions. The positions are kept in this process and, with REDIS_URL, in Redis for the
// others (redis-positions.ts), so a caller's next request may reach any process; without Redis a
// deployment of several processes keeps each caller on one (sticky sessions; docs/scaling.md).
import type pg from 'pg';
import { PrismaClient, Prisma } from '../generated/prisma/client.js';
import type { Db } from './sql.js';
import { LendingPool, pgSql, queryRaw, registerDriver, statementName } from './sql.js';

export type ReplicaOptions = {
  /** The longest a read waits for the standby to replay its caller's write. Default 200 ms. */
  maxWaitMs?: number;
  /** How often a waiting read asks the standby how far it has replayed. Default 5 ms. */
  pollMs?: number;
  /** After the standby fails to answer, reads go to the primary this long. Default 5 s. */
  downMs?: number;
  /**
   * Where the positions are shared between processes (Redis, with REDIS_URL), so a caller's next
   * request may land on any of them. Without it each process knows its own callers' writes.
   */
  shared?: SharedPositions;
};

/** Callers' last write positions, shared by the processes (redis-positions.ts). */
export type SharedPositions = {
  set(caller: string, lsn: bigint): Promise<void>;
  /** Undefined: no recent write known. Throws when the store cannot answer. */
  get(caller: string): Promise<bigint | undefined>;
  close(): Promise<void>;
};

/** Where reads went (the tests read them). */
export type ReplicaCounts = { replica: number; waited: number; primary: number; down: number };

/** `1A/2B3C4D5E` as a number, to compare. */
const lsnOf = (text: string | null) => {
  if (!text) return 0n;
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
};

/** The standby is stopped, restarting or unreachable (not: the query was wrong). */
const unreachable = (error: unknown) =>
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|terminat|shutting down|starting up|Connection|connect/i.test(
    String((error as Error)?.message ?? error),
  );

export class ReadReplica {
  readonly counts: ReplicaCounts = { replica: 0, waited: 0, primary: 0, down: 0 };
  /** Per caller: the WAL position its last write needs replayed. */
  private readonly needs = new Map<string, bigint>();
  /** How far the standby had replayed when last asked (it only moves forward). */
  private replayed = 0n;
  private asking: Promise<bigint> | undefined;
  private downUntil = 0;
  /** The longest a read waits for the standby to replay its caller's write (then: primary). */
  maxWaitMs: number;
  private readonly pollMs: number;
  private readonly downMs: number;
  private readonly shared: SharedPositions | undefined;

  constructor(
    private readonly primary: PrismaClient,
    readonly client: PrismaClient,
    private readonly pool: pg.Pool,
    options: ReplicaOptions = {},
  ) {
    this.maxWaitMs = options.maxWaitMs ?? 200;
    this.pollMs = options.pollMs ?? 5;
    this.downMs = options.downMs ?? 5_000;
    this.shared = options.shared;
  }

  /** After `caller`'s write committed: what its next reads must see. */
  async wrote(caller: string): Promise<void> {
    const [row] = await queryRaw<{ lsn: string }>(
      this.primary,
      Prisma.sql`SELECT pg_current_wal_lsn()::text AS lsn`,
    );
    const lsn = lsnOf(row?.lsn ?? null);
    if (lsn > (this.needs.get(caller) ?? 0n)) this.needs.set(caller, lsn);
    if (this.needs.size > 10_000) this.forgetReplayed();
    // Shared for the caller's next request on another process; if the store is down, this
    // process still knows (and the others read the standby, as before this write).
    await this.shared?.set(caller, lsn).catch(() => {});
  }

  /**
   * `read` on the standby when it has `caller`'s writes, on the primary otherwise. An error
   * `isAnswer` recognises (a refusal of the caller's own making, like a bad cursor) is the answer
   * wherever it ran; any other sends the read to the primary.
   */
  async read<T>(
    caller: string,
    read: (db: Db) => Promise<T>,
    isAnswer: (error: unknown) => boolean = () => false,
  ): Promise<T> {
    const where = await this.choose(caller);
    if (where === 'replica') {
      try {
        return await read(this.client);
      } catch (error) {
        if (isAnswer(error)) throw error;
        if (unreachable(error)) this.markDown();
        this.counts.primary++;
        return read(this.primary);
      }
    }
    this.counts.primary++;
    return read(this.primary);
  }

  async close(): Promise<void> {
    await this.shared?.close();
    await this.client.$disconnect();
    await this.pool.end();
  }

  private async choose(caller: string): Promise<'replica' | 'primary'> {
    if (Date.now() < this.downUntil) return 'primary';
    let need = this.needs.get(caller);
    if (need === undefined && this.shared) {
      try {
        need = await this.shared.get(caller);
      } catch {
        return 'primary'; // whether the caller wrote elsewhere is unknown: the safe side
      }
    }
    if (need === undefined || need <= this.replayed) {
      this.counts.replica++;
      return 'replica';
    }
    const deadline = Date.now() + this.maxWaitMs;
    for (;;) {
      try {
        await this.askReplayed();
      } catch {
        this.markDown();
        return 'primary';
      }
      if (need <= this.replayed) {
        if (this.needs.get(caller) === need) this.needs.delete(caller);
        this.counts.waited++;
        this.counts.replica++;
        return 'replica';
      }
      if (Date.now() + this.pollMs > deadline) return 'primary';
      await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    }
  }

  /** One question to the standby at a time, whoever is waiting. */
  private askReplayed(): Promise<bigint> {
    this.asking ??= queryRaw<{ lsn: string | null }>(
      this.client,
      Prisma.sql`SELECT pg_last_wal_replay_lsn()::text AS lsn`,
    )
      .then(([row]) => {
        const lsn = lsnOf(row?.lsn ?? null);
        if (lsn > this.replayed) this.replayed = lsn;
        return this.replayed;
      })
      .finally(() => (this.asking = undefined));
    return this.asking;
  }

  private markDown() {
    this.counts.down++;
    this.downUntil = Date.now() + this.downMs;
  }

  private forgetReplayed() {
    for (const [caller, lsn] of this.needs) if (lsn <= this.replayed) this.needs.delete(caller);
  }
}

const replicas = new WeakMap<object, ReadReplica>();

/** The standby reads of this primary client may use; none for a transaction or without one. */
export const replicaOf = (db: Db): ReadReplica | undefined => replicas.get(db);

/**
 * After a write by `caller` committed (before its answer goes out), where there is a standby.
 * A caller is whoever must read their own writes (domain/tenancy/caller.ts names them).
 */
export async function wroteAs(db: Db, caller: string): Promise<void> {
  await replicaOf(db)?.wrote(caller);
}

/** `read` on the standby when there is one and it has the caller's writes; else on `db`. */
export function readAs<T>(
  db: Db,
  caller: string,
  read: (db: Db) => Promise<T>,
  isAnswer?: (error: unknown) => boolean,
): Promise<T> {
  const replica = replicaOf(db);
  return replica ? replica.read(caller, read, isAnswer) : read(db);
}

/** A standby's client: no migrations (it is read-only), the primary's statement naming. */
export async function openReplica(
  primary: PrismaClient,
  url: string,
  options: ReplicaOptions & { poolSize?: number; preparedStatements?: boolean } = {},
): Promise<ReadReplica> {
  const { PrismaPg } = await import('@prisma/adapter-pg');
  // A LendingPool, as the primary's: a read that runs in a transaction (a setting for one
  // statement) takes the driver's path, as it does on the primary.
  const pool = new LendingPool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // A read that takes too long on a standby is usually one waiting behind replay (a conflict):
    // give up and let the primary answer.
    options: '-c statement_timeout=10000',
    connectionTimeoutMillis: 2_000,
  });
  pool.on('error', () => {}); // a standby that stops surfaces on the next read instead
  const prepared = options.preparedStatements !== false;
  const adapter = prepared
    ? new PrismaPg(pool, { statementNameGenerator: (query) => statementName(query.sql) })
    : new PrismaPg(pool);
  const client = new PrismaClient({ adapter });
  pool.prepared = prepared;
  registerDriver(client, { sql: pgSql(pool, prepared), pool });
  const replica = new ReadReplica(primary, client, pool, options);
  replicas.set(primary, replica);
  return replica;
}
