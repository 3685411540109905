// The responsible-gaming gate's refusals over a window for the backoffice's CSV export
// (backoffice/rg-decisions-csv.ts, docs/compliance.md): oldest first, in keyset pages on id, each
// with the partner's own player id beside ours (what a compliance officer searches by).
import { externalIds } from '../customers/external-ids.js';
import type { Db } from '../db.js';
import { keysetPages } from '../keyset.js';
import type { Tenant } from '../tenant.js';

export async function* exportRgDecisions(
  db: Db,
  tenant: Tenant,
  window: { from?: Date | undefined; to?: Date | undefined },
) {
  const createdAt = {
    ...(window.from ? { gte: window.from } : {}),
    ...(window.to ? { lt: window.to } : {}),
  };
  for await (const page of keysetPages(
    (after: string | undefined, take) =>
      db.rgDecision.findMany({
        where: { ...tenant, createdAt, ...(after ? { id: { gt: after } } : {}) },
        orderBy: { id: 'asc' },
        take,
      }),
    (d) => d.id,
  )) {
    const external = await externalIds(
      db,
      tenant,
      page.map((d) => d.customerId),
    );
    yield page.map((d) => ({ ...d, externalId: external.get(d.customerId) ?? null }));
  }
}
