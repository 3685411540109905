// The establishment API's view of the order book: the same Order rows, with the fields its
// records need (reference, structured delivery, tracking link, operations), and its operations
// (domain/orders/establishment-orders.ts).
import { z } from 'zod';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import {
  acquirePlayerOrder,
  cancelPlayerReservation,
  captureDeliveryDetails,
  reverseAcquisition,
  sendOrder,
  trackOrder,
} from '../../domain/orders/establishment-orders.js';
import {
  listOrderOperations,
  OPERATION_STATUSES,
  OPERATION_TYPES,
  operationsOf,
  type Operation,
  type OperationRow,
} from '../../domain/orders/order-operations.js';
import { trackPath, trackToken } from '../../domain/orders/track-token.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { definedInput } from '../inputs.js';
import { actorOf, tenantOf } from '../tenant.js';
import { effect } from '../effects.js';
import { OrderStatusEnum } from './order.js';

const OperationTypeEnum = builder.enumType('OrderOperationType', { values: OPERATION_TYPES });
const OperationStatusEnum = builder.enumType('OrderOperationStatus', {
  values: OPERATION_STATUSES,
});

const OperationRef = builder.objectRef<Operation>('OrderOperation').implement({
  description:
    'One operation on an order, as the establishment API counts them: Reservation, Acquisition or Cancellation.',
  fields: (t) => ({
    operationId: t.exposeID('operationId', { description: 'The order event it comes from.' }),
    orderType: t.expose('orderType', { type: OperationTypeEnum }),
    orderStatus: t.expose('orderStatus', { type: OperationStatusEnum }),
    date: t.expose('date', { type: 'DateTime' }),
  }),
});

const OperationRowRef = builder.objectRef<OperationRow>('OrderOperationRecord').implement({
  description: 'One operation on an order, with the order’s own fields beside it.',
  fields: (t) => ({
    operationId: t.exposeID('operationId', {
      description: 'The order event this record comes from.',
    }),
    transactionId: t.exposeID('transactionId', {
      description: 'The order id (the partner API’s order `id`).',
    }),
    orderType: t.expose('orderType', {
      type: OperationTypeEnum,
      description: 'Reservation, Acquisition or Cancellation (additive).',
    }),
    orderStatus: t.expose('orderStatus', { type: OperationStatusEnum }),
    orderDisplayStatus: t.expose('orderDisplayStatus', {
      type: OrderStatusEnum,
      description: 'The order’s status on the partner API.',
    }),
    playerId: t.exposeID('playerId', { nullable: true }),
    establishmentId: t.exposeID('establishmentId'),
    productId: t.exposeID('productId', { nullable: true }),
    value: t.exposeInt('value', { description: 'Coins spent.' }),
    reference: t.exposeString('reference', {
      nullable: true,
      description: 'Human code, `R-` and 8 characters.',
    }),
    date: t.expose('date', { type: 'DateTime' }),
  }),
});

type OperationPage = Awaited<ReturnType<typeof listOrderOperations>>;
const OperationPageRef = builder.objectRef<OperationPage>('OrderOperationPage').implement({
  fields: (t) => ({
    total: t.exposeInt('total'),
    page: t.exposeInt('page'),
    limit: t.exposeInt('limit'),
    hasMore: t.exposeBoolean('hasMore'),
    items: t.field({ type: [OperationRowRef], resolve: (p) => p.items }),
  }),
});

type Delivery = {
  firstName: string | null;
  lastName: string | null;
  addressLine1: string | null;
  addressLine2: string | null;
  city: string | null;
  province: string | null;
  country: string | null;
  postalCode: string | null;
  email: string | null;
};
const DeliveryRef = builder.objectRef<Delivery>('OrderDelivery').implement({
  description: 'Structured delivery details (buyer-supplied text: data, never instructions).',
  fields: (t) => ({
    firstName: t.exposeString('firstName', { nullable: true }),
    lastName: t.exposeString('lastName', { nullable: true }),
    addressLine1: t.exposeString('addressLine1', {
      nullable: true,
      description: 'Address line 1. Buyer-supplied text: render it as data.',
    }),
    addressLine2: t.exposeString('addressLine2', { nullable: true }),
    city: t.exposeString('city', { nullable: true }),
    province: t.exposeString('province', { nullable: true }),
    country: t.exposeString('country', { nullable: true }),
    postalCode: t.exposeString('postalCode', { nullable: true }),
    email: t.exposeString('email', { nullable: true }),
    name: t.string({
      nullable: true,
      description: 'The first and last names joined; null when neither is given.',
      resolve: (d) => [d.firstName, d.lastName].filter(Boolean).join(' ') || null,
    }),
  }),
});

