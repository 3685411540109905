import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { likeEscape } from '../validation.js';
import type { SearchHit } from './hit.js';

/**
 * The tenant's products (its own, or listed for it in any market; never deleted ones) whose
 * name or description contains the term in any language: products.search_text, lower-cased and
 * served by its trigram index, as the establishment API's product search. The products screen is
 * platform admins' only, so only they get a path to open.
 */
export async function searchProducts(
  db: Db,
  tenant: Tenant,
  term: string,
  limit: number,
  opts: { platformAdmin: boolean },
): Promise<SearchHit[]> {
  const like = `%${likeEscape(term.toLowerCase())}%`;
  const rows = await db.$queryRaw<{ id: string; name: string | null; status: string }[]>(
    Prisma.sql`
      SELECT p.id::text AS id, p.translations->'en'->>'name' AS name, p.status::text AS status
      FROM products p
      WHERE p.deleted_at IS NULL AND p.search_text LIKE ${like}
        AND (p.owner_sub_brand_id = ${tenant.subBrandId}::uuid
             OR EXISTS (SELECT 1 FROM listing_markets l
                        WHERE l.product_id = p.id AND l.sub_brand_id = ${tenant.subBrandId}::uuid))
      ORDER BY p.id DESC
      LIMIT ${limit}`,
  );
  return rows.map((p) => ({
    kind: 'product' as const,
    id: p.id,
    title: p.name ?? p.id,
    subtitle: `product · ${p.status}`,
    url: opts.platformAdmin ? `/catalog/products/${p.id}` : null,
  }));
}
