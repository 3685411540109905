import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { likeEscape } from '../validation.js';
import type { SearchHit } from './hit.js';

/**
 * The tenant's campaigns (templates too, not deleted ones) whose title contains the term, any
 * case; newest first. A tenant has hundreds of campaigns, not millions: the (sub_brand_id,
 * environment, id) index bounds the read to its own.
 */
export async function searchCampaigns(
  db: Db,
  tenant: Tenant,
  term: string,
  limit: number,
): Promise<SearchHit[]> {
  const rows = await db.campaign.findMany({
    where: {
      subBrandId: tenant.subBrandId,
      environment: tenant.environment,
      deletedAt: null,
      title: { contains: likeEscape(term), mode: 'insensitive' },
    },
    select: { id: true, title: true, type: true, status: true, isTemplate: true, startsAt: true },
    orderBy: { id: 'desc' },
    take: limit,
  });
  return rows.map((c) => ({
    kind: 'campaign' as const,
    id: c.id,
    title: c.title,
    subtitle: [
      c.isTemplate ? 'template' : c.status,
      c.type.replace(/_/g, ' '),
      `starts ${c.startsAt.toISOString().slice(0, 10)}`,
    ].join(' · '),
    url: `/campaigns/${c.id}`,
  }));
}
