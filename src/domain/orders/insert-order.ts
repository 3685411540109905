// Writes a new order's rows in ONE statement: the order, its lines, its first history entry, its
// reservation request, and the customer's order count. Orders run while other orders wait on
// the same stock row, so every round trip saved here is one less for all of them (see
// docs/performance.md). Foreign keys between the CTEs are checked at the end of the statement.
import { executeRaw } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import type { Actor, Tenant } from '../tenant.js';

export type NewOrder = {
  id: string;
  createdAt: Date;
  customerId: string;
  billingStatus: 'not_applicable' | 'reserved';
  currency: string;
  totalPrice: number;
  totalCoins: number;
  recipientName: string | null;
  shippingAddress: string | null;
  reference: string;
  /** Establishment reservations: the product a customer may hold one open order of. */
  exclusiveProductId: string | null;
  contactEmail: string | null;
  requested: string[];
  idempotencyKey: string | null;
  eventId: string;
  reservationId: string;
  lines: {
    id: string;
    listingMarketId: string;
    productId: string;
    variantId: string;
    productName: string;
    sku: string;
    attributes: unknown;
    kind: 'physical' | 'digital';
    quantity: number;
    unitPrice: number;
    unitCoins: number;
  }[];
};

export async function insertOrder(db: Db, tenant: Tenant, actor: Actor, o: NewOrder) {
  const lines = o.lines;
  const col = <K extends keyof NewOrder['lines'][number]>(k: K) => lines.map((l) => l[k]);
  await executeRaw(
    db,
    Prisma.sql`
    WITH new_order AS (
      INSERT INTO orders (id, sub_brand_id, environment, customer_id, status, billing_status, currency,
                          total_price, total_coins, recipient_name, shipping_address, reference,
                          exclusive_product_id, contact_email, status_changed_at, created_at, updated_at)
      VALUES (${o.id}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment,
              ${o.customerId}::uuid, 'pending', ${o.billingStatus}::billing_status, ${o.currency},
              ${o.totalPrice}, ${o.totalCoins}::bigint, ${o.recipientName}, ${o.shippingAddress},
              ${o.reference}, ${o.exclusiveProductId}::uuid, ${o.contactEmail},
              ${o.createdAt}, ${o.createdAt}, ${o.createdAt})
      RETURNING id
    ), new_lines AS (
      INSERT INTO order_items (id, order_id, sub_brand_id, environment, customer_id, listing_market_id,
                               product_id, variant_id, product_name, sku, attributes, kind, quantity,
                               unit_price, unit_coins, position)
      SELECT l.id, (SELECT id FROM new_order), ${tenant.subBrandId}::uuid, ${tenant.environment}::environment,
             ${o.customerId}::uuid, l.listing_market_id, l.product_id, l.variant_id, l.product_name, l.sku,
             l.attributes::jsonb, l.kind::product_kind, l.quantity, l.unit_price, l.unit_coins, l.position - 1
      FROM unnest(${col('id')}::uuid[], ${col('listingMarketId')}::uuid[], ${col('productId')}::uuid[],
                  ${col('variantId')}::uuid[], ${col('productName')}::text[], ${col('sku')}::text[],
                  ${lines.map((l) => JSON.stringify(l.attributes ?? {}))}::text[], ${col('kind')}::text[],
                  ${col('quantity')}::int[], ${col('unitPrice')}::int[], ${col('unitCoins')}::bigint[])
        WITH ORDINALITY AS l(id, listing_market_id, product_id, variant_id, product_name, sku, attributes,
                             kind, quantity, unit_price, unit_coins, position)
    ), new_event AS (
      INSERT INTO order_events (id, order_id, kind, to_status, detail, api_key_id, request_id, created_at)
      SELECT ${o.eventId}::uuid, id, 'status', 'pending', ${JSON.stringify({ listing_market_ids: o.requested })}::jsonb,
             ${actor.apiKeyId}::uuid, ${actor.requestId}, ${o.createdAt}
      FROM new_order
    ), new_reservation AS (
      INSERT INTO order_reservations (id, sub_brand_id, environment, order_id, customer_id, listing_market_ids,
                                      idempotency_key, api_key_id, request_id, created_at)
      SELECT ${o.reservationId}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment, id,
             ${o.customerId}::uuid, ${o.requested}::uuid[], ${o.idempotencyKey}, ${actor.apiKeyId}::uuid,
             ${actor.requestId}, ${o.createdAt}
      FROM new_order
    )
    UPDATE customers SET order_count = order_count + 1 WHERE id = ${o.customerId}::uuid`,
  );
}
