// Step 3 of the pipeline: the (definition, key) claim, committed on its own so that a crash
// afterwards leaves a `processing` row that a later delivery can reclaim after the time-out.
import type { PrismaClient } from '../../generated/prisma/client.js';
import { sqlFor } from '../../db/sql.js';
import { newId } from '../../domain/ids.js';
import type { Tenant } from '../../domain/tenant.js';
import type { Delivery, Snapshot } from './delivery.js';

export type Claim =
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

export type OwnedClaim = Extract<Claim, { kind: 'owner' }>;

export async function claimExecution(
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
