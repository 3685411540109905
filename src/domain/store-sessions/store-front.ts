// What a store session's page shows: the store, the customer's balance and the products of the
// store's catalogs the sub-brand can order, with their coin prices.
import { loadPricing, priceListing } from '../catalog/pricing.js';
import { displayName } from '../catalog/translations.js';
import { visibleCatalogs, visibleListings } from '../catalog/visibility.js';
import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import type { StoreSessionClaims } from './store-session.js';

export async function storeFront(db: Db, claims: StoreSessionClaims) {
  const tenant = { subBrandId: claims.subBrandId, environment: claims.environment };
  const [store, customer, pricing] = await Promise.all([
    db.store.findFirst({
      where: { id: claims.storeId, subBrandId: claims.subBrandId, active: true },
    }),
    db.customer.findFirst({
      where: { id: claims.customerId, ...tenant },
      select: { firstName: true, wallet: { select: { balance: true } } },
    }),
    loadPricing(db, claims.subBrandId),
  ]);
  if (!store || !customer) throw notFound('Store session');
  const listings = await db.listingMarket.findMany({
    where: {
      ...visibleListings(claims.subBrandId, pricing.market),
      variant: {
        product: {
          status: 'active',
          catalogs: {
            some: {
              catalogId: { in: store.catalogIds },
              catalog: visibleCatalogs(claims.subBrandId),
            },
          },
        },
      },
    },
    include: { variant: { include: { product: true } } },
    orderBy: { id: 'asc' },
    take: 200,
  });
  return {
    storeName: store.name,
    customerName: customer.firstName,
    balance: Number(customer.wallet?.balance ?? 0),
    items: listings.map((l) => ({
      listingMarketId: l.id,
      name: displayName(l.variant.product.translations),
      attributes: Object.values(l.variant.attributes as Record<string, string>).join(' · '),
      image: l.variant.product.images[0] ?? null,
      coinPrice: priceListing(l, pricing).coinPrice,
    })),
  };
}
