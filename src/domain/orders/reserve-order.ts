// Reserving an order (POST /api/v1/orders): one transaction that snapshots the prices, spends
// the customer's coins through the one ledger function, takes the stock, and reserves a prepaid
// brand's money. Either all of it happens or none (short coins or stock: nothing is created).
// It answers the order as written (insert-order.ts, `writtenOrder`), without reading it back.
import type { z } from 'zod';
import { displayName } from '../catalog/translations.js';
import { orderableListings, type OrderableListing } from '../catalog/orderable-listings.js';
import { loadPricing, priceListing, type Pricing } from '../catalog/pricing.js';
import { sqlFor, txSqlFor } from '../../db/sql.js';
import type { Db } from '../db.js';
import { inTransaction } from '../db.js';
import { AppError, invalidRequest, notFound } from '../errors.js';
import { idTime, newId } from '../ids.js';
import { moveCoinsLater } from '../ledger/move-coins.js';
import type { Actor, Tenant } from '../tenant.js';
import { parseInput } from '../validation.js';
import { movePrepaid, movePrepaidAtCommit, prepaidBalanceLater } from './prepaid.js';
import {
  insertOrderLater,
  writtenOrder,
  type NewOrder,
  type OrderCustomer,
  type WrittenOrder,
} from './insert-order.js';
import { reserveOrderInput } from './schemas.js';
import { takeStockLater } from './stock.js';
import { takeDigitalCodes } from './digital-codes.js';
import { completeOrder } from './fulfil-order.js';
import { composeOrderMessage } from '../notifications/enqueue.js';
import { isUniqueViolation } from '../prisma-errors.js';
import { newReference } from './reference.js';

/**
 * insertOrder's answer, with its refusals as the domain's errors: the open-reservation index's,
 * and a customer who is not the tenant's or may not redeem (read again to say which).
 */
async function insertedOrRefused(
  inserted: () => Promise<OrderCustomer | null>,
  tx: Db,
  tenant: Tenant,
  order: NewOrder,
): Promise<OrderCustomer> {
  try {
    const customer = await inserted();
    if (customer) return customer;
  } catch (error) {
    if (order.exclusiveProductId && isUniqueViolation(error)) {
      throw new AppError(
        'duplicate_reservation',
        'The player already has an open reservation of this product.',
      );
    }
    throw error;
  }
  const {
    rows: [customer],
  } = await sqlFor(tx).query<{ status: string }>(
    `SELECT status FROM customers
     WHERE id = $1::uuid AND sub_brand_id = $2::uuid AND environment = $3::environment`,
    [order.customerId, tenant.subBrandId, tenant.environment],
  );
  if (!customer) throw notFound('Customer');
  const { status } = customer;
  throw new AppError(
    'customer_not_eligible',
    NOT_ELIGIBLE.includes(status)
      ? `The customer's status is ${status}: ${status} customers cannot redeem.`
      : // Changed between the two statements: refused under the old one.
        "The customer's status changed while the order was placed: try again.",
  );
}

/** Customers under these statuses may not redeem (docs/catalog-and-orders.md). */
const NOT_ELIGIBLE = ['restricted', 'banned'];

