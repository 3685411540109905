// db/sql.ts `transaction`: what a work sends on the driver (`sql`) and through Prisma (`tx`) is one
// transaction, committed or rolled back as one; on PostgreSQL the transaction is the driver's
// and Prisma joins it on the same connection only when the work uses `tx`.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { transaction } from '../../src/db/sql.js';
import { TEST_DB, testDatabase } from '../support/harness.js';

let db: Database;
const table = `tx_probe_${randomUUID().slice(0, 8)}`;
beforeAll(async () => {
  db = await testDatabase();
  await db.prisma.$executeRawUnsafe(`CREATE TABLE ${table} (id text PRIMARY KEY)`);
});
afterAll(async () => {
  await db.prisma.$executeRawUnsafe(`DROP TABLE ${table}`);
  await db.close();
});

const exists = async (id: string) =>
  (await db.prisma.$queryRawUnsafe<unknown[]>(`SELECT 1 FROM ${table} WHERE id = $1`, id))
    .length === 1;

describe('transaction', () => {
  it('runs the driver statements and the Prisma calls in one transaction, committed together', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const seen = await transaction(db.prisma, async (tx, sql) => {
      await sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [a]);
      await tx.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, b);
      const [driverTx] = (await sql.query<{ t: string }>('SELECT txid_current()::text AS t', []))
        .rows;
      const [prismaTx] = await tx.$queryRawUnsafe<{ t: string }[]>(
        'SELECT txid_current()::text AS t',
      );
      // Each side sees the other's uncommitted row; another connection sees neither yet.
      const prismaSeesA = await tx.$queryRawUnsafe<unknown[]>(
        `SELECT 1 FROM ${table} WHERE id = $1`,
        a,
      );
      const driverSeesB = await sql.query(`SELECT 1 FROM ${table} WHERE id = $1`, [b]);
      return {
        same: driverTx!.t === prismaTx!.t,
        prismaSeesA: prismaSeesA.length,
        driverSeesB: driverSeesB.rowCount,
        // PGlite has one connection, busy with this transaction: asked on PostgreSQL only.
        outside: TEST_DB === 'postgres' && ((await exists(a)) || (await exists(b))),
      };
    });
    expect(seen).toEqual({ same: true, prismaSeesA: 1, driverSeesB: 1, outside: false });
    expect([await exists(a), await exists(b)]).toEqual([true, true]);
  });

  it('reaches Prisma models through `tx` (a model delegate, not only raw queries)', async () => {
    const id = randomUUID();
    const found = await transaction(db.prisma, async (tx) => {
      await tx.brand.create({ data: { id, name: 'Through tx' } });
      return tx.brand.findUnique({ where: { id } });
    });
    expect(found?.name).toBe('Through tx');
    expect(await db.prisma.brand.count({ where: { id } })).toBe(1);
  });

  it('rolls back both sides when the work throws, and the pool stays usable', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await expect(
      transaction(db.prisma, async (tx, sql) => {
        await sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [a]);
        await tx.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, b);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect([await exists(a), await exists(b)]).toEqual([false, false]);
    const c = randomUUID();
    await transaction(db.prisma, (_tx, sql) =>
      sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [c]),
    );
    expect(await exists(c)).toBe(true);
  });

  it('rolls back when a Prisma statement fails, even if the work swallows the error', async () => {
    const a = randomUUID();
    const dup = randomUUID();
    await db.prisma.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, dup);
    await expect(
      transaction(db.prisma, async (tx, sql) => {
        await sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [a]);
        await tx.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, dup).catch(() => {});
        return 'done';
      }),
    ).rejects.toThrow();
    expect(await exists(a)).toBe(false);
  });

  it('sends the commitWith write with the commit, and commits nothing when it fails', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await transaction(db.prisma, async (_tx, sql) => {
      await sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [a]);
      await sql.commitWith(`INSERT INTO ${table} (id) VALUES ($1)`, [b]);
    });
    expect([await exists(a), await exists(b)]).toEqual([true, true]);

    const c = randomUUID();
    await expect(
      transaction(db.prisma, async (_tx, sql) => {
        await sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [c]);
        await sql.commitWith(`INSERT INTO ${table} (id) VALUES ($1)`, [a]); // a duplicate key
      }),
    ).rejects.toThrow(/duplicate key/);
    expect(await exists(c)).toBe(false);
    const d = randomUUID();
    await transaction(db.prisma, (_tx, sql) =>
      sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [d]),
    );
    expect(await exists(d)).toBe(true);
  });

  it('keeps concurrent transactions apart, each on its own connection', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        transaction(db.prisma, async (tx, sql) => {
          const id = `${table}-${i}`;
          await sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [id]);
          const [mine] = (await sql.query<{ t: string }>('SELECT txid_current()::text AS t', []))
            .rows;
          const rows = await tx.$queryRawUnsafe<{ id: string; t: string }[]>(
            `SELECT id, txid_current()::text AS t FROM ${table} WHERE id LIKE $1`,
            `${table}-%`,
          );
          // Only its own uncommitted row among the concurrent ones (others may have committed).
          return { same: rows.some((r) => r.id === id) && rows[0]!.t === mine!.t };
        }),
      ),
    );
    expect(results.every((r) => r.same)).toBe(true);
  });

  it('opens the transaction with its first statement, whichever side sends it', async () => {
    // The same texts again and again: from the second time on a connection they are prepared
    // there, and PostgreSQL gets BEGIN and the statement in one message (db/sql.ts, beginWith).
    const insert = `INSERT INTO ${table} (id) VALUES ($1) RETURNING txid_current()::text AS t`;
    for (let i = 0; i < 6; i++) {
      const [a, b] = [randomUUID(), randomUUID()];
      const seen = await transaction(db.prisma, async (_tx, sql) => {
        const [first] = (await sql.query<{ t: string }>(insert, [a])).rows;
        const [second] = (await sql.query<{ t: string }>(insert, [b])).rows;
        return first!.t === second!.t;
      });
      expect(seen).toBe(true);
      // Undone with the rest: the first statement was inside the transaction.
      await expect(
        transaction(db.prisma, async (_tx, sql) => {
          await sql.query(insert, [`${a}-undone`]);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await exists(`${a}-undone`)).toBe(false);
      // Prisma first: its statement waits for the BEGIN, and is undone too.
      await expect(
        transaction(db.prisma, async (tx, sql) => {
          await tx.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, `${b}-undone`);
          await sql.query('SELECT 1', []);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await exists(`${b}-undone`)).toBe(false);
    }
  });

  it('answers a failing first statement with its error, and the connection serves the next', async () => {
    const taken = randomUUID();
    await db.prisma.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, taken);
    const insert = `INSERT INTO ${table} (id) VALUES ($1)`;
    for (let i = 0; i < 4; i++) {
      await expect(
        transaction(db.prisma, (_tx, sql) => sql.query(insert, [taken])),
      ).rejects.toThrow(/duplicate key/);
      const fresh = randomUUID();
      await transaction(db.prisma, (_tx, sql) => sql.query(insert, [fresh]));
      expect(await exists(fresh)).toBe(true);
    }
  });

  it('commits a commitWith write sent alone, and nothing when it fails', async () => {
    const a = randomUUID();
    await transaction(db.prisma, (_tx, sql) =>
      sql.commitWith(`INSERT INTO ${table} (id) VALUES ($1)`, [a]),
    );
    expect(await exists(a)).toBe(true);
    await expect(
      transaction(db.prisma, (_tx, sql) =>
        sql.commitWith(`INSERT INTO ${table} (id) VALUES ($1), ($1)`, [`${a}-twice`]),
      ),
    ).rejects.toThrow(/duplicate key/);
    expect(await exists(`${a}-twice`)).toBe(false);
  });

  it('keeps a Prisma call and a driver statement sent at once, first in it, inside the transaction', async () => {
    // Whichever side flips to "begun" sends BEGIN ahead of both, however their starts interleave.
    for (const yields of [0, 1, 2, 3, 5, 8]) {
      const [a, b] = [randomUUID(), randomUUID()];
      await expect(
        transaction(db.prisma, async (tx, sql) => {
          const prisma = tx.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, a);
          for (let i = 0; i < yields; i++) await new Promise((r) => setImmediate(r));
          // A text new to the connection on the first pass, prepared on the later ones.
          await Promise.all([
            prisma,
            sql.query(`INSERT INTO ${table} (id) VALUES ($1::text)`, [b]),
          ]);
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect([await exists(a), await exists(b)], `after ${yields} yields`).toEqual([false, false]);
    }
  });

  it('sends a deferred statement with the next one, inside the transaction, each with its result', async () => {
    // The first pass sends them one by one (texts new to the connection), the later ones together.
    for (let i = 0; i < 4; i++) {
      const [a, b] = [randomUUID(), randomUUID()];
      const insert = `INSERT INTO ${table} (id) VALUES ($1) RETURNING id`;
      const answers = await transaction(db.prisma, async (_tx, sql) => {
        const deferred = sql.defer<{ id: string }>(insert, [a]);
        const next = await sql.query<{ id: string }>(insert, [b]);
        return { deferred: (await deferred.result()).rows, next: next.rows };
      });
      expect(answers).toEqual({ deferred: [{ id: a }], next: [{ id: b }] });
      expect([await exists(a), await exists(b)]).toEqual([true, true]);
      // Rolled back with the transaction, like any statement in it.
      const c = randomUUID();
      await expect(
        transaction(db.prisma, async (_tx, sql) => {
          const deferred = sql.defer(insert, [c]);
          await sql.query('SELECT 1', []);
          await deferred.result();
          throw new Error('refused');
        }),
      ).rejects.toThrow('refused');
      expect(await exists(c)).toBe(false);
    }
  });

  it('answers a deferred statement when nothing follows it, or only a Prisma call does', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const insert = `INSERT INTO ${table} (id) VALUES ($1) RETURNING id`;
    const alone = await transaction(db.prisma, (_tx, sql) =>
      sql.defer<{ id: string }>(insert, [a]).result(),
    );
    expect(alone.rows).toEqual([{ id: a }]);
    const [seen] = await transaction(db.prisma, async (tx, sql) => {
      const deferred = sql.defer(insert, [b]);
      const rows = await tx.$queryRawUnsafe<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM ${table} WHERE id = $1`,
        b,
      );
      await deferred.result();
      return rows;
    });
    expect(seen).toEqual({ n: 1 }); // sent before Prisma's statement, in the same transaction
    expect([await exists(a), await exists(b)]).toEqual([true, true]);
  });

  it("keeps a deferred statement's result when the statement sent with it fails", async () => {
    const taken = randomUUID();
    await db.prisma.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, taken);
    for (let i = 0; i < 3; i++) {
      const a = randomUUID();
      const outcome = await transaction(db.prisma, async (_tx, sql) => {
        const deferred = sql.defer<{ id: string }>(
          `INSERT INTO ${table} (id) VALUES ($1) RETURNING id`,
          [a],
        );
        const failed = await sql.query(`INSERT INTO ${table} (id) VALUES ($1)`, [taken]).then(
          () => 'sent',
          (e: Error) => e.message,
        );
        return { failed, deferred: (await deferred.result()).rows };
      }).catch(() => 'rolled back');
      // The work went on after the failure: nothing commits, and the caller is told.
      expect(outcome).toBe('rolled back');
      expect(await exists(a)).toBe(false);
    }
    // A text new to the connection (sent one by one), then prepared (sent together).
    for (let i = 0; i < 2; i++) {
      const results = await transaction(db.prisma, async (_tx, sql) => {
        const deferred = sql.defer<{ id: string }>(`SELECT $1::text AS id`, [taken]);
        const error = await sql
          .query(`INSERT INTO ${table} (id) VALUES ($1)`, [taken])
          .catch((e: Error) => e);
        const rows = (await deferred.result()).rows;
        throw Object.assign(new Error('seen'), { rows, error });
      }).catch((e: { rows: unknown; error: Error }) => e);
      expect(results.rows).toEqual([{ id: taken }]);
      expect(results.error.message).toMatch(/duplicate key/);
    }
  });

  describe('finish: the last statement, its record and the COMMIT', () => {
    const insert = `INSERT INTO ${table} (id) VALUES ($1) RETURNING id`;
    /** The record `finish` writes: a row named after the one the last statement wrote. */
    const recordOf = (ref: string) => ({
      text: `INSERT INTO ${table} (id) VALUES ($1)`,
      values: [`${ref}-record`],
    });

    it('writes the record of the row it names, committed with it (on PostgreSQL before the work returns)', async () => {
      // Twice: the first pass sends texts new to the connection one by one, the second together.
      for (let i = 0; i < 2; i++) {
        const a = randomUUID();
        const seen = await transaction(db.prisma, async (_tx, sql) => {
          sql.recordByReference(recordOf);
          const { rows } = await sql.finish<{ id: string }>(insert, [a], a);
          return {
            rows,
            recorded: sql.recordedByReference(),
            // PGlite has one connection, busy with this transaction: asked on PostgreSQL only.
            visibleOutside: TEST_DB === 'postgres' ? await exists(`${a}-record`) : 'n/a',
          };
        });
        expect(seen).toEqual({
          rows: [{ id: a }],
          recorded: true,
          visibleOutside: TEST_DB === 'postgres' ? true : 'n/a',
        });
        expect([await exists(a), await exists(`${a}-record`)]).toEqual([true, true]);
      }
    });

    it('is an ordinary statement when no record was registered', async () => {
      const a = randomUUID();
      const recorded = await transaction(db.prisma, async (_tx, sql) => {
        await sql.finish(insert, [a], a);
        await sql.query('SELECT 1', []); // still open: more may follow
        return sql.recordedByReference();
      });
      expect(recorded).toBe(false);
      expect([await exists(a), await exists(`${a}-record`)]).toEqual([true, false]);
    });

    it('commits nothing when the record fails, or a statement deferred before it does', async () => {
      const taken = randomUUID();
      await db.prisma.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, `${taken}-record`);
      await db.prisma.$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, taken);
      for (let i = 0; i < 2; i++) {
        const a = randomUUID();
        // The record's row exists already: the record fails, and the statement is rolled back.
        await expect(
          transaction(db.prisma, async (_tx, sql) => {
            sql.recordByReference(() => recordOf(taken));
            await sql.finish(insert, [a], a);
          }),
        ).rejects.toThrow(/duplicate key/);
        expect(await exists(a)).toBe(false);
        // A deferred statement fails (as the idempotency claim does on a used key): the last
        // statement and the record are skipped, nothing commits.
        const b = randomUUID();
        await expect(
          transaction(db.prisma, async (_tx, sql) => {
            sql.defer(`INSERT INTO ${table} (id) VALUES ($1)`, [taken]);
            sql.recordByReference(recordOf);
            await sql.finish(insert, [b], b);
          }),
          // PGlite sends the deferred statement at once: the next one meets the aborted transaction.
        ).rejects.toThrow(/duplicate key|transaction is aborted/);
        expect([await exists(b), await exists(`${b}-record`)]).toEqual([false, false]);
      }
    });

    it.skipIf(TEST_DB !== 'postgres')(
      'refuses a statement after it, which would run outside the committed transaction',
      async () => {
        const [a, b] = [randomUUID(), randomUUID()];
        await expect(
          transaction(db.prisma, async (tx, sql) => {
            sql.recordByReference(recordOf);
            await sql.finish(insert, [a], a);
            const refused = await sql.query(insert, [b]).catch((e: Error) => e.message);
            const refusedPrisma = await tx
              .$executeRawUnsafe(`INSERT INTO ${table} (id) VALUES ($1)`, `${b}-prisma`)
              .catch((e: Error) => e.message);
            throw new Error(`${refused} / ${refusedPrisma}`);
          }),
        ).rejects.toThrow(/committed by its last statement.*committed by its last statement/);
        expect([await exists(a), await exists(b), await exists(`${b}-prisma`)]).toEqual([
          true,
          false,
          false,
        ]);
      },
    );
  });
});
