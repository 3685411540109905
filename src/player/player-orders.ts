// The player's prizes ("My prizes"): their orders, newest first, with what each line is, its
// tracking, the codes of digital prizes delivered by code, the tracking page's link and whether
// the player may still cancel it. Only the session's customer's orders, in its environment.
import { textsIn } from '../domain/catalog/translations.js';
import type { Db } from '../domain/db.js';
import { notFound } from '../domain/errors.js';
import { isUuid } from '../domain/ids.js';
import { codesOf } from '../domain/orders/digital-codes.js';
import { trackPath, trackToken } from '../domain/orders/track-token.js';
import type { Tenant } from '../domain/tenant.js';

export const PLAYER_ORDERS_MAX = 50;

const INCLUDE = {
  items: { orderBy: { position: 'asc' as const } },
  events: { orderBy: { id: 'asc' as const } },
};

type OrderRow = Awaited<ReturnType<typeof readOrders>>[number];

const readOrders = (db: Db, tenant: Tenant, customerId: string, id?: string) =>
  db.order.findMany({
    where: { ...tenant, customerId, ...(id ? { id } : {}) },
    include: INCLUDE,
    orderBy: { id: 'desc' },
    take: PLAYER_ORDERS_MAX,
  });

export async function playerOrders(
  db: Db,
  tenant: Tenant,
  customerId: string,
  lang: string,
  baseUrl: string,
) {
  const orders = await readOrders(db, tenant, customerId);
  return present(db, orders, lang, baseUrl);
}

export async function playerOrder(
  db: Db,
  tenant: Tenant,
  customerId: string,
  id: string,
  lang: string,
  baseUrl: string,
) {
  const orders = isUuid(id) ? await readOrders(db, tenant, customerId, id) : [];
  if (!orders.length) throw notFound('Order');
  return (await present(db, orders, lang, baseUrl))[0]!;
}

async function present(db: Db, orders: OrderRow[], lang: string, baseUrl: string) {
  const items = orders.flatMap((o) => o.items);
  const [codes, products] = await Promise.all([
    codesOf(
      db,
      items.filter((i) => i.kind === 'digital').map((i) => i.id),
    ),
    db.product.findMany({
      where: { id: { in: [...new Set(items.map((i) => i.productId))] } },
      select: { id: true, translations: true, images: true },
    }),
  ]);
  return Promise.all(
    orders.map(async (o) => ({
      id: o.id,
      reference: o.reference,
      status: o.status,
      createdAt: o.createdAt,
      totalCoins: Number(o.totalCoins),
      // Before shipping, and never once a code was shown (it cannot be taken back).
      cancellable:
        (o.status === 'pending' || o.status === 'processing') &&
        !o.items.some((i) => codes.has(i.id)),
      recipientName: o.recipientName,
      shippingAddress: o.shippingAddress,
      trackUrl: `${baseUrl}${trackPath(await trackToken(db, o.id))}`,
      items: o.items.map((i) => {
        const product = products.find((p) => p.id === i.productId);
        return {
          id: i.id,
          name: (product && textsIn(product.translations, lang)?.name) || i.productName,
          image: product?.images[0] ?? null,
          label: Object.values((i.attributes ?? {}) as Record<string, unknown>).join(' · '),
          kind: i.kind,
          quantity: i.quantity,
          coins: Number(i.unitCoins) * i.quantity,
          carrier: i.carrier,
          trackingCode: i.trackingCode,
          trackingUrl: i.trackingUrl,
          codes: codes.get(i.id) ?? [],
        };
      }),
      history: o.events
        .filter((e) => e.kind === 'status' && e.toStatus)
        .map((e) => ({ status: e.toStatus!, at: e.createdAt })),
    })),
  );
}
