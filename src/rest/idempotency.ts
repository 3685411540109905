// The HTTP Idempotency-Key layer (docs/idempotency.md). It stores wire answers, so it lives with
// the transports; what the domain needs for exactly-once (claims, unique reasons) stays there.
//
// The claim row is inserted in the same transaction as the work, and holds the response when it
// commits. So the record is never ahead of or behind the effect, even across a crash; a
// concurrent duplicate blocks on the unique key until the first commits, then replays its
// answer; and when the first fails with a 5xx its transaction rolls the claim back, so a retry
// executes afresh. Rows live 24 hours; an expired row is taken over by the next claim.
import { TRANSACTION_OPTIONS, type Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { canonicalJson, sha256 } from '../domain/fingerprint.js';
import { isLockTimeout } from '../domain/prisma-errors.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,64}$/;

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
}): Promise<Outcome & { replayed: boolean }> {
  const { prisma, principal, key, requestHash } = options;
  const id = { subBrandId: principal.subBrandId, environment: principal.environment, key };
  // A finished request answers from one indexed read, without opening a transaction or going
  // near the wallet lock; only a first execution (or a race with one) goes on to claim the key.
  const stored = await findStored(prisma, id);
  if (stored) return replay(stored, requestHash);
  if (options.transaction === 'self') return runSelfManaged(options, id);
  try {
    const outcome = await prisma.$transaction(async (tx) => {
      const claimed = await tx.$queryRaw<unknown[]>`
        INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, expires_at)
        VALUES (${id.subBrandId}::uuid, ${id.environment}::environment, ${key}, ${requestHash},
                now() + ${`${IDEMPOTENCY_TTL_MS} milliseconds`}::interval)
        ON CONFLICT (sub_brand_id, environment, key) DO UPDATE
          SET request_hash = EXCLUDED.request_hash, expires_at = EXCLUDED.expires_at,
              created_at = now(), status_code = NULL, response_body = NULL
          WHERE idempotency_records.expires_at <= now()
        RETURNING 1`;
      // The key is taken: by a committed request (we waited for it if it was in flight).
      if (claimed.length === 0) throw new KeyTaken((await findStored(tx, id))!);
      const result = await options.work(tx);
      await tx.$executeRaw`
        UPDATE idempotency_records SET status_code = ${result.status},
               response_body = ${result.json}
        WHERE sub_brand_id = ${id.subBrandId}::uuid AND environment = ${id.environment}::environment
          AND key = ${key}`;
      return result;
    }, TRANSACTION_OPTIONS);
    return { ...outcome, replayed: false };
  } catch (error) {
    if (error instanceof KeyTaken) return replay(error.row, requestHash);
    if (isLockTimeout(error)) {
      throw new AppError(
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still being processed. Retry shortly.',
      );
    }
    // A business refusal (4xx) is part of the request's answer: store it, so a replay gives the
    // same answer. 5xx are not stored: the client may retry them with the same key.
    const refusal = error instanceof AppError ? options.refusal(error) : null;
    if (refusal) await record(prisma, id, requestHash, refusal);
    throw error;
  }
}

type RecordId = { subBrandId: string; environment: string; key: string };
type StoredRow = { request_hash: string; status_code: number; response_body: string };

async function findStored(db: Db, id: RecordId): Promise<StoredRow | undefined> {
  const [row] = await db.$queryRaw<StoredRow[]>`
    SELECT request_hash, status_code, response_body FROM idempotency_records
    WHERE sub_brand_id = ${id.subBrandId}::uuid AND environment = ${id.environment}::environment
      AND key = ${id.key} AND expires_at > now() AND status_code IS NOT NULL`;
  return row;
}

function replay(row: StoredRow, requestHash: string): Outcome & { replayed: true } {
  if (row.request_hash !== requestHash) throw conflict();
  return { status: row.status_code, json: row.response_body, replayed: true };
}

function record(prisma: PrismaClient, id: RecordId, requestHash: string, outcome: Outcome) {
  return prisma.$executeRaw`
    INSERT INTO idempotency_records (sub_brand_id, environment, key, request_hash, status_code, response_body, expires_at)
    VALUES (${id.subBrandId}::uuid, ${id.environment}::environment, ${id.key}, ${requestHash},
            ${outcome.status}, ${outcome.json}, now() + ${`${IDEMPOTENCY_TTL_MS} milliseconds`}::interval)
    ON CONFLICT DO NOTHING`;
}

async function runSelfManaged(
  options: Parameters<typeof runIdempotently>[0],
  id: RecordId,
): Promise<Outcome & { replayed: boolean }> {
  // The caller already looked for a stored answer (findStored). The work keeps its own
  // exactly-once record (a bulk adjustment's row, an engine execution), so only a finished answer
  // is recorded here; a refusal was not an execution and the key stays free to retry.
  const outcome = await options.work(options.prisma);
  // Concurrent duplicates each ran the resumable work; the first answer recorded is the key's
  // answer, and the others answer it byte for byte, as replays (issue 13, item 10).
  if ((await record(options.prisma, id, options.requestHash, outcome)) === 1)
    return { ...outcome, replayed: false };
  const stored = await findStored(options.prisma, id);
  return stored ? replay(stored, options.requestHash) : { ...outcome, replayed: false };
}

const conflict = () =>
  new AppError(
    'idempotency_conflict',
    'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  );

/** Deletes expired records; the server runs it periodically. */
export function sweepExpiredIdempotencyRecords(prisma: PrismaClient): Promise<number> {
  return prisma.$executeRaw`DELETE FROM idempotency_records WHERE expires_at <= now()`;
}
