// Exactly-once for a request sent with an Idempotency-Key, whatever its transport (issue 30: one
// owner): REST and the MCP tools through callRoute, keyed GraphQL mutations through
// graphql/keyed-mutations.ts. It owns the claim, the stored answer (by value, or by reference to
// the movement the work wrote last), the replay and the refusal stored as an answer; the commit
// that carries the claim, the work and the record in one round trip, and shares it between
// requests on one hot wallet, is the driver's (db/sql.ts, db/hot-rows.ts), asked for here. The
// stores that make the work itself happen once are listed in keyed-stores.ts (docs/idempotency.md).
//
// The claim row is inserted in the same transaction as the work, and holds the response when it
// commits. So the record is never ahead of or behind the effect, even across a crash; a
// concurrent duplicate blocks on the unique key until the first commits, then replays its
// answer; and when the first fails with a 5xx its transaction rolls the claim back, so a retry
// executes afresh. Rows live 24 hours; an expired row is taken over by the next claim.
import { sqlFor, transaction, type Deferred, type Sql } from '../db/sql.js';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { canonicalJson, sha256 } from '../domain/fingerprint.js';
import { movementWritten } from '../domain/ledger/apply-movements.js';
import { isDeadlock, isLockTimeout, isUniqueViolation } from '../domain/prisma-errors.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { KEYED_STORES } from './keyed-stores.js';
import { RecentAnswers, type Outcome } from './recent-answers.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,64}$/;

/** Answers this process recorded lately: a replay of one needs no database round trip. */
export const recentAnswers = new RecentAnswers(IDEMPOTENCY_TTL_MS);
export type { Outcome };

const recentIdOf = (principal: Principal, key: string) =>
  `${principal.subBrandId}:${principal.environment}:${key}`;

/**
 * The answer this process recorded lately for this very request (same key, same fingerprint),
 * if it has it: a replay answered from memory. Anything else (a key it does not know, another
 * request under a known key) is for `runIdempotently` to answer.
 */
export function recentReplay(
  principal: Principal,
  key: string,
  requestHash: string,
): Outcome | undefined {
  const recent = recentAnswers.get(recentIdOf(principal, key));
  return recent?.requestHash === requestHash
    ? { status: recent.status, json: recent.json }
    : undefined;
}

/**
 * Thrown out of the claim transaction to end it when another request owns the key: its stored
 * row, or null when it committed after the claim's snapshot (read after the rollback).
 */
class KeyTaken {
  constructor(readonly row: StoredRow | null) {}
}

/** Thrown when the plain claim (`CLAIM_NEW`) found the key in use, in any state. */
class KeyExists {}

/** Checks the header; returns the key, or null when absent. */
export function readIdempotencyKey(header: string | undefined): string | null {
  if (header === undefined) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(header)) {
    throw new AppError(
      'invalid_idempotency_key',
      'Idempotency-Key must be 1-64 printable ASCII characters.',
    );
  }
  return header;
}

/** What makes two requests "the same": method, path and body, with key order ignored. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return sha256(`${method} ${path}\n${canonicalJson(body)}`);
}

export type IdempotentRun = {
  prisma: PrismaClient;
  principal: Principal;
  key: string;
  requestHash: string;
  /** The work, given the transaction that holds the claim. Throws AppError on failure. */
  work: (tx: Prisma.TransactionClient) => Promise<Outcome>;
  /**
   * The wire answer of a refused request, stored so that a replay answers the same; null for a
   * failure worth retrying (internal, unavailable), which is not stored.
   */
  refusal: (error: AppError) => Outcome | null;
  /**
   * 'wrap' (default): the work runs in the claiming transaction. 'self': the work commits in
   * steps of its own and is itself safe to repeat (a bulk adjustment); the answer is recorded
   * when it finishes, and a duplicate meanwhile runs the same resumable work.
   */
  transaction?: 'wrap' | 'self';
  /**
   * The work's answer may be recorded by reference to the coin movement it writes last
   * (`TxSql.finish`), with `status`; `render` makes the wire answer of a stored reference, for
   * replays (the route's own selection of that movement).
   */
  byReference?: { status: number; render: (ref: string) => Promise<Outcome> } | undefined;
};

