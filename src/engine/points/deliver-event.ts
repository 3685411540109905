// The engine's delivery pipeline (partner spec: "Pipeline order"):
//   1-2. pre-flight (preflight.ts): event code, points override, size (the REST layer bounds the
//      body at 16 KB), the active definition;
//   3. the claim (claim.ts): a committed `processing` row per (definition, key); a loser of a
//      race waits for the winner and replays its frozen result; a claim abandoned by a crash is
//      reclaimed after `claimTimeoutMs`;
//   4-7. the execution (execute.ts), in one transaction: the player, the rules (decide.ts), the
//      ledger move, the terminal outcome and its audit row.
// A failure at any stage records its outcome (engine-audit.ts) and never leaves the wallet
// half-moved.
import type { PrismaClient } from '../../generated/prisma/client.js';
import { AppError } from '../../domain/errors.js';
import { valueFingerprint } from '../../domain/fingerprint.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import { claimExecution } from './claim.js';
import {
  newCorrelationId,
  type Definition,
  type Delivery,
  type EngineEventResult,
  type EngineOptions,
  type Snapshot,
} from './delivery.js';
import { auditOf, recordAudit, type AuditRow } from './engine-audit.js';
import { execute, LostClaim } from './execute.js';
import { preflight } from './preflight.js';

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
  const audit = (
    fields: Pick<AuditRow, 'outcome' | 'executionId' | 'definitionId' | 'errorCode'>,
  ) => recordAudit(prisma, tenant, { ...auditOf(actor, delivery, correlationId), ...fields });

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
