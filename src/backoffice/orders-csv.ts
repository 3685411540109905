// GET /admin/api/orders.csv: the chosen tenant's orders, filtered as the Orders screen filters
// them (the same orderWhere and orderFilter as GraphQL's `orders`), newest first, streamed in
// pages of 500 (keyset on id), each order's items in one cell. The read is audited. The rows come
// from domain/orders/export-orders.ts; this file parses the filter and writes them as CSV.
import type { Request, Response } from 'express';
import type { Db } from '../domain/db.js';
import { exportOrders } from '../domain/orders/export-orders.js';
import { orderSearchFilter } from '../domain/orders/schemas.js';
import { parseInput } from '../domain/validation.js';
import { exportTenant, queryText, streamCsv, type PageRow } from './csv-response.js';

const COLUMNS = [
  'id',
  'reference',
  'created_at',
  'status',
  'status_changed_at',
  'billing_status',
  'customer_id',
  'external_id',
  'total_coins',
  'total_price',
  'currency',
  'items',
  'tracking',
  'recipient_name',
  'shipping_address',
  'contact_email',
];

export async function exportOrdersCsv(db: Db, req: Request, res: Response): Promise<void> {
  const filter = parseInput(orderSearchFilter, {
    status: queryText(req, 'status'),
    customerId: queryText(req, 'customerId'),
    createdAfter: queryText(req, 'createdAfter'),
    createdBefore: queryText(req, 'createdBefore'),
    q: queryText(req, 'q'),
  });
  const tenant = await exportTenant(db, req, res, {
    scope: 'orders:read',
    action: 'exportOrdersCsv',
    args: filter,
    refused: 'Your role cannot read orders.',
  });
  const date = new Date().toISOString().slice(0, 10);
  const name = `orders-${tenant.environment}${filter.status ? `-${filter.status}` : ''}-${date}.csv`;
  await streamCsv(res, name, COLUMNS, await exportOrders(db, tenant, filter), cellsOf);
}

/** One row's cells, in COLUMNS' order. */
const cellsOf = (o: PageRow<Awaited<ReturnType<typeof exportOrders>>>) => [
  o.id,
  o.reference,
  o.createdAt.toISOString(),
  o.status,
  o.statusChangedAt.toISOString(),
  o.billingStatus,
  o.customerId,
  o.externalId,
  Number(o.totalCoins),
  o.totalPrice,
  o.currency,
  o.items.map((i) => `${i.quantity} × ${i.productName} (${i.sku})`).join('; '),
  o.items
    .filter((i) => i.trackingCode)
    .map((i) => `${i.sku}: ${i.carrier ?? ''} ${i.trackingCode}`.replace('  ', ' '))
    .join('; '),
  o.recipientName,
  o.shippingAddress,
  o.contactEmail,
];