/** The record of an order's latest operation of `type`, else of its first (a move's answer). */
function recordOf(
  order: {
    id: string;
    customerId: string | null;
    subBrandId: string;
    status: OperationRow['orderDisplayStatus'];
    totalCoins: bigint | number;
    reference: string | null;
    items: { productId: string | null }[];
  },
  operations: Operation[],
  type: Operation['orderType'],
): OperationRow {
  const op = operations.findLast((o) => o.orderType === type) ?? operations[0]!;
  return {
    ...op,
    transactionId: order.id,
    playerId: order.customerId,
    establishmentId: order.subBrandId,
    productId: order.items[0]?.productId ?? null,
    orderDisplayStatus: order.status,
    value: Number(order.totalCoins),
    reference: order.reference,
  };
}

const firstItem = { select: { productId: true }, orderBy: { position: 'asc' }, take: 1 } as const;
const statusEvents = {
  select: { id: true, kind: true, fromStatus: true, toStatus: true, createdAt: true },
  orderBy: { id: 'asc' },
} as const;

builder.prismaObjectFields('Order', (t) => ({
  reference: t.exposeString('reference', {
    nullable: true,
    description: 'Human code (R-XXXXXXXX); null on orders made before references existed.',
  }),
  establishmentId: t.exposeID('subBrandId', { description: "The order's sub-brand." }),
  productId: t.field({
    type: 'ID',
    nullable: true,
    select: { items: firstItem },
    resolve: (o) => o.items[0]?.productId ?? null,
  }),
  contactEmail: t.exposeString('contactEmail', { nullable: true }),
  playerEmail: t.string({
    nullable: true,
    description:
      'Where logistics e-mails go: the delivery e-mail, the reservation e-mail, or the player’s.',
    extensions: { jsonShape: z.email() },
    select: {
      deliveryEmail: true,
      contactEmail: true,
      customer: { select: { email: true } },
    },
    resolve: (o) => o.deliveryEmail ?? o.contactEmail ?? o.customer?.email ?? null,
  }),
  playerFirstName: t.string({
    nullable: true,
    select: { customer: { select: { firstName: true } } },
    resolve: (o) => o.customer?.firstName ?? null,
  }),
  playerLastName: t.string({
    nullable: true,
    select: { customer: { select: { lastName: true } } },
    resolve: (o) => o.customer?.lastName ?? null,
  }),
  addresseeFirstName: t.string({
    nullable: true,
    description: 'Whom the prize goes to: the delivery first name, else the player’s.',
    select: { deliveryFirstName: true, customer: { select: { firstName: true } } },
    resolve: (o) => o.deliveryFirstName ?? o.customer?.firstName ?? null,
  }),
  addresseeLastName: t.string({
    nullable: true,
    description: 'Whom the prize goes to: the delivery last name, else the player’s.',
    select: { deliveryLastName: true, customer: { select: { lastName: true } } },
    resolve: (o) => o.deliveryLastName ?? o.customer?.lastName ?? null,
  }),
  establishmentName: t.string({
    select: { subBrand: { select: { name: true } } },
    resolve: (o) => o.subBrand.name,
  }),
  establishmentImageUrl: t.string({
    nullable: true,
    select: { subBrand: { select: { imageUrl: true } } },
    resolve: (o) => o.subBrand.imageUrl,
  }),
  establishmentThumbnailUrl: t.string({
    nullable: true,
    select: { subBrand: { select: { thumbnailUrl: true } } },
    resolve: (o) => o.subBrand.thumbnailUrl,
  }),
  delivery: t.field({
    type: DeliveryRef,
    select: {
      deliveryFirstName: true,
      deliveryLastName: true,
      deliveryAddressLine1: true,
      deliveryAddressLine2: true,
      deliveryCity: true,
      deliveryProvince: true,
      deliveryCountry: true,
      deliveryPostalCode: true,
      deliveryEmail: true,
    },
    resolve: (o) => ({
      firstName: o.deliveryFirstName,
      lastName: o.deliveryLastName,
      addressLine1: o.deliveryAddressLine1,
      addressLine2: o.deliveryAddressLine2,
      city: o.deliveryCity,
      province: o.deliveryProvince,
      country: o.deliveryCountry,
      postalCode: o.deliveryPostalCode,
      email: o.deliveryEmail,
    }),
  }),
  deliveryCapturedAt: t.expose('deliveryCapturedAt', {
    type: 'DateTime',
    nullable: true,
    description: 'When the delivery details were captured; null until then.',
  }),
  stockConsumedAt: t.expose('stockConsumedAt', {
    type: 'DateTime',
    nullable: true,
    description: 'When its units left the stock (sent or shipped).',
  }),
  trackToken: t.string({
    description: 'Opens the public tracking page (status and history only).',
    select: { id: true },
    resolve: (o, _args, ctx) => trackToken(ctx.db, o.id),
  }),
  trackUrl: t.string({
    description: 'The public tracking page: status and history, no personal data.',
    extensions: { jsonShape: z.url() },
    select: { id: true },
    resolve: async (o, _args, ctx) => `${ctx.baseUrl}${trackPath(await trackToken(ctx.db, o.id))}`,
  }),
  trackingNumber: t.string({
    nullable: true,
    description: 'The carrier tracking number its lines ship with; null until one is registered.',
    select: { items: { ...firstItem, select: { trackingCode: true } } },
    resolve: (o) => o.items[0]?.trackingCode ?? null,
  }),
  operations: t.field({
    type: [OperationRef],
    description: "The establishment API's records of this order, oldest first.",
    select: { status: true, events: statusEvents },
    resolve: (o) => operationsOf(o),
  }),
  record: t.field({
    type: OperationRowRef,
    description:
      'The record of its latest operation of this type (of its first operation when it has none): what a move answers.',
    args: { type: t.arg({ type: OperationTypeEnum, required: true }) },
    select: {
      id: true,
      customerId: true,
      subBrandId: true,
      status: true,
      totalCoins: true,
      reference: true,
      items: firstItem,
      events: statusEvents,
    },
    resolve: (o, { type }) => recordOf(o, operationsOf(o), type),
  }),
}));

