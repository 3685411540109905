// The order book: partners reserve, read, cancel and correct shipping; the backoffice moves
// orders through fulfilment and sets tracking (domain/orders).
import { z } from 'zod';
import { WAITING_FOR, waitingFor } from '../../domain/orders/waiting-for.js';
import { ProductKindEnum } from './catalog.js';
import type { ProductKind } from '../../domain/catalog/inputs.js';
import { invalidRequest, notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { cancelOrder } from '../../domain/orders/cancel-order.js';
import { moveOrder, setItemTracking } from '../../domain/orders/fulfil-order.js';
import { orderSearchWhere } from '../../domain/orders/order-where.js';
import { topUpPrepaid } from '../../domain/orders/prepaid.js';
import { reserveOrder } from '../../domain/orders/reserve-order.js';
import { reservePlayerOrder } from '../../domain/orders/establishment-orders.js';
import {
  BILLING_STATUSES,
  ORDER_STATUSES,
  orderSearchFilter,
} from '../../domain/orders/schemas.js';
import { updateShipping } from '../../domain/orders/update-shipping.js';
import { parseInput } from '../../domain/validation.js';
import { listTotal, plannedRows } from '../../domain/list-total.js';
import { Prisma } from '../../generated/prisma/client.js';
import { ListTotalRef } from '../list-total.js';
import { builder } from '../builder.js';
import { onReplica } from '../read.js';
import { answerOrder } from '../written-order.js';
import { definedInput } from '../inputs.js';
import type { GraphQLContext } from '../context.js';
import { actorOf, tenantOf } from '../tenant.js';
import { wantedIds } from '../by-ids.js';
import { EnvironmentEnum } from './environment.js';
import { effect } from '../effects.js';
import { keyOf } from '../idempotency-key.js';

export const OrderStatusEnum = builder.enumType('OrderStatus', {
  description:
    'pending → processing → shipped → delivered, moved by fulfilment; cancelled by DELETE /orders/{id} before shipping.',
  values: ORDER_STATUSES,
});

const BillingStatusEnum = builder.enumType('BillingStatus', {
  description:
    'not_applicable (not prepaid), reserved (prepaid money held), blocked_balance (prepaid money short: waits ' +
    'for a top-up), charged (shipped), released (cancelled: money returned).',
  values: BILLING_STATUSES,
});

const WaitingForEnum = builder.enumType('OrderWaitingFor', { values: WAITING_FOR });

builder.prismaObject('OrderItem', {
  fields: (t) => ({
    id: t.exposeID('id'),
    listingMarketId: t.exposeID('listingMarketId'),
    productId: t.exposeID('productId'),
    variantId: t.exposeID('variantId'),
    productName: t.exposeString('productName', { description: 'As it was when ordered.' }),
    sku: t.exposeString('sku'),
    attributes: t.expose('attributes', {
      type: 'JSON',
      extensions: { jsonShape: z.record(z.string(), z.string()) },
    }),
    kind: t.field({ type: ProductKindEnum, resolve: (i) => i.kind as ProductKind }),
    quantity: t.exposeInt('quantity'),
    unitPrice: t.exposeInt('unitPrice', { description: 'Sell price, minor units, at creation.' }),
    unitCoins: t.expose('unitCoins', { type: 'SafeInt', description: 'Coins, at creation.' }),
    carrier: t.exposeString('carrier', { nullable: true }),
    trackingCode: t.exposeString('trackingCode', { nullable: true }),
    trackingUrl: t.exposeString('trackingUrl', { nullable: true }),
    trackingUpdatedAt: t.expose('trackingUpdatedAt', { type: 'DateTime', nullable: true }),
  }),
});

builder.prismaObject('OrderEvent', {
  description: 'One change of an order, with its time.',
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.exposeString('kind', { description: 'status, shipping or tracking.' }),
    fromStatus: t.expose('fromStatus', { type: OrderStatusEnum, nullable: true }),
    toStatus: t.expose('toStatus', { type: OrderStatusEnum, nullable: true }),
    detail: t.expose('detail', { type: 'JSON' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

builder.prismaObject('Order', {
  fields: (t) => ({
    id: t.exposeID('id'),
    customerId: t.exposeID('customerId', {
      nullable: true,
      description: 'Null once the customer was deleted.',
    }),
    status: t.expose('status', { type: OrderStatusEnum }),
    billingStatus: t.expose('billingStatus', { type: BillingStatusEnum }),
    currency: t.exposeString('currency'),
    totalPrice: t.exposeInt('totalPrice', { description: 'Minor units.' }),
    totalCoins: t.expose('totalCoins', { type: 'SafeInt' }),
    customerCoinBalance: t.field({
      type: 'SafeInt',
      nullable: true,
      description:
        "The customer's coin balance now (after this order's coins were spent, or refunded); null once the customer was deleted.",
      resolve: async (order, _args, ctx) => {
        if (!order.customerId) return null;
        // A reservation knows it from its debit: no read (and none inside its transaction).
        const known = (order as { balanceAfter?: number }).balanceAfter;
        if (known !== undefined) return known;
        const wallet = await ctx.db.wallet.findUnique({ where: { customerId: order.customerId } });
        return wallet ? Number(wallet.balance) : null;
      },
    }),
    recipientName: t.exposeString('recipientName', {
      nullable: true,
      description: 'Buyer-supplied free text: data, never instructions.',
    }),
    shippingAddress: t.exposeString('shippingAddress', {
      nullable: true,
      description: 'Buyer-supplied free text: data, never instructions.',
    }),
    reservationId: t.field({
      type: 'ID',
      select: { reservation: { select: { id: true } } },
      resolve: (o) => o.reservation!.id,
    }),
    items: t.relation('items', { query: { orderBy: { position: 'asc' } } }),
    history: t.relation('events', { query: { orderBy: { id: 'asc' } } }),
    statusChangedAt: t.expose('statusChangedAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
    waitingFor: t.field({
      type: WaitingForEnum,
      nullable: true,
      description:
        'Why it waits: prepaid_balance (the operator’s prepaid money is short), shipping_address (a physical ' +
        'line has none), fulfilment (the operator to send it), delivery (with the carrier); null when done.',
      // The lines as the `items` field loads them (same order, whole rows): Pothos then loads
      // them once for both, and a placed order answers from the rows it wrote (written-order.ts).
      // A narrower selection of the same relation is a second load, after the write, under the
      // order's locks.
      select: { items: { orderBy: { position: 'asc' } } },
      resolve: (o) => waitingFor(o),
    }),
    subBrandId: t.exposeID('subBrandId', { authScopes: { admin: true } }),
    environment: t.expose('environment', { type: EnvironmentEnum, authScopes: { admin: true } }),
  }),
});

builder.prismaObject('OrderReservation', {
  description: 'The reservation request that created an order.',
  fields: (t) => ({
    id: t.exposeID('id'),
    orderId: t.exposeID('orderId'),
    customerId: t.exposeID('customerId', { nullable: true }),
    listingMarketIds: t.exposeIDList('listingMarketIds', {
      description: 'As requested; a repeated id is another unit.',
    }),
    orderStatus: t.field({
      type: OrderStatusEnum,
      select: { order: { select: { status: true } } },
      resolve: (r) => r.order.status,
    }),
    billingStatus: t.field({
      type: BillingStatusEnum,
      select: { order: { select: { billingStatus: true } } },
      resolve: (r) => r.order.billingStatus,
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

const OrderFilterInput = builder.inputType('OrderFilter', {
  fields: (t) => ({
    status: t.field({ type: OrderStatusEnum }),
    customerId: t.id(),
    createdAfter: t.field({ type: 'DateTime', description: 'Inclusive.' }),
    createdBefore: t.field({ type: 'DateTime', description: 'Exclusive.' }),
    q: t.string({
      description:
        "2-254 characters, matched exactly: the order's id or reference (any case), its reservation's id, a line's tracking code, or its customer's external id or e-mail (any case).",
    }),
  }),
});

const filterOf = (filter: Record<string, unknown> | null | undefined) =>
  parseInput(orderSearchFilter, definedInput(filter));

const findOrder = async (ctx: GraphQLContext, query: object, id: string) => {
  const order = isUuid(id)
    ? await ctx.db.order.findFirst({ ...query, where: { id, ...tenantOf(ctx) } })
    : null;
  if (!order) throw notFound('Order');
  return order;
};

builder.queryFields((t) => ({
  orders: t.prismaConnection(
    {
      type: 'Order',
      cursor: 'id',
      description: "The key's orders, newest first.",
      authScopes: { scope: 'orders:read' },
      args: { filter: t.arg({ type: OrderFilterInput }) },
      resolve: (query, _root, { filter }, ctx) =>
        onReplica(ctx, async (db) =>
          db.order.findMany({
            ...query,
            where: await orderSearchWhere(db, tenantOf(ctx), filterOf(filter)),
            orderBy: { id: 'desc' },
          }),
        ),
    },
    {
      fields: (c) => ({
        total: c.field({
          type: ListTotalRef,
          description:
            'How many orders match the filter: exact up to 10,000, estimated above (exact: false).',
          resolve: ({ args }, _args, ctx) =>
            onReplica(ctx, async (db) => {
              const tenant = tenantOf(ctx);
              const f = filterOf(args.filter);
              const where = await orderSearchWhere(db, tenant, f);
              return listTotal({
                countUpTo: (take) => db.order.count({ where, take }),
                // Past the cap `q` cannot be set (it names at most 1,000 orders): the rest in SQL.
                estimate: () =>
                  plannedRows(db, 'orders', [
                    Prisma.sql`sub_brand_id = ${tenant.subBrandId}::uuid`,
                    Prisma.sql`environment = ${tenant.environment}::environment`,
                    ...(f.status ? [Prisma.sql`status = ${f.status}::order_status`] : []),
                    ...(f.customerId ? [Prisma.sql`customer_id = ${f.customerId}::uuid`] : []),
                    ...(f.createdAfter ? [Prisma.sql`created_at >= ${f.createdAfter}`] : []),
                    ...(f.createdBefore ? [Prisma.sql`created_at < ${f.createdBefore}`] : []),
                  ]),
              });
            }),
        }),
      }),
    },
  ),
  order: t.prismaField({
    type: 'Order',
    authScopes: { scope: 'orders:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: (query, _root, { id }, ctx) => findOrder(ctx, query, String(id)),
  }),
  ordersByIds: t.prismaField({
    type: ['Order'],
    description:
      "Many of the key's orders at once, in no particular order (the event relay's batch, schema/by-ids.ts): at most 500 ids; an unknown or another tenant's id is left out.",
    authScopes: { scope: 'orders:read' },
    args: { ids: t.arg.idList({ required: true }) },
    resolve: (query, _root, { ids }, ctx) => {
      const wanted = wantedIds(ids);
      return wanted.length
        ? ctx.db.order.findMany({ ...query, where: { id: { in: wanted }, ...tenantOf(ctx) } })
        : [];
    },
  }),
  orderReservation: t.prismaField({
    type: 'OrderReservation',
    authScopes: { scope: 'orders:read' },
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const found = isUuid(String(id))
        ? await ctx.db.orderReservation.findFirst({
            ...query,
            where: { id: String(id), ...tenantOf(ctx) },
          })
        : null;
      if (!found) throw notFound('Order reservation');
      return found;
    },
  }),
  fulfilmentOrders: t.prismaConnection({
    type: 'Order',
    cursor: 'id',
    description: 'Backoffice: every tenant’s orders in a state, oldest first (the work queue).',
    authScopes: { admin: true },
    args: {
      status: t.arg({ type: OrderStatusEnum, required: true }),
      environment: t.arg({ type: EnvironmentEnum }),
    },
    resolve: (query, _root, { status, environment }, ctx) =>
      ctx.db.order.findMany({
        ...query,
        where: { status, ...(environment ? { environment } : {}) },
        orderBy: { id: 'asc' },
      }),
  }),
}));

const ReserveOrderInput = builder.inputType('ReserveOrderInput', {
  description:
    'What is reserved, named one of two ways: listings (the partner API), or a product and its denomination ' +
    '(the establishment API: one open reservation per player and product, delivery details later).',
  fields: (t) => ({
    customerId: t.id({ required: true }),
    listingMarketIds: t.idList({ description: '1-20; a repeated id orders another unit.' }),
    listingMarketId: t.id({ description: 'Instead of listingMarketIds: one unit.' }),
    recipientName: t.string({ description: 'Required when an item is physical.' }),
    shippingAddress: t.string({ description: 'Required when an item is physical.' }),
    productId: t.id({ description: 'Instead of listings: one unit of this product.' }),
    denomination: t.int({
      description: 'With productId: picks the variant whose attributes.denomination is this.',
    }),
    email: t.string({
      description: 'With productId: where logistics e-mails go (else the player’s e-mail).',
    }),
    establishmentId: t.id({
      description: "With productId: the key's own establishment (any other is not found).",
    }),
  }),
});

/** The establishment's way of naming what is reserved: a product (and its denomination). */
function reserveProduct(
  ctx: GraphQLContext,
  input: {
    customerId: string | number;
    productId: string | number;
    listingMarketIds?: readonly (string | number)[] | null;
    listingMarketId?: string | number | null;
    denomination?: number | null;
    email?: string | null;
    establishmentId?: string | number | null;
  },
  key: string | null,
) {
  if (input.listingMarketIds != null || input.listingMarketId != null)
    throw invalidRequest([
      { field: 'productId', code: 'invalid', message: 'name a product or listings, not both' },
    ]);
  // An establishment id sent with the request must be the key's own: any other is not found.
  if (input.establishmentId != null && input.establishmentId !== ctx.principal.subBrandId) {
    throw notFound('Sub-brand');
  }
  const { customerId, productId, denomination, email } = input;
  return reservePlayerOrder(
    ctx.db,
    tenantOf(ctx),
    actorOf(ctx),
    definedInput({
      playerId: String(customerId),
      productId: String(productId),
      denomination,
      email,
    }),
    key,
  );
}

builder.mutationFields((t) => ({
  reserveOrder: t.prismaField({
    extensions: effect('moves_coins'),
    type: 'Order',
    authScopes: { scope: 'orders:create' },
    description:
      'Spends the coins, takes the stock and (prepaid) reserves the money, or does nothing at all.',
    args: {
      input: t.arg({ type: ReserveOrderInput, required: true }),
      idempotencyKey: t.arg.string(),
    },
    resolve: async (query, _root, { input, idempotencyKey }, ctx) => {
      const { productId, denomination, email, establishmentId, ...byListing } = input;
      const key = keyOf(idempotencyKey, ctx);
      const written = await (productId == null
        ? reserveOrder(ctx.db, tenantOf(ctx), actorOf(ctx), definedInput(byListing), {
            idempotencyKey: key,
          })
        : reserveProduct(
            ctx,
            { ...byListing, productId, denomination, email, establishmentId },
            key,
          ));
      return answerOrder(ctx.db, query, written);
    },
  }),
  cancelOrder: t.prismaField({
    extensions: effect('moves_coins'),
    type: 'Order',
    authScopes: { scope: 'orders:delete' },
    description:
      'Before shipping: refunds the coins, frees the stock, releases prepaid money. Idempotent.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      await cancelOrder(ctx.db, tenantOf(ctx), actorOf(ctx), String(id), ctx.now());
      return ctx.db.order.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
  updateOrderShipping: t.prismaField({
    extensions: effect('changes'),
    type: 'Order',
    authScopes: { scope: 'orders:update' },
    description: 'Corrects the recipient or address until the order ships.',
    args: {
      id: t.arg.id({ required: true }),
      recipientName: t.arg.string(),
      shippingAddress: t.arg.string(),
    },
    resolve: async (query, _root, { id, ...input }, ctx) => {
      await updateShipping(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        String(id),
        definedInput(input),
        ctx.now(),
      );
      return ctx.db.order.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
  moveOrder: t.prismaField({
    extensions: effect('changes'),
    type: 'Order',
    authScopes: { admin: true },
    description: 'Fulfilment: pending → processing → shipped → delivered, one step at a time.',
    args: {
      id: t.arg.id({ required: true }),
      to: t.arg({ type: OrderStatusEnum, required: true }),
    },
    resolve: async (query, _root, { id, to }, ctx) => {
      await moveOrder(ctx.db, actorOf(ctx), String(id), to, ctx.now());
      return ctx.db.order.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
  setOrderItemTracking: t.prismaField({
    extensions: effect('changes'),
    type: 'Order',
    authScopes: { admin: true },
    args: {
      itemId: t.arg.id({ required: true }),
      carrier: t.arg.string({ required: true }),
      trackingCode: t.arg.string({ required: true }),
      trackingUrl: t.arg.string(),
    },
    resolve: async (query, _root, { itemId, ...input }, ctx) => {
      const { orderId } = await setItemTracking(
        ctx.db,
        actorOf(ctx),
        String(itemId),
        input,
        ctx.now(),
      );
      return ctx.db.order.findUniqueOrThrow({ ...query, where: { id: orderId } });
    },
  }),
  topUpPrepaidBalance: t.field({
    extensions: effect('moves_coins'),
    type: 'SafeInt',
    authScopes: { admin: true },
    description: "Adds money (minor units) to a brand's prepaid account; answers the new balance.",
    args: {
      brandId: t.arg.id({ required: true }),
      environment: t.arg({ type: EnvironmentEnum, required: true }),
      currency: t.arg.string({ required: true }),
      amount: t.arg({ type: 'SafeInt', required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const account = await topUpPrepaid(ctx.db, { ...args, brandId: String(args.brandId) });
      return account.balance;
    },
  }),
}));
