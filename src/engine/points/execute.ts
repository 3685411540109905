// Steps 4-7 of the pipeline, as the claim's owner, in one transaction: the player by external_id,
// the rules, the ledger move (reason engine:<execution_id>), the terminal outcome and its audit
// row. A failure anywhere rolls all of it back and leaves the claim to be reclaimed.
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { RgState } from '../../generated/prisma/enums.js';
import { transaction } from '../../db/sql.js';
import type { Db } from '../../domain/db.js';
import { AppError } from '../../domain/errors.js';
import { newId } from '../../domain/ids.js';
import { moveCoins } from '../../domain/ledger/move-coins.js';
import { blockOf, recordRgDecision, rgWhy } from '../../domain/responsible-gaming/gate.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import type { OwnedClaim } from './claim.js';
import { decide, readField } from './decide.js';
import type { Delivery, EngineEventResult, EngineOptions } from './delivery.js';
import { auditInsert, auditOf, auditValues } from './engine-audit.js';

/** Another delivery reclaimed the claim meanwhile: its result is the one to answer. */
export class LostClaim {}

export async function execute(
  prisma: PrismaClient,
  tenant: Tenant,
  actor: Actor,
  delivery: Delivery,
  claim: OwnedClaim,
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
      ...auditValues(tenant, {
        ...auditOf(actor, delivery, claim.correlationId),
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

async function balanceOf(db: Db, customerId: string): Promise<number> {
  const wallet = await db.wallet.findUnique({ where: { customerId }, select: { balance: true } });
  return Number(wallet?.balance ?? 0);
}

/**
 * The execution's terminal outcome ($1-$7), then its audit row ($8-$19, whose sub-brand and
 * environment the outbound event reuses as $9 and $10), then the outbound event's id ($20).
 */
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
