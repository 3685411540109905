// Steps 4-5 of the pipeline: who the player is and whether the definition's rules let this
// delivery through. The pipeline and the simulator share it, so a simulation answers what a
// delivery would; it reads and never writes.
import { sqlFor } from '../../db/sql.js';
import type { Db } from '../../domain/db.js';
import type { Tenant } from '../../domain/tenant.js';
import type { Snapshot } from './delivery.js';
import { checkHistory, checkStatic, utcDayStart, type Constraints } from './rules.js';

export type Decision =
  | { status: 'completed'; customerId: string; why: null }
  | { status: 'skipped' | 'failed'; customerId: string | null; errorCode: string; why: string };

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
export function readField(data: Record<string, unknown>, path: string): string | undefined {
  let value: unknown = data;
  for (const part of path.split('.')) {
    if (!value || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
