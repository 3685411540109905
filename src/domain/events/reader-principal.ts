// The principal the relay renders a tenant's events as (docs/webhooks.md): that tenant, every
// read scope, no key. It reads what the tenant's own keys read, through the same fields, and
// nothing else.
import type { Db } from '../db.js';
import type { Principal } from '../tenancy/authenticate-api-key.js';
import { KEY_SCOPES } from '../tenancy/scopes.js';
import type { Tenant } from '../tenant.js';

const READS = new Set<string>(KEY_SCOPES.filter((s) => s.endsWith(':read')));

export async function readerPrincipal(db: Db, tenant: Tenant): Promise<Principal | null> {
  const subBrand = await db.subBrand.findUnique({
    where: { id: tenant.subBrandId },
    select: { brandId: true, country: true, currency: true },
  });
  if (!subBrand) return null; // deleted since: its events go with it
  return {
    keyId: 'event-relay',
    subBrandId: tenant.subBrandId,
    brandId: subBrand.brandId,
    environment: tenant.environment,
    scopes: READS,
    allowedCidrs: [],
    readLimit: null,
    writeLimit: null,
    isPlatformAdmin: false,
    market:
      subBrand.country && subBrand.currency
        ? { country: subBrand.country, currency: subBrand.currency }
        : null,
  };
}
