// Writes a new order's rows in ONE statement: the order, its lines, its first history entry, its
// reservation request, its e-mail to the outbox, and the customer's order count, all only if the
// customer is the tenant's and in a status that may order (the check is the statement's, not a
// read before it). Orders run while other orders wait on the same stock row, so every round
// trip saved here is one less for all of them (docs/performance.md). Foreign keys between the
// CTEs are checked at the end of the statement.
import { queryRawLater } from '../../db/sql.js';
import { Prisma } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { newId } from '../ids.js';
import type { ComposedMessage } from '../notifications/enqueue.js';
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
  /** Customer statuses that may not order: then nothing is written. */
  refusedStatuses: readonly string[];
  /**
   * The creation event's e-mail (enqueueOrderMessage's, composed by the caller), stored when the
   * order has an address: its contact e-mail, else the customer's.
   */
  message: ComposedMessage | null;
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

/** The customer as an order's answer shows them, returned by the insert statement. */
export type OrderCustomer = { email: string | null; firstName: string; lastName: string };

/**
 * Answers the customer, or null, having written nothing, when the customer is not the tenant's or
 * may not order (the caller reads why: that is the rare path).
 */
export async function insertOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  o: NewOrder,
): Promise<OrderCustomer | null> {
  return insertOrderLater(db, tenant, actor, o)();
}

/** insertOrder, sent with the transaction's next statement (queryRawLater); its answer when asked. */
export function insertOrderLater(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  o: NewOrder,
): () => Promise<OrderCustomer | null> {
  const lines = o.lines;
  const col = <K extends keyof NewOrder['lines'][number]>(k: K) => lines.map((l) => l[k]);
  const m = o.message;
  const inserted = queryRawLater<OrderCustomer>(
    db,
    Prisma.sql`
    WITH new_order AS (
      INSERT INTO orders (id, sub_brand_id, environment, customer_id, status, billing_status, currency,
                          total_price, total_coins, recipient_name, shipping_address, reference,
                          exclusive_product_id, contact_email, status_changed_at, created_at, updated_at)
      SELECT ${o.id}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment,
             c.id, 'pending', ${o.billingStatus}::billing_status, ${o.currency},
             ${o.totalPrice}, ${o.totalCoins}::bigint, ${o.recipientName}, ${o.shippingAddress},
             ${o.reference}, ${o.exclusiveProductId}::uuid, ${o.contactEmail},
             ${o.createdAt}, ${o.createdAt}, ${o.createdAt}
      FROM customers c
      WHERE c.id = ${o.customerId}::uuid AND c.sub_brand_id = ${tenant.subBrandId}::uuid
        AND c.environment = ${tenant.environment}::environment
        AND c.status::text <> ALL(${o.refusedStatuses}::text[])
      RETURNING id, customer_id
    ), new_lines AS (
      INSERT INTO order_items (id, order_id, sub_brand_id, environment, customer_id, listing_market_id,
                               product_id, variant_id, product_name, sku, attributes, kind, quantity,
                               unit_price, unit_coins, position)
      SELECT l.id, o.id, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment,
             o.customer_id, l.listing_market_id, l.product_id, l.variant_id, l.product_name, l.sku,
             l.attributes::jsonb, l.kind::product_kind, l.quantity, l.unit_price, l.unit_coins, l.position - 1
      FROM new_order o,
           unnest(${col('id')}::uuid[], ${col('listingMarketId')}::uuid[], ${col('productId')}::uuid[],
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
             customer_id, ${o.requested}::uuid[], ${o.idempotencyKey}, ${actor.apiKeyId}::uuid,
             ${actor.requestId}, ${o.createdAt}
      FROM new_order
    ), new_outbound AS (
      -- Its outbound event (docs/webhooks.md), in the statement that writes it.
      INSERT INTO events (id, sub_brand_id, environment, type, resource_type, resource_id)
      SELECT ${newId()}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment,
             'order.created', 'order', id::text
      FROM new_order
    ), new_message AS (
      INSERT INTO notifications (id, sub_brand_id, environment, order_id, event_id, template, recipient,
                                 subject, html, text, next_attempt_at, created_at)
      SELECT ${m?.id ?? null}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment, o.id,
             ${o.eventId}::uuid, ${m?.template ?? null}, coalesce(${o.contactEmail}, c.email),
             ${m?.subject ?? null}, ${m?.html ?? null}, ${m?.text ?? null}, ${o.createdAt}, ${o.createdAt}
      FROM new_order o JOIN customers c ON c.id = o.customer_id
      WHERE ${m !== null}::boolean AND coalesce(${o.contactEmail}, c.email) IS NOT NULL
    )
    UPDATE customers SET order_count = order_count + 1 WHERE id = (SELECT customer_id FROM new_order)
    RETURNING email, first_name AS "firstName", last_name AS "lastName"`,
  );
  return async () => (await inserted())[0] ?? null;
}

