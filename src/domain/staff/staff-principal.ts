// A staff member's request acts on one sub-brand in one environment, chosen in the backoffice
// (X-Sub-Brand-Id, X-Environment). That choice becomes a Principal like an API key's, so the
// schema's tenancy and scope checks apply to people unchanged.
import type { Environment } from '../../generated/prisma/enums.js';
import type { Db } from '../db.js';
import { AppError, notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import type { Principal } from '../tenancy/authenticate-api-key.js';
import { reachableSubBrands, scopesOfRole, STAFF_LIMITS, type StaffIdentity } from './roles.js';

export type SubBrandChoice = { id: string; name: string; brandName: string; isPlatform: boolean };

/** The sub-brands this staff member may act on, platform first, then by brand and name. */
export async function subBrandsOf(db: Db, staff: StaffIdentity, limit = 500) {
  const rows = await db.subBrand.findMany({
    where: reachableSubBrands(staff),
    select: { id: true, name: true, isPlatform: true, brand: { select: { name: true } } },
    orderBy: [{ isPlatform: 'desc' }, { brandId: 'asc' }, { name: 'asc' }],
    take: limit,
  });
  return rows.map((r): SubBrandChoice => ({
    id: r.id,
    name: r.name,
    brandName: r.brand.name,
    isPlatform: r.isPlatform,
  }));
}

/**
 * The Principal for a staff request on `subBrandId` (default: the member's own sub-brand, else
 * the first it may reach). A sub-brand it may not reach is "not found", as another tenant's
 * record is for a key.
 */
export async function principalForStaff(
  db: Db,
  staff: StaffIdentity,
  choice: { subBrandId?: string | undefined; environment: Environment },
): Promise<Principal> {
  if (staff.twoFactor === 'setup_required')
    throw new AppError(
      'forbidden',
      'Your brand requires two-factor sign-in: set it up on your account page first.',
    );
  const wanted = choice.subBrandId ?? staff.subBrandId;
  if (wanted !== null && wanted !== undefined && !isUuid(wanted)) throw notFound('Sub-brand');
  const subBrand = await db.subBrand.findFirst({
    where: { AND: [reachableSubBrands(staff), wanted ? { id: wanted } : {}] },
    orderBy: [{ isPlatform: 'desc' }, { id: 'asc' }],
    select: { id: true, brandId: true, country: true, currency: true },
  });
  if (!subBrand) throw notFound('Sub-brand');
  const scopes = scopesOfRole(staff.role);
  return {
    keyId: `staff:${staff.userId}`,
    subBrandId: subBrand.id,
    brandId: subBrand.brandId,
    environment: choice.environment,
    scopes: new Set(scopes),
    allowedCidrs: [],
    readLimit: STAFF_LIMITS.read,
    writeLimit: STAFF_LIMITS.write,
    isPlatformAdmin: staff.role === 'platform_admin',
    market: subBrand.country ? { country: subBrand.country, currency: subBrand.currency } : null,
    staff,
  };
}
