// The customer list's registration-window filter, made cheap when the window is narrow.
//
// The list reads newest first (id order) and stops at a page. With a registration window,
// PostgreSQL walks the ids from the newest and checks each one's registration time: fine when
// matches are everywhere, but a narrow window far in the past (players registered long ago are
// usually mirrored in early, so their ids are old too) made it walk the whole tenant: 233 ms at
// 1,000,000 customers. The planner cannot know that the two orders are correlated. So, first,
// one bounded read of the (tenant, registered_at, id) index: when the window holds at most
// NARROW customers, their lowest and highest ids bound the walk to where they are. When the
// window is wider, or the orders are not correlated, the bounds change nothing and the read cost
// at most NARROW index entries.
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import type { CustomerFilter } from './schemas.js';

// No min(uuid) in PostgreSQL: ids compare as their canonical text, byte for byte (COLLATE "C").
const NARROW = 50_000;

export async function registeredWindowBounds(
  db: Db,
  tenant: Tenant,
  f: CustomerFilter,
): Promise<Prisma.CustomerWhereInput | null> {
  if (!f.registeredAfter && !f.registeredBefore) return null;
  const [window] = await db.$queryRaw<{ n: number; low: string | null; high: string | null }[]>`
    SELECT count(*)::int AS n, min(id::text COLLATE "C") AS low, max(id::text COLLATE "C") AS high FROM (
      SELECT id FROM customers
      WHERE sub_brand_id = ${tenant.subBrandId}::uuid
        AND environment = ${tenant.environment}::environment
        ${f.registeredAfter ? Prisma.sql`AND platform_registered_at >= ${f.registeredAfter}` : Prisma.empty}
        ${f.registeredBefore ? Prisma.sql`AND platform_registered_at < ${f.registeredBefore}` : Prisma.empty}
      LIMIT ${NARROW + 1}) AS w`;
  if (!window || window.n > NARROW) return null;
  // An empty window: no id can match (the list answers an empty page without walking).
  if (window.n === 0) return { id: { in: [] } };
  return { id: { gte: window.low!, lte: window.high! } };
}