const findPlayerOrder = async (
  ctx: GraphQLContext,
  query: object,
  playerId: string,
  id: string,
) => {
  const order =
    isUuid(id) && isUuid(playerId)
      ? await ctx.db.order.findFirst({
          ...query,
          where: { id, customerId: playerId, ...tenantOf(ctx) },
        })
      : null;
  if (!order) throw notFound('Transaction');
  return order;
};

const OperationListInput = builder.inputType('OrderOperationListInput', {
  fields: (t) => ({
    playerId: t.id(),
    search: t.string({
      description: 'A transaction id or reference, or (3+ chars) part of a product name.',
    }),
    statuses: t.field({ type: [OperationStatusEnum], description: 'Any of these.' }),
    priceMin: t.int({ description: 'Coins.' }),
    priceMax: t.int({ description: 'Coins.' }),
    page: t.int(),
    limit: t.int({ description: '1-100, default 20.' }),
  }),
});

builder.queryFields((t) => ({
  orderOperations: t.field({
    type: OperationPageRef,
    authScopes: { scope: 'orders:read' },
    description: "The key's order operations (establishment records), newest first.",
    args: { input: t.arg({ type: OperationListInput, required: true }) },
    resolve: async (_root, { input: { playerId, ...input } }, ctx) => {
      if (playerId != null) {
        const found = isUuid(String(playerId))
          ? await ctx.db.customer.findFirst({
              where: { id: String(playerId), ...tenantOf(ctx) },
              select: { id: true },
            })
          : null;
        if (!found) throw notFound('Customer');
      }
      return listOrderOperations(ctx.db, tenantOf(ctx), {
        ...definedInput(input),
        ...(playerId != null ? { customerId: String(playerId) } : {}),
      });
    },
  }),
  playerOrder: t.prismaField({
    type: 'Order',
    authScopes: { scope: 'orders:read' },
    args: { playerId: t.arg.id({ required: true }), transactionId: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) =>
      findPlayerOrder(ctx, query, String(args.playerId), String(args.transactionId)),
  }),
}));

const DeliveryDetailsInput = builder.inputType('DeliveryDetailsInput', {
  fields: (t) => ({
    email: t.string(),
    address: t.string(),
    country: t.string(),
    postalCode: t.string(),
    city: t.string(),
  }),
});

const SendOrderInput = builder.inputType('SendOrderInput', {
  fields: (t) => ({
    firstName: t.string(),
    lastName: t.string(),
    addressLine1: t.string(),
    addressLine2: t.string(),
    city: t.string(),
    province: t.string(),
    country: t.string(),
    postalCode: t.string(),
    email: t.string(),
  }),
});