/**
 * An order as a read with its lines, history, reservation id, and the customer's and sub-brand's
 * fields an order's views show, answers it (src/schema/written-order.ts says when it suffices).
 */
export type WrittenOrder = Prisma.OrderGetPayload<{
  include: {
    items: true;
    events: true;
    reservation: { select: { id: true } };
    customer: { select: { email: true; firstName: true; lastName: true } };
    subBrand: { select: { name: true; imageUrl: true; thumbnailUrl: true } };
  };
}> & {
  /** Changed after it was written (delivered at once by its codes): read it back to answer. */
  stale?: boolean;
  /** The customer's balance after the order's debit, when it moved coins: the answer's, unread. */
  balanceAfter?: number;
};

/**
 * The rows insertOrder wrote, as reading them back would answer them (no column is left to a
 * database default): an order's answer without a read after the write, which would cost a round
 * trip and, through Prisma, a transaction of its own (docs/performance.md). The type makes a
 * new column an error here until it is set.
 */
export function writtenOrder(
  tenant: Tenant,
  actor: Actor,
  o: NewOrder,
  related: Pick<WrittenOrder, 'customer' | 'subBrand'>,
): WrittenOrder {
  const common = {
    subBrandId: tenant.subBrandId,
    environment: tenant.environment,
    customerId: o.customerId,
  };
  return {
    id: o.id,
    ...common,
    status: 'pending',
    billingStatus: o.billingStatus,
    currency: o.currency,
    totalPrice: o.totalPrice,
    totalCoins: BigInt(o.totalCoins),
    recipientName: o.recipientName,
    shippingAddress: o.shippingAddress,
    reference: o.reference,
    exclusiveProductId: o.exclusiveProductId,
    contactEmail: o.contactEmail,
    deliveryFirstName: null,
    deliveryLastName: null,
    deliveryAddressLine1: null,
    deliveryAddressLine2: null,
    deliveryCity: null,
    deliveryProvince: null,
    deliveryCountry: null,
    deliveryPostalCode: null,
    deliveryEmail: null,
    deliveryCapturedAt: null,
    stockConsumedAt: null,
    statusChangedAt: o.createdAt,
    createdAt: o.createdAt,
    updatedAt: o.createdAt,
    items: o.lines.map((l, position) => ({
      id: l.id,
      orderId: o.id,
      ...common,
      listingMarketId: l.listingMarketId,
      productId: l.productId,
      variantId: l.variantId,
      productName: l.productName,
      sku: l.sku,
      attributes: (l.attributes ?? {}) as Prisma.JsonValue,
      kind: l.kind,
      quantity: l.quantity,
      unitPrice: l.unitPrice,
      unitCoins: BigInt(l.unitCoins),
      carrier: null,
      trackingCode: null,
      trackingUrl: null,
      trackingUpdatedAt: null,
      position,
    })),
    events: [
      {
        id: o.eventId,
        orderId: o.id,
        kind: 'status',
        fromStatus: null,
        toStatus: 'pending',
        detail: { listing_market_ids: o.requested },
        apiKeyId: actor.apiKeyId,
        requestId: actor.requestId,
        staffUserId: null,
        createdAt: o.createdAt,
      },
    ],
    reservation: { id: o.reservationId },
    ...related,
  };
}