type Answer = Outcome & { replayed: boolean; workRan?: boolean };

export function runIdempotently(options: IdempotentRun): Promise<Answer> {
  return run(options, true);
}

/**
 * How many times a request is run when PostgreSQL picks its transaction to break a deadlock. Its
 * key's claim can wait on a batch of another process's hot-row group commit (db/hot-rows.ts) that
 * holds the wallet and waits on this claim: the same key sent to two processes at once. The
 * victim applied nothing; run again, it finds the key taken and replays the other's answer.
 */
const DEADLOCK_ATTEMPTS = 3;

/** `mayReference`: whether the answer may be recorded by reference (not after a KeyExists). */
async function run(options: IdempotentRun, mayReference: boolean, attempt = 1): Promise<Answer> {
  const { prisma, principal, key, requestHash } = options;
  const id = { subBrandId: principal.subBrandId, environment: principal.environment, key };
  const recentId = recentIdOf(principal, key);
  const recent = recentAnswers.get(recentId);
  if (recent) {
    if (recent.requestHash !== requestHash) throw conflict();
    return { status: recent.status, json: recent.json, replayed: true };
  }
  const remember = (outcome: Outcome) => recentAnswers.remember(recentId, requestHash, outcome);
  if (options.transaction === 'self') return runSelfManaged(options, id, remember);
  const replay = (row: StoredRow) => replayOf(row, requestHash, options.byReference?.render);
  // No read before the claim: a first execution (the common case) would pay a round trip for
  // nothing. The claim's conflict is what finds a replay, and the same statement answers the
  // stored row when it was committed before this statement began. The claim goes with the work's
  // first statement, in one round trip: the work's effects are this transaction's, so when the
  // claim finds the key taken they are rolled back unseen, whatever the work answered.
  //
  // When the answer can be recorded by reference and the driver commits with the work's last
  // statement, the claim, the work, the record and the COMMIT all go in one round trip, so the
  // claim cannot be checked before the commit: it is a plain INSERT, which fails (and stops the
  // commit) when the key exists. Then the request is run again the ordinary way, which tells a
  // replay, a request in progress and an expired key apart (docs/idempotency.md).
  const byReference = mayReference ? options.byReference : undefined;
  try {
    const outcome = await transaction(prisma, async (tx, sql) => {
      const strict = byReference !== undefined && sql.finishCommits;
      const claim = sql.defer<ClaimRow>(strict ? CLAIM_NEW : CLAIM, [
        id.subBrandId,
        id.environment,
        key,
        requestHash,
        `${IDEMPOTENCY_TTL_MS} milliseconds`,
      ]);
      if (byReference) {
        sql.recordByReference((ref) => ({
          text: RECORD_REFERENCE,
          values: [id.subBrandId, id.environment, key, byReference.status, ref],
        }));
      }
      // The plain INSERT's failure: the key exists (run again the ordinary way, below).
      const keyExists = async () =>
        strict && isUniqueViolation(await claim.result().catch((e: unknown) => e));
      let result: Outcome;
      try {
        result = await options.work(tx);
      } catch (error) {
        if (await keyExists()) throw new KeyExists();
        // A taken key answers its stored answer (or "in progress"), not this attempt's error.
        // The claim's own failure, if it failed, is the error the work saw.
        await ownKey(claim).catch((e: unknown) => {
          if (e instanceof KeyTaken || (e instanceof AppError && e.code === IN_PROGRESS)) throw e;
        });
        throw error;
      }
      if (await keyExists()) throw new KeyExists();
      await ownKey(claim);
      if (sql.recordedByReference()) return result;
      // With the COMMIT, in one round trip: the wallet's lock is released one round trip sooner.
      await sql.commitWith(RECORD, [
        id.subBrandId,
        id.environment,
        key,
        result.status,
        result.json,
      ]);
      return result;
    });
    remember(outcome);
    return { ...outcome, replayed: false };
  } catch (error) {
    if (error instanceof KeyExists) return run(options, false);
    if (isDeadlock(error) && attempt < DEADLOCK_ATTEMPTS) {
      return run(options, mayReference, attempt + 1);
    }
    if (error instanceof KeyTaken) {
      const row = error.row ?? (await findStored(sqlFor(prisma), id));
      if (!row) throw inProgress();
      return replay(row);
    }
    if (isLockTimeout(error)) throw inProgress();
    if (error instanceof AppError && error.afterRollback) await error.afterRollback(prisma);
    // A business refusal (4xx) is part of the request's answer: store it, so a replay gives the
    // same answer. 5xx are not stored: the client may retry them with the same key.
    const refusal = error instanceof AppError ? options.refusal(error) : null;
    if (refusal && (await record(prisma, id, requestHash, refusal)) === 1) remember(refusal);
    throw error;
  }
}