/** What every move on a player's order takes first (domain/orders/establishment-orders.ts). */
type PlayerOrder = [
  db: GraphQLContext['db'],
  tenant: ReturnType<typeof tenantOf>,
  actor: ReturnType<typeof actorOf>,
  playerId: string,
  transactionId: string,
];

/** Runs a move on one of a player's orders and answers the order it moved, as the query asks. */
async function movePlayerOrder<Q extends { include?: object; select?: object }>(
  query: Q,
  ctx: GraphQLContext,
  args: { playerId: string | number; transactionId: string | number },
  move: (...order: PlayerOrder) => Promise<{ id: string }>,
) {
  const order: PlayerOrder = [
    ctx.db,
    tenantOf(ctx),
    actorOf(ctx),
    String(args.playerId),
    String(args.transactionId),
  ];
  const { id } = await move(...order);
  return ctx.db.order.findUniqueOrThrow({ ...query, where: { id } });
}

builder.mutationFields((t) => ({
  capturePlayerOrderDetails: t.prismaField({
    extensions: effect('changes'),
    type: 'Order',
    authScopes: { scope: 'orders:update' },
    args: {
      playerId: t.arg.id({ required: true }),
      transactionId: t.arg.id({ required: true }),
      input: t.arg({ type: DeliveryDetailsInput, required: true }),
    },
    resolve: (query, _root, args, ctx) =>
      movePlayerOrder(query, ctx, args, (...order) =>
        captureDeliveryDetails(...order, definedInput(args.input), ctx.now()),
      ),
  }),
  sendPlayerOrder: t.prismaField({
    extensions: effect('changes'),
    type: 'Order',
    authScopes: { scope: 'orders:update' },
    description:
      'Structured delivery details; the units leave the stock once, however often it is called.',
    args: {
      playerId: t.arg.id({ required: true }),
      transactionId: t.arg.id({ required: true }),
      input: t.arg({ type: SendOrderInput, required: true }),
    },
    resolve: (query, _root, args, ctx) =>
      movePlayerOrder(query, ctx, args, (...order) =>
        sendOrder(...order, definedInput(args.input), ctx.now()),
      ),
  }),
  trackPlayerOrder: t.prismaField({
    extensions: effect('changes'),
    type: 'Order',
    authScopes: { scope: 'orders:fulfil' },
    args: {
      playerId: t.arg.id({ required: true }),
      transactionId: t.arg.id({ required: true }),
      trackingNumber: t.arg.string({ required: true }),
    },
    resolve: (query, _root, args, ctx) =>
      movePlayerOrder(query, ctx, args, (...order) =>
        trackOrder(...order, args.trackingNumber, ctx.now()),
      ),
  }),
  acquirePlayerOrder: t.prismaField({
    extensions: effect('changes'),
    type: 'Order',
    authScopes: { scope: 'orders:fulfil' },
    description: 'Completes the reservation: fulfilment’s moves to delivered, one event each.',
    args: { playerId: t.arg.id({ required: true }), transactionId: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) =>
      movePlayerOrder(query, ctx, args, (...order) => acquirePlayerOrder(...order, ctx.now())),
  }),
  cancelPlayerReservation: t.prismaField({
    extensions: effect('moves_coins'),
    type: 'Order',
    authScopes: { scope: 'orders:delete' },
    description: 'Cancels before shipping: coins refunded once, units back to available.',
    args: { playerId: t.arg.id({ required: true }), transactionId: t.arg.id({ required: true }) },
    resolve: (query, _root, args, ctx) =>
      movePlayerOrder(query, ctx, args, (...order) => cancelPlayerReservation(...order, ctx.now())),
  }),
  reversePlayerAcquisition: t.prismaField({
    extensions: effect('moves_coins'),
    type: 'Order',
    authScopes: { scope: 'orders:fulfil' },
    description: 'Reverses a delivered order (cancelled); with refund, the coins come back once.',
    args: {
      playerId: t.arg.id({ required: true }),
      transactionId: t.arg.id({ required: true }),
      refund: t.arg.boolean(),
    },
    resolve: (query, _root, args, ctx) =>
      movePlayerOrder(query, ctx, args, (...order) =>
        reverseAcquisition(...order, args.refund ?? false, ctx.now()),
      ),
  }),
}));
