// Steps 1-2 of the pipeline (partner spec: "Pipeline order"): the event code names an active
// definition and the points override is allowed and in range.
import { sqlFor } from '../../db/sql.js';
import type { Db } from '../../domain/db.js';
import { AppError } from '../../domain/errors.js';
import type { Tenant } from '../../domain/tenant.js';
import { MAX_POINTS } from './definition-inputs.js';
import type { Definition, Delivery } from './delivery.js';
import { listDefinitions } from './read-definitions.js';

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

/** Refusals here are the caller's error (400/404), with no execution row. */
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
