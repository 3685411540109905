// The engine's delivery pipeline (partner spec: "Pipeline order"):
//   1. pre-flight: event code, points override, size (the REST layer bounds the body at 16 KB);
//   2. resolve the active definition;
//   3. claim (definition, key): a committed `processing` row; a loser of a race waits for the
//      winner and replays its frozen result; a claim abandoned by a crash is reclaimed after
//      `claimTimeoutMs`;
//   4-7. in one transaction: resolve the player by external_id, apply the rules, move the ledger
//      (reason engine:<execution_id>), write the terminal outcome and the audit row.
// A failure at any stage records its outcome and never leaves the wallet half-moved.
import type { RgState } from '../../generated/prisma/enums.js';
import { blockOf, recordRgDecision, rgWhy } from '../../domain/responsible-gaming/gate.js';
import { randomBytes } from 'node:crypto';
import type { EventDefinition, PrismaClient } from '../../generated/prisma/client.js';
import { sqlFor, transaction } from '../../db/sql.js';
import type { Db } from '../../domain/db.js';
import { listDefinitions } from './read-definitions.js';
import { AppError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { valueFingerprint } from '../../domain/fingerprint.js';
import { moveCoins } from '../../domain/ledger/move-coins.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import { MAX_POINTS } from './definition-inputs.js';
import { checkHistory, checkStatic, utcDayStart, type Constraints } from './rules.js';

export type Channel = 'events' | 'webhook';

export type Delivery = {
  channel: Channel;
  eventCode: string;
  data: Record<string, unknown>;
  pointsOverride?: number | undefined;
  correlationId?: string | null | undefined;
  idempotencyKey: string;
};

export type EngineOptions = {
  now: () => Date;
  /** How long a `processing` claim is honoured before another delivery may take it over. */
  claimTimeoutMs: number;
};

export type EngineEventResult = {
  eventId: string;
  status: 'completed' | 'skipped' | 'failed';
  replayed: boolean;
  correlationId: string;
  customerId: string | null;
  pointsRequested: number;
  pointsApplied: number;
  balanceBefore: number;
  balanceAfter: number;
  errorCode: string | null;
  errorMessage: string | null;
};

export type Definition = EventDefinition;
type Snapshot = {
  id: string;
  code: string;
  version: number;
  points: number;
  constraints: unknown;
  playerIdField: string;
  idempotencyKeyField: string | null;
  allowPointsOverride: boolean;
};

class LostClaim {}

export const newCorrelationId = () => `cor_${randomBytes(12).toString('hex')}`;

/** Every delivery reads it first: on the driver (docs/performance.md, the engine). */
export async function findActiveDefinition(
  db: Db,
  tenant: Tenant,
  code: string,
): Promise<Definition | null> {
  const { rows } = await sqlFor(db).query<Definition>(
    `SELECT id, sub_brand_id AS "subBrandId", code, points, constraints,
            player_id_field AS "playerIdField", idempotency_key_field AS "idempotencyKeyField",
            allow_points_override AS "allowPointsOverride", active, version,
            created_at AS "createdAt", updated_at AS "updatedAt"
     FROM event_definitions WHERE sub_brand_id = $1::uuid AND code = $2 AND active`,
    [tenant.subBrandId, code],
  );
  return rows[0] ?? null;
}

/** Steps 1-2: refusals here are the caller's error (400/404), with no execution row. */
export async function preflight(
  db: Db,
  tenant: Tenant,
  delivery: Omit<Delivery, 'idempotencyKey'>,
): Promise<Definition> {
  const definition = await findActiveDefinition(db, tenant, delivery.eventCode);
  if (!definition) {
    // Name the codes that would work: the caller can fix the call without another lookup.
    const active = await listDefinitions(db, { subBrandId: tenant.subBrandId, activeOnly: true });
    const codes = active.map((d) => d.code);
    throw new AppError(
      'not_found',
      // Names the codes that exist, not the one sent: this text reaches agents, and the code may
      // come from a provider's payload (docs/mcp.md).
      'No active event definition has the code sent. ' +
        (codes.length
          ? `Active codes: ${codes.join(', ')}.`
          : 'This sub-brand has no active definitions.'),
    );
  }
  if (delivery.pointsOverride !== undefined) {
    if (!definition.allowPointsOverride) {
      throw new AppError(
        'override_not_allowed',
        `The definition ${definition.code} does not accept points_override.`,
      );
    }
    if (
      !Number.isInteger(delivery.pointsOverride) ||
      Math.abs(delivery.pointsOverride) > MAX_POINTS
    ) {
      throw new AppError(
        'invalid_points',
        `points_override must be a whole number within ±${MAX_POINTS}.`,
      );
    }
  }
  return definition;
}

export async function deliverEvent(
  prisma: PrismaClient,
  tenant: Tenant,
  actor: Actor,
  delivery: Delivery,
  options: EngineOptions,
  /** Already through pre-flight (a webhook resolves its definition to find its key). */
  resolved?: Definition,
): Promise<EngineEventResult> {
  const correlationId = delivery.correlationId || newCorrelationId();
  const audit = (fields: AuditFields, db: Db = prisma) =>
    sqlFor(db).query(AUDIT_INSERT, auditValues(tenant, actor, delivery, correlationId, fields));

  let definition: Definition;
  try {
    definition = resolved ?? (await preflight(prisma, tenant, delivery));
  } catch (error) {
    if (error instanceof AppError) await audit({ outcome: 'rejected', errorCode: error.code });
    throw error;
  }

  // What makes two deliveries "the same event": not the channel, so a REST event and a webhook
  // carrying one id are one execution.
  const requestHash = valueFingerprint({
    code: delivery.eventCode,
    data: delivery.data,
    pointsOverride: delivery.pointsOverride ?? null,
  });
  const snapshot: Snapshot = {
    id: definition.id,
    code: definition.code,
    version: definition.version,
    points: definition.points,
    constraints: definition.constraints,
    playerIdField: definition.playerIdField,
    idempotencyKeyField: definition.idempotencyKeyField,
    allowPointsOverride: definition.allowPointsOverride,
  };
  const points = delivery.pointsOverride ?? definition.points;
  const deadline = Date.now() + options.claimTimeoutMs + 5_000;

  for (;;) {
    const claim = await claimExecution(prisma, tenant, delivery, {
      definitionId: definition.id,
      requestHash,
      snapshot,
      points,
      correlationId,
      timeoutMs: options.claimTimeoutMs,
    });
    if (claim.kind === 'conflict') {
      await audit({
        outcome: 'rejected',
        definitionId: definition.id,
        errorCode: 'idempotency_conflict',
      });
      throw new AppError(
        'idempotency_conflict',
        'This idempotency key was already used for a different event.',
      );
    }
    if (claim.kind === 'terminal') {
      await audit({
        outcome: 'replayed',
        executionId: claim.executionId,
        definitionId: definition.id,
      });
      // On the events channel the HTTP Idempotency-Key layer answers replays (the original body
      // verbatim, with `idempotent-replay: true`), so a concurrent duplicate that lands here
      // answers the original body too; webhooks have no such layer and say `replayed: true`.
      return {
        ...(claim.result as EngineEventResult),
        replayed: delivery.channel === 'webhook',
      };
    }
    if (claim.kind === 'owner') {
      try {
        return await execute(prisma, tenant, actor, delivery, claim, options);
      } catch (error) {
        if (error instanceof LostClaim) continue; // reclaimed by another delivery meanwhile: wait for its result
        // The claim stays `processing`: a retry with the same key takes it over after the time-out.
        await audit({
          outcome: 'failed',
          executionId: claim.executionId,
          definitionId: definition.id,
          errorCode: 'internal_error',
        }).catch(() => {});
        throw error;
      }
    }
    if (Date.now() > deadline) {
      throw new AppError(
        'idempotency_in_progress',
        'This event is still being processed. Retry shortly with the same key.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

type Claim =
  | {
      kind: 'owner';
      executionId: string;
      token: string;
      snapshot: Snapshot;
      points: number;
      correlationId: string;
    }
  | { kind: 'terminal'; executionId: string; result: unknown }
  | { kind: 'busy' }
  | { kind: 'conflict' };

/** Step 3, committed on its own so that a crash afterwards leaves a claim to reclaim. */
async function claimExecution(
  prisma: PrismaClient,
  tenant: Tenant,
  delivery: Delivery,
  c: {
    definitionId: string;
    requestHash: string;
    snapshot: Snapshot;
    points: number;
    correlationId: string;
    timeoutMs: number;
  },
): Promise<Claim> {
  const id = newId();
  const token = newId();
  const { rowCount: inserted } = await sqlFor(prisma).query(
    `INSERT INTO engine_executions (id, sub_brand_id, environment, definition_id, idempotency_key, request_hash, channel,
                                    status, claim_token, claimed_at, points_requested, correlation_id, definition_snapshot)
     VALUES ($1::uuid, $2::uuid, $3::environment, $4::uuid, $5, $6, $7, 'processing', $8::uuid, now(), $9, $10, $11::jsonb)
     ON CONFLICT (definition_id, environment, idempotency_key) DO NOTHING`,
    [
      id,
      tenant.subBrandId,
      tenant.environment,
      c.definitionId,
      delivery.idempotencyKey,
      c.requestHash,
      delivery.channel,
      token,
      c.points,
      c.correlationId,
      JSON.stringify(c.snapshot),
    ],
  );
  if (inserted === 1)
    return {
      kind: 'owner',
      executionId: id,
      token,
      snapshot: c.snapshot,
      points: c.points,
      correlationId: c.correlationId,
    };

  const existing = await prisma.engineExecution.findUnique({
    where: {
      definitionId_environment_idempotencyKey: {
        definitionId: c.definitionId,
        environment: tenant.environment,
        idempotencyKey: delivery.idempotencyKey,
      },
    },
  });
  if (!existing) return { kind: 'busy' }; // deleted between the two statements: try again
  if (existing.requestHash !== c.requestHash) return { kind: 'conflict' };
  if (existing.status !== 'processing')
    return { kind: 'terminal', executionId: existing.id, result: existing.result };
  const reclaimed = await prisma.$executeRaw`
    UPDATE engine_executions SET claim_token = ${token}::uuid, claimed_at = now()
    WHERE id = ${existing.id}::uuid AND status = 'processing'
      AND claimed_at <= now() - ${`${c.timeoutMs} milliseconds`}::interval`;
  if (reclaimed !== 1) return { kind: 'busy' };
  return {
    kind: 'owner',
    executionId: existing.id,
    token,
    snapshot: existing.definitionSnapshot as Snapshot, // the original freeze, not today's definition
    points: existing.pointsRequested,
    correlationId: existing.correlationId,
  };
}

/** Steps 4-7 in one transaction, as the claim's owner. */
async function execute(
  prisma: PrismaClient,
  tenant: Tenant,
  actor: Actor,
  delivery: Delivery,
  claim: Extract<Claim, { kind: 'owner' }>,
  options: EngineOptions,
): Promise<EngineEventResult> {
  // Its statements on the driver: a delivery whose rules read no history sends no Prisma query
  // (Prisma's ORM calls were most of an event's CPU; docs/performance.md, the engine).
  return transaction(prisma, async (tx, sql) => {
    const { snapshot, points } = claim;
    // The claim, locked, and the player it names, in one statement.
    const {
      rows: [row],
    } = await sql.query<{
      status: string;
      claim_token: string;
      customer_id: string | null;
      rg_state: RgState | null;
      rg_until: Date | null;
    }>(
      // The player row FOR SHARE: the responsible-gaming gate's lock (gate.ts).
      `SELECT e.status, e.claim_token, c.id AS customer_id, c.rg_state, c.rg_until
       FROM engine_executions e
       LEFT JOIN LATERAL (
         SELECT id, rg_state, rg_until FROM customers WHERE sub_brand_id = $2::uuid
           AND environment = $3::environment AND external_id = $4 FOR SHARE
       ) c ON true
       WHERE e.id = $1::uuid FOR UPDATE OF e`,
      [
        claim.executionId,
        tenant.subBrandId,
        tenant.environment,
        readField(delivery.data, snapshot.playerIdField) ?? null,
      ],
    );
    if (!row || row.status !== 'processing' || row.claim_token !== claim.token)
      throw new LostClaim();

    const now = options.now();
    const base = {
      eventId: claim.executionId,
      replayed: false,
      correlationId: claim.correlationId,
      pointsRequested: points,
    };
    const outcome = await decide(tx, tenant, delivery.data, snapshot, now, {
      customerId: row.customer_id,
    });

    // The gate refuses grants (positive points) only: a debit is not an incentive.
    const block = outcome.status === 'completed' && points > 0 ? blockOf(row, now) : null;
    let result: EngineEventResult;
    if (block && outcome.status === 'completed') {
      await recordRgDecision(
        tx,
        tenant,
        outcome.customerId,
        'engine_grant',
        block,
        claim.executionId,
        now,
      );
      const balance = await balanceOf(tx, outcome.customerId);
      result = {
        ...base,
        status: 'skipped',
        customerId: outcome.customerId,
        pointsApplied: 0,
        balanceBefore: balance,
        balanceAfter: balance,
        errorCode: 'rg_blocked',
        errorMessage: rgWhy(block),
      };
    } else if (outcome.status === 'completed') {
      try {
        const moved = await moveCoins(
          tx,
          tenant,
          { customerId: outcome.customerId, delta: points, reason: `engine:${claim.executionId}` },
          { ...actor, source: 'engine' },
        );
        result = {
          ...base,
          status: 'completed',
          customerId: outcome.customerId,
          pointsApplied: points,
          balanceBefore: moved.balanceAfter - points,
          balanceAfter: moved.balanceAfter,
          errorCode: null,
          errorMessage: null,
        };
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== 'insufficient_balance') throw error;
        const balance = await balanceOf(tx, outcome.customerId);
        result = {
          ...base,
          status: 'failed',
          customerId: outcome.customerId,
          pointsApplied: 0,
          balanceBefore: balance,
          balanceAfter: balance,
          errorCode: 'insufficient_balance',
          errorMessage: error.message,
        };
      }
    } else {
      const balance = outcome.customerId ? await balanceOf(tx, outcome.customerId) : 0;
      result = {
        ...base,
        status: outcome.status,
        customerId: outcome.customerId,
        pointsApplied: 0,
        balanceBefore: balance,
        balanceAfter: balance,
        errorCode: outcome.errorCode,
        errorMessage: outcome.why,
      };
    }

    // The outcome and its audit row in one statement, sent with the COMMIT: one round trip.
    await sql.commitWith(FINISH_AND_AUDIT, [
      claim.executionId,
      result.status,
      result.customerId,
      result.pointsApplied,
      result.errorCode,
      JSON.stringify(result),
      now.toISOString(),
      ...auditValues(tenant, actor, delivery, claim.correlationId, {
        outcome: result.status,
        executionId: claim.executionId,
        definitionId: snapshot.id,
        errorCode: result.errorCode,
      }),
      newId(), // the outbound event
    ]);
    return result;
  });
}

export type Decision =
  | { status: 'completed'; customerId: string; why: null }
  | { status: 'skipped' | 'failed'; customerId: string | null; errorCode: string; why: string };

/** Steps 4-5: who the player is and whether the rules let this delivery through. */
export async function decide(
  db: Db,
  tenant: Tenant,
  data: Record<string, unknown>,
  snapshot: Snapshot,
  now: Date,
  /** The customer the player field names, when the caller's statement read it already. */
  found?: { customerId: string | null },
): Promise<Decision> {
  const playerId = readField(data, snapshot.playerIdField);
  if (playerId === undefined) {
    return {
      status: 'failed',
      customerId: null,
      errorCode: 'player_id_missing',
      why: `data.${snapshot.playerIdField} is missing or not a string or number.`,
    };
  }
  const customer = found
    ? found.customerId === null
      ? undefined
      : { id: found.customerId }
    : (
        await sqlFor(db).query<{ id: string }>(
          `SELECT id FROM customers
           WHERE sub_brand_id = $1::uuid AND environment = $2::environment AND external_id = $3`,
          [tenant.subBrandId, tenant.environment, playerId],
        )
      ).rows[0];
  if (!customer) {
    return {
      status: 'failed',
      customerId: null,
      errorCode: 'player_not_found',
      // The field, never its value: this text reaches agents, and the value is the provider's
      // (docs/mcp.md: no tool text quotes a value from outside the caller).
      why: `No customer of this sub-brand has the external_id in data.${snapshot.playerIdField}.`,
    };
  }
  const fixed = checkStatic(snapshot.constraints, now);
  if (fixed.skip)
    return { status: 'skipped', customerId: customer.id, errorCode: fixed.skip, why: fixed.why };
  const constraints = snapshot.constraints as Constraints;
  if (constraints.max_daily_per_player !== undefined || constraints.cooldown_seconds) {
    const done = {
      definitionId: snapshot.id,
      customerId: customer.id,
      status: 'completed' as const,
    };
    const [completedToday, last] = await Promise.all([
      db.engineExecution.count({
        where: { ...done, completedAt: { gte: utcDayStart(now), lte: now } },
      }),
      db.engineExecution.findFirst({
        where: { ...done, completedAt: { lte: now } },
        orderBy: { completedAt: 'desc' },
        select: { completedAt: true },
      }),
    ]);
    const history = checkHistory(constraints, now, {
      completedToday,
      lastCompletedAt: last?.completedAt ?? null,
    });
    if (history.skip)
      return {
        status: 'skipped',
        customerId: customer.id,
        errorCode: history.skip,
        why: history.why,
      };
  }
  return { status: 'completed', customerId: customer.id, why: null };
}

/** A field of the event's data; dotted names reach into objects (`player.id`). */
function readField(data: Record<string, unknown>, path: string): string | undefined {
  let value: unknown = data;
  for (const part of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

async function balanceOf(db: Db, customerId: string): Promise<number> {
  const wallet = await db.wallet.findUnique({ where: { customerId }, select: { balance: true } });
  return Number(wallet?.balance ?? 0);
}

type AuditFields = {
  outcome: string;
  executionId?: string | null;
  definitionId?: string | null;
  errorCode?: string | null;
};

/** One engine_audit row's values, in AUDIT_COLUMNS' order. */
function auditValues(
  tenant: Tenant,
  actor: Actor,
  delivery: Delivery,
  correlationId: string,
  fields: AuditFields,
): (string | null)[] {
  return [
    newId(),
    tenant.subBrandId,
    tenant.environment,
    delivery.eventCode.slice(0, 64),
    delivery.idempotencyKey,
    delivery.channel,
    correlationId,
    actor.requestId,
    fields.executionId ?? null,
    fields.definitionId ?? null,
    fields.outcome,
    fields.errorCode ?? null,
  ];
}

/** The audit row's insert, its parameters numbered from `first`. */
const auditInsert = (first: number) => {
  const casts = ['uuid', 'uuid', 'environment', '', '', '', '', '', 'uuid', 'uuid', '', ''];
  const params = casts.map((cast, i) => `$${first + i}${cast ? `::${cast}` : ''}`);
  return `INSERT INTO engine_audit (id, sub_brand_id, environment, event_code, idempotency_key, channel,
                                    correlation_id, request_id, execution_id, definition_id, outcome, error_code)
          VALUES (${params.join(', ')})`;
};

const AUDIT_INSERT = auditInsert(1);

/** The execution's terminal outcome ($1-$7), then its audit row ($8-$19). */
const FINISH_AND_AUDIT = `
  WITH finished AS (
    UPDATE engine_executions
    SET status = $2::execution_status, customer_id = $3::uuid, points_applied = $4,
        error_code = $5, result = $6::jsonb, completed_at = $7::timestamptz
    WHERE id = $1::uuid
    RETURNING id
  ), outbound AS (
    -- Its outbound event (docs/webhooks.md), in the statement that finishes it.
    INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id)
    VALUES ($20::uuid, $9::uuid, $10::environment, 'engine_execution.' || $2::text, 'engine_execution', $1::text)
  )
  ${auditInsert(8)}`;