export async function reserveOrder(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  input: z.input<typeof reserveOrderInput>,
  options: {
    idempotencyKey: string | null;
    /**
     * Set by establishment reservations only (docs/establishment-api.md, "Orders"): at most one
     * open order of this product per customer (a second is `duplicate_reservation`, race-safe
     * through a partial unique index); delivery details may come later (send), and the order
     * keeps the e-mail the reservation named.
     */
    establishment?: { exclusiveProductId: string; contactEmail: string | null };
    /** The sub-brand's pricing when the caller read it already (in this transaction). */
    pricing?: Pricing;
    /** The requested listings when the caller read them already (in this transaction). */
    listings?: OrderableListing[];
  },
): Promise<WrittenOrder> {
  const data = parseInput(reserveOrderInput, input);
  const requested = data.listingMarketIds ?? [data.listingMarketId!];

  return inTransaction(db, async (tx) => {
    const pricing = options.pricing ?? (await loadPricing(tx, tenant.subBrandId));
    const { prepaid, brandId } = pricing.billing;
    // A prepaid brand's balance as the snapshot sees it, read with the listings: when it covers
    // the order, the money is reserved with the COMMIT (below).
    const sql = txSqlFor(tx);
    const seenBalance =
      prepaid && pricing.market && sql?.optimistic
        ? prepaidBalanceLater(tx, {
            brandId,
            environment: tenant.environment,
            currency: pricing.market.currency,
          })
        : null;
    const distinct = [...new Set(requested)];
    const listings =
      options.listings ??
      (await orderableListings(tx, tenant.subBrandId, pricing.market, { ids: distinct }));
    const byId = new Map(listings.map((l) => [l.id, l]));
    const missing = distinct.filter((id) => !byId.has(id));
    if (missing.length) {
      throw new AppError(
        'not_found',
        `Listing ${missing.join(', ')} not found: listing ids come from the listings of a product this key can see.`,
      );
    }

    const lines = distinct.map((id) => {
      const listing = byId.get(id)!;
      const product = listing.variant.product;
      return {
        listing,
        quantity: requested.filter((r) => r === id).length,
        name: displayName(product.translations),
        kind: product.kind,
        ...priceListing(listing, pricing),
      };
    });
    if (!options.establishment && lines.some((l) => l.kind === 'physical')) {
      const issues = [
        !data.recipientName && {
          field: 'recipient_name',
          code: 'required' as const,
          message: 'is required for physical prizes',
        },
        !data.shippingAddress && {
          field: 'shipping_address',
          code: 'required' as const,
          message: 'is required for physical prizes',
        },
      ].filter((i) => i !== false);
      if (issues.length) throw invalidRequest(issues);
    }

    const id = newId();
    const totalPrice = lines.reduce((sum, l) => sum + l.sellPrice * l.quantity, 0);
    const totalCoins = lines.reduce((sum, l) => sum + l.coinPrice * l.quantity, 0);
    const currency = pricing.market!.currency;

    // Its e-mail is composed now and written with the order (the facts are all in hand).
    const reference = newReference();
    const first = lines[0]!;
    const message = await composeOrderMessage(
      tx,
      {
        orderId: id,
        reference,
        establishment: pricing.subBrand.name,
        locale: pricing.subBrand.locale,
        productName: first.name.slice(0, 200),
        translations: first.listing.variant.product.translations,
        itemCount: lines.length,
      },
      'reserved',
    );

    // The rows first, the contended locks last (wallet, then stock, then the prepaid account),
    // so the hot rows are held for as short a time as possible before the commit.
    const written: NewOrder = {
      id,
      createdAt: idTime(id),
      customerId: data.customerId,
      billingStatus: prepaid ? 'reserved' : 'not_applicable',
      currency,
      totalPrice,
      totalCoins,
      recipientName: data.recipientName ?? null,
      shippingAddress: data.shippingAddress ?? null,
      reference,
      exclusiveProductId: options.establishment?.exclusiveProductId ?? null,
      contactEmail: options.establishment?.contactEmail ?? null,
      requested,
      idempotencyKey: options.idempotencyKey,
      eventId: newId(),
      reservationId: newId(),
      refusedStatuses: NOT_ELIGIBLE,
      message,
      lines: lines.map((l) => ({
        id: newId(),
        listingMarketId: l.listing.id,
        productId: l.listing.productId,
        variantId: l.listing.variantId,
        productName: l.name.slice(0, 200),
        sku: l.listing.variant.sku,
        attributes: l.listing.variant.attributes,
        kind: l.kind,
        quantity: l.quantity,
        unitPrice: l.sellPrice,
        unitCoins: l.coinPrice,
      })),
    };
    // The order's rows, its debit and its stock go in one round trip (db/sql.ts, queryLater):
    // none needs another's answer, only its success, and the first refusal read below rolls all
    // three back. Two round trips fewer for every order, while the customer's wallet and the
    // stock rows are locked.
    const inserted = insertOrderLater(tx, tenant, actor, written);
    const debit =
      totalCoins > 0
        ? moveCoinsLater(
            tx,
            tenant,
            { customerId: data.customerId, delta: -totalCoins, reason: `order:${id}` },
            { ...actor, source: 'order' },
          )
        : null;
    const taken = takeStockLater(
      tx,
      tenant.environment,
      lines.map((l) => ({ variantId: l.listing.variantId, quantity: l.quantity })),
    );
    const customer = await insertedOrRefused(inserted, tx, tenant, written);
    // The answer is what was written; only its billing status can change below.
    const { name, imageUrl, thumbnailUrl } = pricing.subBrand;
    const order = writtenOrder(tenant, actor, written, {
      customer,
      subBrand: { name, imageUrl, thumbnailUrl },
    });
    if (debit) order.balanceAfter = (await debit()).balanceAfter;

    const { short } = await taken();
    if (short.length) {
      const skus = short.map((s) => {
        const line = lines.find((l) => l.listing.variantId === s.variantId)!;
        return `${line.listing.variant.sku} (${s.available} left, ${line.quantity} asked)`;
      });
      throw new AppError('out_of_stock', `Out of stock: ${skus.join(', ')}. Nothing was reserved.`);
    }

    // Digital prizes delivered by code: one per unit, and an order made only of them is delivered
    // at once (the player reads the codes on the page); it is then read back, not answered as
    // written.
    const coded = written.lines.filter((l, i) => lines[i]!.listing.variant.deliversCodes);
    if (coded.length) {
      const now = new Date();
      if (
        !(await takeDigitalCodes(
          tx,
          tenant.environment,
          coded.map((l) => ({ orderItemId: l.id, variantId: l.variantId, quantity: l.quantity })),
          now,
        ))
      )
        throw new AppError(
          'out_of_stock',
          'Out of stock: no code is left for this prize. Nothing was reserved.',
        );
      if (coded.length === lines.length) {
        await completeOrder(tx, tenant, actor, id, now);
        order.stale = true;
      }
    }

    const account = { brandId, environment: tenant.environment, currency };
    if (prepaid && sql && totalPrice > 0 && ((await seenBalance?.()) ?? -1n) >= totalPrice) {
      // Every order of the brand locks this one balance: sent with the COMMIT, it is held for the
      // database's time only. Spent meanwhile by another order, it fails, and the order runs
      // again from the start and takes the path below (prepaid.ts, movePrepaidAtCommit).
      movePrepaidAtCommit(sql, account, -totalPrice, `order:${id}`, id);
    } else if (prepaid) {
      const balance = await movePrepaid(tx, account, -totalPrice, `order:${id}`, id);
      // Short prepaid money does not fail the order (spec): it waits, blocked, for a top-up.
      if (balance === null) {
        // On the driver: through Prisma this would open a Prisma transaction inside the order's,
        // while the wallet, the stock and the balance are locked (every order of a brand whose
        // money ran out comes here).
        await sqlFor(tx).query(
          `UPDATE orders SET billing_status = 'blocked_balance', updated_at = now()
           WHERE id = $1::uuid AND sub_brand_id = $2::uuid`,
          [id, tenant.subBrandId],
        );
        order.billingStatus = 'blocked_balance';
      }
    }
    return order;
  });
}