/**
 * Claims the key, or answers who holds it: `claimed` when this transaction now owns the key (new,
 * or expired and taken over); otherwise the stored row, when committed before the statement.
 */
const CLAIM = `
  WITH claim AS (
    INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, expires_at)
    VALUES ($1::uuid, $2::environment, $3, $4, now() + $5::interval)
    ON CONFLICT (${KEYED_STORES.request.key.join(', ')}) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, expires_at = EXCLUDED.expires_at,
          created_at = now(), status_code = NULL, response_body = NULL, result_ref = NULL
      WHERE idempotency_records.expires_at <= now()
    RETURNING 1
  )
  SELECT true AS claimed, NULL AS request_hash, NULL::int AS status_code, NULL AS response_body,
         NULL::uuid AS result_ref
  FROM claim
  UNION ALL
  SELECT false, r.request_hash, r.status_code, r.response_body, r.result_ref
  FROM idempotency_records r
  WHERE NOT EXISTS (SELECT 1 FROM claim) AND r.sub_brand_id = $1::uuid
    AND r.environment = $2::environment AND r.key = $3 AND r.status_code IS NOT NULL`;

/** The claim when it cannot be checked before the commit: fails with 23505 when the key exists. */
const CLAIM_NEW = `
  INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, expires_at)
  VALUES ($1::uuid, $2::environment, $3, $4, now() + $5::interval)
  RETURNING true AS claimed`;

const RECORD = `
  UPDATE idempotency_records SET status_code = $4, response_body = $5
  WHERE sub_brand_id = $1::uuid AND environment = $2::environment AND key = $3`;

/**
 * The answer by reference to the movement the work's last statement wrote ($5). That statement
 * may have refused the move and written nothing (an insufficient balance), with this record and
 * the COMMIT already sent: then the claim is deleted instead, as a rollback would have left it,
 * and the refusal is stored after it like any other (`record`). Only this request's own claim
 * (no answer yet) is touched: where the claim is checked after the work (PGlite), a key another
 * request holds is left as it is, and the transaction is then rolled back.
 */
const RECORD_REFERENCE = `
  WITH answer AS (${movementWritten('$5')}), recorded AS (
    UPDATE idempotency_records SET status_code = $4, result_ref = $5::uuid
    WHERE sub_brand_id = $1::uuid AND environment = $2::environment AND key = $3
      AND status_code IS NULL AND EXISTS (SELECT 1 FROM answer)
  )
  DELETE FROM idempotency_records
  WHERE sub_brand_id = $1::uuid AND environment = $2::environment AND key = $3
    AND status_code IS NULL AND NOT EXISTS (SELECT 1 FROM answer)`;

type RecordId = { subBrandId: string; environment: string; key: string };
/** A finished request: its answer's body, or the movement that renders it (`result_ref`). */
type StoredRow = {
  request_hash: string;
  status_code: number;
  response_body: string | null;
  result_ref: string | null;
};
type ClaimRow = { claimed: boolean } & { [K in keyof StoredRow]: StoredRow[K] | null };

