import type { Db } from '../../domain/db.js';
import type { Tenant } from '../../domain/tenant.js';
import { recordAudit } from './engine-audit.js';

/**
 * A repeat answered from the HTTP layer's stored response never reaches the pipeline; it is
 * still a delivery, so it gets its audit row here, tied to the execution it replays.
 */
export async function auditStoredReplay(
  db: Db,
  tenant: Tenant,
  replay: { json: string; requestId: string; idempotencyKey: string },
) {
  const eventId = (JSON.parse(replay.json) as { data?: { event_id?: string } }).data?.event_id;
  if (!eventId) return; // a stored refusal, not an execution
  const execution = await db.engineExecution.findFirst({
    where: { id: eventId, subBrandId: tenant.subBrandId, environment: tenant.environment },
    select: {
      id: true,
      definitionId: true,
      channel: true,
      correlationId: true,
      definitionSnapshot: true,
    },
  });
  if (!execution) return;
  await recordAudit(db, tenant, {
    eventCode: (execution.definitionSnapshot as { code: string }).code,
    idempotencyKey: replay.idempotencyKey,
    channel: execution.channel,
    correlationId: execution.correlationId,
    requestId: replay.requestId,
    outcome: 'replayed',
    executionId: execution.id,
    definitionId: execution.definitionId,
  });
}
