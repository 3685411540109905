// What the marketplace's pages need before the app runs: the establishment's look (name, logo,
// coin name, language, style) and who may frame them (its frame-ancestors allowlist).
import type { Environment } from '../generated/prisma/enums.js';
import type { Db } from '../domain/db.js';
import type { Style } from '../domain/establishments/schemas.js';
import { languageOf, type MarketplaceLanguage } from './language.js';

export type EstablishmentLook = {
  name: string;
  logoUrl: string | null;
  coinName: string;
  style: Style;
  lang: MarketplaceLanguage;
  frameOrigins: string[];
};

export async function establishmentLook(
  db: Db,
  subBrandId: string,
  customer?: { id: string; environment: Environment },
): Promise<EstablishmentLook | null> {
  const [subBrand, person] = await Promise.all([
    db.subBrand.findUnique({
      where: { id: subBrandId },
      select: {
        name: true,
        imageUrl: true,
        thumbnailUrl: true,
        coinName: true,
        style: true,
        locale: true,
        frameOrigins: true,
      },
    }),
    customer
      ? db.customer.findFirst({
          where: { id: customer.id, subBrandId, environment: customer.environment },
          select: { preferredLang: true },
        })
      : null,
  ]);
  if (!subBrand) return null;
  return {
    name: subBrand.name,
    logoUrl: subBrand.thumbnailUrl ?? subBrand.imageUrl,
    coinName: subBrand.coinName,
    style: subBrand.style as Style,
    lang: languageOf(person?.preferredLang, subBrand.locale),
    frameOrigins: subBrand.frameOrigins,
  };
}

/**
 * The CSP `frame-ancestors` of an establishment's pages: its allowlist; without one, no page in
 * live and any page in test (so an integration can be tried before the allowlist is set).
 */
export function frameAncestors(origins: string[], environment: Environment): string {
  if (origins.length) return origins.join(' ');
  return environment === 'test' ? '*' : "'none'";
}
