// The engine's audit: one engine_audit row per delivery, refusals and replays included
// (docs/engine.md). One builder of the row's values serves both ways a row is written: alone,
// and inside the statement that finishes an execution and rides on its COMMIT (execute.ts), so
// the two cannot drift apart column by column.
import { sqlFor } from '../../db/sql.js';
import type { Db } from '../../domain/db.js';
import { newId } from '../../domain/ids.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import type { Delivery } from './delivery.js';

export type AuditRow = {
  eventCode: string;
  /** Null for a webhook refused before its key was found. */
  idempotencyKey: string | null;
  channel: string;
  correlationId: string;
  requestId: string | null;
  outcome: 'completed' | 'skipped' | 'failed' | 'replayed' | 'rejected';
  executionId?: string | null;
  definitionId?: string | null;
  errorCode?: string | null;
};

/** The part of a row that says which delivery it audits. */
export const auditOf = (
  actor: Actor,
  delivery: Pick<Delivery, 'eventCode' | 'channel'> & { idempotencyKey: string | null },
  correlationId: string,
): Pick<AuditRow, 'eventCode' | 'idempotencyKey' | 'channel' | 'correlationId' | 'requestId'> => ({
  eventCode: delivery.eventCode,
  idempotencyKey: delivery.idempotencyKey,
  channel: delivery.channel,
  correlationId,
  requestId: actor.requestId,
});

/**
 * The row's values in `auditInsert`'s column order. The sub-brand and environment are the 2nd
 * and 3rd: a statement that embeds the insert may reuse them for its other writes.
 */
export function auditValues(tenant: Tenant, row: AuditRow): (string | null)[] {
  return [
    newId(),
    tenant.subBrandId,
    tenant.environment,
    // The code as sent, which a refusal has not validated: cut to the column's width.
    row.eventCode.slice(0, 64),
    row.idempotencyKey,
    row.channel,
    row.correlationId,
    row.requestId,
    row.executionId ?? null,
    row.definitionId ?? null,
    row.outcome,
    row.errorCode ?? null,
  ];
}

/** The insert of one row, its parameters numbered from `first` so a larger statement can embed it. */
export const auditInsert = (first: number) => {
  const casts = ['uuid', 'uuid', 'environment', '', '', '', '', '', 'uuid', 'uuid', '', ''];
  const params = casts.map((cast, i) => `$${first + i}${cast ? `::${cast}` : ''}`);
  return `INSERT INTO engine_audit (id, sub_brand_id, environment, event_code, idempotency_key, channel,
                                    correlation_id, request_id, execution_id, definition_id, outcome, error_code)
          VALUES (${params.join(', ')})`;
};

const AUDIT_INSERT = auditInsert(1);

/** A row on its own, for the deliveries that end without finishing an execution. */
export async function recordAudit(db: Db, tenant: Tenant, row: AuditRow): Promise<void> {
  await sqlFor(db).query(AUDIT_INSERT, auditValues(tenant, row));
}