/** Throws KeyTaken (or in progress) unless the claim made this transaction the key's owner. */
async function ownKey(claim: Deferred<ClaimRow>): Promise<void> {
  const {
    rows: [row],
  } = await claim.result();
  if (row?.claimed) return;
  if (row?.status_code != null) throw new KeyTaken(row as StoredRow);
  // The key is taken by a request that was in flight: the claim waited for its commit, and its
  // row, committed after this statement's snapshot, is read once this transaction has ended (the
  // work, run meanwhile, may have aborted it: a duplicate's order insert fails on the first's).
  throw new KeyTaken(null);
}

async function findStored(sql: Sql, id: RecordId): Promise<StoredRow | undefined> {
  const { rows } = await sql.query<StoredRow>(
    `SELECT request_hash, status_code, response_body, result_ref FROM idempotency_records
     WHERE sub_brand_id = $1::uuid AND environment = $2::environment AND key = $3
       AND expires_at > now() AND status_code IS NOT NULL`,
    [id.subBrandId, id.environment, id.key],
  );
  return rows[0];
}

async function replayOf(
  row: StoredRow,
  requestHash: string,
  render: ((ref: string) => Promise<Outcome>) | undefined,
): Promise<Outcome & { replayed: true }> {
  if (row.request_hash !== requestHash) throw conflict();
  if (row.response_body !== null) {
    return { status: row.status_code, json: row.response_body, replayed: true };
  }
  if (row.result_ref === null || !render) {
    throw new Error('An idempotency record holds neither a body nor a reference it can render.');
  }
  return { ...(await render(row.result_ref)), replayed: true };
}

async function record(
  db: Db,
  id: RecordId,
  requestHash: string,
  outcome: Outcome,
): Promise<number> {
  const { rowCount } = await sqlFor(db).query(
    `INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, status_code, response_body, expires_at)
     VALUES ($1::uuid, $2::environment, $3, $4, $5, $6, now() + $7::interval)
     ON CONFLICT DO NOTHING`,
    [
      id.subBrandId,
      id.environment,
      id.key,
      requestHash,
      outcome.status,
      outcome.json,
      `${IDEMPOTENCY_TTL_MS} milliseconds`,
    ],
  );
  return rowCount;
}

async function runSelfManaged(
  options: IdempotentRun,
  id: RecordId,
  remember: (outcome: Outcome) => void,
): Promise<Outcome & { replayed: boolean; workRan?: boolean }> {
  // A finished request answers from one indexed read, without running the resumable work again.
  const sql = sqlFor(options.prisma);
  const done = await findStored(sql, id);
  if (done) return replayOf(done, options.requestHash, undefined);
  // The work keeps its own exactly-once record (a bulk adjustment's row, an engine execution),
  // so only a finished answer is recorded here; a refusal was not an execution and the key
  // stays free to retry.
  const outcome = await options.work(options.prisma);
  // Concurrent duplicates each ran the resumable work; the first answer recorded is the key's
  // answer, and the others answer it byte for byte, as replays (issue 13, item 10).
  if ((await record(options.prisma, id, options.requestHash, outcome)) === 1) {
    remember(outcome);
    return { ...outcome, replayed: false };
  }
  // The work ran and saw the repeat (an engine execution audits it): `workRan` tells the caller
  // not to count it again as a stored replay.
  const stored = await findStored(sql, id);
  return stored
    ? { ...(await replayOf(stored, options.requestHash, undefined)), workRan: true }
    : { ...outcome, replayed: false };
}

const IN_PROGRESS = 'idempotency_in_progress';
const inProgress = () =>
  new AppError(
    IN_PROGRESS,
    'A request with this Idempotency-Key is still being processed. Retry shortly.',
  );

const conflict = () =>
  new AppError(
    'idempotency_conflict',
    'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  );

/** Deletes expired records; the server runs it periodically. */
export function sweepExpiredIdempotencyRecords(prisma: PrismaClient): Promise<number> {
  return prisma.$executeRaw`DELETE FROM idempotency_records WHERE expires_at <= now()`;
}
