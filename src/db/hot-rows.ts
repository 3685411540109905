// Group commit for hot rows (issue 36; docs/performance.md, "Coalesced commits").
//
// A request that moves one wallet holds the wallet's row lock from its ledger statement until its
// COMMIT has returned, and a commit waits for the disk: on one hot wallet (a house wallet, a
// jackpot, a tournament's prize pool) requests queue on that lock one commit at a time, however
// idle the server and the database are. Here requests for the same hot row that arrive while a
// commit on it is in flight wait for it, then go together, in arrival order, in one transaction
// and one round trip: one lock wait and one commit for all of them.
//
// No timer decides a batch: a request that finds nothing in flight on its row is sent at once,
// alone, exactly as it would be without this module, so an idle server answers as fast as before
// (group commit, not a delay). A batch is whatever arrived while the commit before it was in
// flight.
//
// Each request keeps its own outcome. A unit is a request's whole transaction (its claim of the
// Idempotency-Key, its ledger statement, its answer's record), sent without BEGIN and COMMIT; the
// statements of a unit must not raise for a business reason (the ledger answers an overdraft as a
// refused row, and the record then deletes the claim), so one overdraft refuses that request
// alone. A statement that does raise (a key another request already holds, a lost connection)
// fails the whole batch, which PostgreSQL rolls back; then every unit of it is sent again alone,
// in arrival order, each with its own transaction and its own answer. So a crash mid-batch leaves
// every unit either committed with its answer's record or not applied at all, as it would alone,
// and a unit is answered only after the commit that holds it has returned. A batch holds the row
// while it claims its units' keys, so a key sent to two processes at once can close a lock cycle
// with the other process's unit; PostgreSQL rolls one back, and the request of a lone unit is run
// again (exactly-once/keyed-requests.ts, DEADLOCK_ATTEMPTS).
import type pg from 'pg';

/** One request's transaction, ready to be sent: what `HotRows.commit` needs of it. */
export type Unit = {
  /** Its statements, without BEGIN and COMMIT, each independent of another's answer. */
  statements: pg.QueryConfig[];
  /**
   * Sends BEGIN, the statements and COMMIT in one round trip, on its own connection (or, once
   * parked, on one of the pool's); their results, without BEGIN's and COMMIT's.
   */
  alone: () => Promise<pg.QueryResult[]>;
  /**
   * Sends BEGIN, these statements (a batch this unit leads) and COMMIT in one round trip, on a
   * connection of the pool; their results, without BEGIN's and COMMIT's. Throws when nothing
   * committed.
   */
  together: (statements: pg.QueryConfig[]) => Promise<pg.QueryResult[]>;
  /**
   * Called when the unit waits for the commit in flight on its row: it gives its connection
   * back, so that waiting requests do not hold the pool (the batch takes one connection).
   */
  park: () => void;
};

type Waiting = {
  unit: Unit;
  resolve: (results: pg.QueryResult[]) => void;
  reject: (error: unknown) => void;
};

/**
 * The most units in one transaction. Each unit's statements run under a row lock the others wait
 * for, so a larger batch holds the lock longer for the ones at its end; and a few dozen already
 * amortize the commit (docs/performance.md).
 */
export const MAX_BATCH = 32;

export class HotRows {
  /** Per hot row with a commit in flight: the units that arrived since, in order. */
  private readonly queues = new Map<string, Waiting[]>();
  /** Units sent, and transactions that committed them (a test's and a benchmark's reading). */
  readonly counts = { units: 0, transactions: 0, fallbacks: 0 };

  /** How many units wait for the commit in flight on `row` (none when nothing is in flight). */
  waiting(row: string): number {
    return this.queues.get(row)?.length ?? 0;
  }

  /** Commits `unit` alone at once, or with the others that wait for the commit in flight on `row`. */
  async commit(row: string, unit: Unit): Promise<pg.QueryResult[]> {
    const queue = this.queues.get(row);
    if (queue) {
      unit.park();
      return new Promise((resolve, reject) => queue.push({ unit, resolve, reject }));
    }
    this.queues.set(row, []);
    try {
      return await this.alone(unit);
    } finally {
      this.next(row);
    }
  }

  /** What waited for the commit that just returned goes next, or the row is no longer in flight. */
  private next(row: string) {
    const queue = this.queues.get(row)!;
    if (queue.length === 0) {
      this.queues.delete(row);
      return;
    }
    const batch = queue.splice(0, MAX_BATCH);
    void this.send(batch).finally(() => this.next(row));
  }

  private alone(unit: Unit) {
    this.counts.units++;
    this.counts.transactions++;
    return unit.alone();
  }

  private async send(batch: Waiting[]): Promise<void> {
    const settle = (w: Waiting) => this.alone(w.unit).then(w.resolve, w.reject);
    if (batch.length === 1) return settle(batch[0]!);
    const lead = batch[0]!.unit;
    let results: pg.QueryResult[];
    try {
      results = await lead.together(batch.flatMap((w) => w.unit.statements));
    } catch {
      // Nothing of the batch committed: each unit again, alone, gets the answer it would have got.
      this.counts.fallbacks++;
      for (const w of batch) await settle(w);
      return;
    }
    this.counts.units += batch.length;
    this.counts.transactions++;
    let at = 0;
    for (const w of batch) {
      const n = w.unit.statements.length;
      w.resolve(results.slice(at, at + n));
      at += n;
    }
  }
}
