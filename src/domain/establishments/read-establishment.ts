import type { Environment } from '../../generated/prisma/enums.js';
import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Style } from './schemas.js';

export type Establishment = Awaited<ReturnType<typeof readEstablishment>>;

/**
 * One establishment with its derived `totalAvailableCoins`: the monthly allocation less the coins
 * credited this UTC month in the caller's environment. Informational: credits are not refused
 * when it reaches zero, since partner credits have never been capped (docs/establishment-api.md).
 */
export async function readEstablishment(db: Db, id: string, environment: Environment) {
  const row = isUuid(id) ? await db.subBrand.findUnique({ where: { id } }) : null;
  if (!row) throw notFound('Sub-brand');
  const [credited] = await db.$queryRaw<{ total: bigint | null }[]>`
    SELECT sum(delta)::bigint AS total FROM coin_movements
    WHERE sub_brand_id = ${id}::uuid AND environment = ${environment}::environment AND delta > 0
      AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
      AND source IN ('api', 'bulk', 'engine', 'campaign')`; // credits, not order refunds
  return {
    ...row,
    style: row.style as Style,
    creditedThisMonth: credited?.total ?? 0n,
    totalAvailableCoins: row.monthlyAllocatedCoins - (credited?.total ?? 0n),
  };
}
