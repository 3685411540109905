// What the public tracking page shows of an order: its reference, product, status, tracking
// number and the dated history of its status. Nothing about the person: no name, address,
// e-mail or coins (the link may be forwarded).
import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { operationsOf } from './order-operations.js';
import { verifyTrackToken } from './track-token.js';

export async function trackingView(db: Db, token: string) {
  const id = await verifyTrackToken(db, token);
  const order = id
    ? await db.order.findUnique({
        where: { id },
        select: {
          subBrandId: true,
          environment: true,
          reference: true,
          status: true,
          createdAt: true,
          subBrand: { select: { name: true } },
          items: {
            select: { productName: true, trackingCode: true, carrier: true },
            orderBy: { position: 'asc' },
          },
          events: {
            select: { id: true, kind: true, fromStatus: true, toStatus: true, createdAt: true },
            orderBy: { id: 'asc' },
          },
        },
      })
    : null;
  if (!order) throw notFound('Order');
  return {
    subBrandId: order.subBrandId,
    environment: order.environment,
    reference: order.reference,
    establishment: order.subBrand.name,
    status: order.status,
    products: order.items.map((i) => i.productName),
    tracking: [...new Set(order.items.map((i) => i.trackingCode).filter((c): c is string => !!c))],
    history: order.events
      .filter((e) => e.kind === 'status' || e.kind === 'tracking')
      .map((e) => ({
        at: e.createdAt,
        what: e.kind === 'tracking' ? 'tracking number registered' : (e.toStatus ?? ''),
      })),
    operations: operationsOf(order),
  };
}
