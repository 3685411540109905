// Step 3 of the pipeline: the (definition, key) claim, committed on its own so that a crash
// afterwards leaves a `processing` row that a later delivery can reclaim after the time-out.
import type { PrismaClient } from '../../generated/prisma/client.js';
import { keyClaim } from '../../exactly-once/claim-key.js';
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

/** The execution, once per (definition, environment, key); `processing` until it finishes. */
const recordExecution = keyClaim(
  'engineExecution',
  [
    'id::uuid',
    'sub_brand_id::uuid',
    'environment::environment',
    'definition_id::uuid',
    'idempotency_key',
    'request_hash',
    'channel',
    'claim_token::uuid',
    'points_requested::int',
    'correlation_id',
    'definition_snapshot::jsonb',
  ],
  { status: "'processing'", claimed_at: 'now()' },
);

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
  const inserted = await recordExecution(prisma, [
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
  ]);
  if (inserted)
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
