// The HTTP Idempotency-Key layer (docs/idempotency.md). It stores wire answers, so it lives with
// the transports; what the domain needs for exactly-once (claims, unique reasons) stays there.
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
import { isLockTimeout } from '../domain/prisma-errors.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { RecentAnswers } from './recent-answers.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,64}$/;

/** Answers this process recorded lately: a replay of one needs no database round trip. */
export const recentAnswers = new RecentAnswers(IDEMPOTENCY_TTL_MS);

/** A finished request: its status and its body, serialized once, exactly as sent. */
export type Outcome = { status: number; json: string };

/** Thrown out of the claim transaction to end it when another request owns the key. */
class KeyTaken {
  constructor(readonly row: StoredRow) {}
}

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

export async function runIdempotently(options: {
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
}): Promise<Outcome & { replayed: boolean; workRan?: boolean }> {
  const { prisma, principal, key, requestHash } = options;
  const id = { subBrandId: principal.subBrandId, environment: principal.environment, key };
  const recentId = `${id.subBrandId}:${id.environment}:${key}`;
  const recent = recentAnswers.get(recentId);
  if (recent) {
    if (recent.requestHash !== requestHash) throw conflict();
    return { status: recent.status, json: recent.json, replayed: true };
  }
  const remember = (outcome: Outcome) => recentAnswers.remember(recentId, requestHash, outcome);
  if (options.transaction === 'self') return runSelfManaged(options, id, remember);
  // No read before the claim: a first execution (the common case) would pay a round trip for
  // nothing. The claim's conflict is what finds a replay, and the same statement answers the
  // stored row when it was committed before this statement began. The claim goes with the work's
  // first statement, in one round trip: the work's effects are this transaction's, so when the
  // claim finds the key taken they are rolled back unseen, whatever the work answered.
  try {
    const outcome = await transaction(prisma, async (tx, sql) => {
      const claim = sql.defer<ClaimRow>(CLAIM, [
        id.subBrandId,
        id.environment,
        key,
        requestHash,
        `${IDEMPOTENCY_TTL_MS} milliseconds`,
      ]);
      let result: Outcome;
      try {
        result = await options.work(tx);
      } catch (error) {
        // A taken key answers its stored answer (or "in progress"), not this attempt's error.
        // The claim's own failure, if it failed, is the error the work saw.
        await ownKey(sql, claim, id).catch((e: unknown) => {
          if (e instanceof KeyTaken || (e instanceof AppError && e.code === IN_PROGRESS)) throw e;
        });
        throw error;
      }
      await ownKey(sql, claim, id);
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
    if (error instanceof KeyTaken) return replay(error.row, requestHash);
    if (isLockTimeout(error)) throw inProgress();
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
    ON CONFLICT (sub_brand_id, environment, key) DO UPDATE
      SET request_hash = EXCLUDED.request_hash, expires_at = EXCLUDED.expires_at,
          created_at = now(), status_code = NULL, response_body = NULL
      WHERE idempotency_records.expires_at <= now()
    RETURNING 1
  )
  SELECT true AS claimed, NULL AS request_hash, NULL::int AS status_code, NULL AS response_body
  FROM claim
  UNION ALL
  SELECT false, r.request_hash, r.status_code, r.response_body FROM idempotency_records r
  WHERE NOT EXISTS (SELECT 1 FROM claim) AND r.sub_brand_id = $1::uuid
    AND r.environment = $2::environment AND r.key = $3 AND r.status_code IS NOT NULL`;

const RECORD = `
  UPDATE idempotency_records SET status_code = $4, response_body = $5
  WHERE sub_brand_id = $1::uuid AND environment = $2::environment AND key = $3`;

type RecordId = { subBrandId: string; environment: string; key: string };
type StoredRow = { request_hash: string; status_code: number; response_body: string };
type ClaimRow = { claimed: boolean } & { [K in keyof StoredRow]: StoredRow[K] | null };

/** Throws KeyTaken (or in progress) unless the claim made this transaction the key's owner. */
async function ownKey(sql: Sql, claim: Deferred<ClaimRow>, id: RecordId): Promise<void> {
  const {
    rows: [row],
  } = await claim.result();
  if (row?.claimed) return;
  if (row?.status_code != null) throw new KeyTaken(row as StoredRow);
  // The key is taken by a committed request. A request still in flight made the claim wait for
  // its commit; its row, committed after this statement's snapshot, is read anew (unless the
  // work's failure aborted this transaction: then it is reported in progress, to retry).
  const stored = await findStored(sql, id).catch(() => undefined);
  if (!stored) throw inProgress();
  throw new KeyTaken(stored);
}

async function findStored(sql: Sql, id: RecordId): Promise<StoredRow | undefined> {
  const { rows } = await sql.query<StoredRow>(
    `SELECT request_hash, status_code, response_body FROM idempotency_records
     WHERE sub_brand_id = $1::uuid AND environment = $2::environment AND key = $3
       AND expires_at > now() AND status_code IS NOT NULL`,
    [id.subBrandId, id.environment, id.key],
  );
  return rows[0];
}

function replay(row: StoredRow, requestHash: string): Outcome & { replayed: true } {
  if (row.request_hash !== requestHash) throw conflict();
  return { status: row.status_code, json: row.response_body, replayed: true };
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
  options: Parameters<typeof runIdempotently>[0],
  id: RecordId,
  remember: (outcome: Outcome) => void,
): Promise<Outcome & { replayed: boolean; workRan?: boolean }> {
  // A finished request answers from one indexed read, without running the resumable work again.
  const sql = sqlFor(options.prisma);
  const done = await findStored(sql, id);
  if (done) return replay(done, options.requestHash);
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
    ? { ...replay(stored, options.requestHash), workRan: true }
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
