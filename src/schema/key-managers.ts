// Who manages API keys: platform admins for every sub-brand; a brand admin (a person) for the
// sub-brands of its brand, never the platform's (issue 14). Everyone else manages none. A
// sub-brand out of reach is "not found", as another tenant's record is.
import { AppError, notFound } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import type { GraphQLContext } from './context.js';

/** The sub-brands the caller manages keys of, as a Prisma `where`; null: none. */
export function keyManagerWhere(
  ctx: GraphQLContext,
): { brandId?: string; isPlatform?: boolean } | null {
  if (ctx.principal.isPlatformAdmin) return {};
  const staff = ctx.principal.staff;
  if (staff?.role === 'brand_admin' && staff.brandId) {
    return { brandId: staff.brandId, isPlatform: false };
  }
  return null;
}

/**
 * Throws unless the caller manages `subBrandId` (its keys, its coin expiry): `forbidden` for one
 * who manages none, "not found" for a sub-brand out of reach. `what` ends the refusal's sentence.
 */
export async function assertManagesSubBrand(
  ctx: GraphQLContext,
  subBrandId: string,
  what: string,
): Promise<void> {
  const reach = keyManagerWhere(ctx);
  if (!reach) throw new AppError('forbidden', `Only platform admins and brand admins ${what}.`);
  if (ctx.principal.isPlatformAdmin) return; // the domain says "not found" for an unknown id
  const found =
    isUuid(subBrandId) &&
    (await ctx.db.subBrand.findFirst({
      where: { ...reach, id: subBrandId },
      select: { id: true },
    }));
  if (!found) throw notFound('Sub-brand');
}

/** Throws unless the caller may mint and revoke the keys of `subBrandId`. */
export const assertManagesKeysOf = (ctx: GraphQLContext, subBrandId: string) =>
  assertManagesSubBrand(ctx, subBrandId, 'manage API keys');
