// The order book as partners use it: reserve, read, cancel, follow shipping, and the reservation
// request behind an order; and store sessions for the embedded marketplace.
import { z } from 'zod';
import {
  orderFilter,
  reserveOrderFields,
  shippingUpdateFields,
} from '../../../domain/orders/schemas.js';
import { atLeastOneOf, exactlyOneOf } from '../../../domain/validation.js';
import { storeSessionInput } from '../../../domain/store-sessions/store-session.js';
import { camelKeys, snakeShape } from '../../casing.js';
import { connectionSelection, filterAndPage, pageParams } from '../../pagination.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';
import { idOf, orderId } from './wire.js';

/** A prize order on the partner wire: its lines, price snapshot, status, history and wait. */
export const ORDER = fragment(
  'Order',
  'Order',
  `id customerId status billingStatus currency totalPrice totalCoins recipientName shippingAddress reservationId
  items {
    id listingMarketId productId variantId productName sku attributes kind quantity unitPrice unitCoins
    carrier trackingCode trackingUrl trackingUpdatedAt
  }
  history { kind fromStatus toStatus createdAt } waitingFor statusChangedAt createdAt updatedAt`,
);

/** After coins moved (a reservation, a cancellation's refund): the order and the balance it left. */
const ORDER_AND_BALANCE = fragment('OrderAndBalance', 'Order', `${ORDER} customerCoinBalance`, [
  ORDER,
]);

export const reserveOrder = defineRoute({
  name: 'reserve_order',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/orders',
  scope: 'orders:create',
  tag: 'Orders',
  summary: 'Reserve an order',
  description:
    "Redeems a customer's coins for prizes: customer_id (from list_customers) and listing_market_ids (1-20, from " +
    'get_product or search_products; a repeated id is another unit) or one listing_market_id. Physical prizes need ' +
    'recipient_name and shipping_address. Prices are snapshotted, coins spent, stock taken at once; 409 ' +
    'insufficient_balance or out_of_stock create nothing.',
  hints: { movesCoins: true, idempotent: true },
  body: exactlyOneOf(
    z.strictObject(snakeShape(reserveOrderFields.shape)),
    'listing_market_ids',
    'listing_market_id',
  ),
  idempotency: 'required',
  successStatus: 201,
  errors: ['not_found', 'insufficient_balance', 'out_of_stock', 'customer_not_eligible'],
  operation: `mutation ReserveOrder($input: ReserveOrderInput!, $key: String) {
    reserveOrder(input: $input, idempotencyKey: $key) { ${ORDER_AND_BALANCE} }
  }
  ${ORDER_AND_BALANCE.definition}`,
  variables: ({ body }, { idempotencyKey }) => ({ input: camelKeys(body), key: idempotencyKey }),
});

const filterShape = snakeShape(orderFilter.shape);

export const listOrders = defineRoute({
  name: 'list_orders',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/orders',
  scope: 'orders:read',
  tag: 'Orders',
  summary: 'List orders',
  description:
    "The sub-brand's orders, newest first, filtered by status, customer_id and a created window (created_after " +
    'inclusive, created_before exclusive). Cursor-paginated.',
  hints: { readOnly: true, idempotent: true },
  query: z.strictObject({ ...filterShape, ...pageParams }),
  idempotency: 'none',
  successStatus: 200,
  paginated: true,
  errors: [],
  operation: `query ListOrders($filter: OrderFilter, $first: Int, $after: String) {
    orders(filter: $filter, first: $first, after: $after) { ${connectionSelection(`${ORDER}`)} }
  }
  ${ORDER.definition}`,
  variables: ({ query }) => filterAndPage(query),
});

export const getOrder = defineRoute({
  name: 'get_order',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/orders/{id}',
  scope: 'orders:read',
  tag: 'Orders',
  summary: 'Get an order',
  description:
    'One order: status, billing status, lines with snapshotted prices and tracking, and its history of changes. ' +
    'The id comes from reserve_order or list_orders.',
  hints: { readOnly: true, idempotent: true },
  params: orderId,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetOrder($id: ID!) { order(id: $id) { ${ORDER} } }
  ${ORDER.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});

export const cancelOrder = defineRoute({
  name: 'cancel_order',
  family: 'partner',
  method: 'DELETE',
  path: '/api/v1/orders/{id}',
  scope: 'orders:delete',
  tag: 'Orders',
  summary: 'Cancel an order',
  description:
    'Cancels a pending or processing order: refunds its coins, frees its stock, releases prepaid money; the status ' +
    'becomes cancelled and customer_coin_balance is the balance after the refund. A shipped or delivered order is 409 order_not_cancellable. ' +
    'The id comes from reserve_order or list_orders.',
  hints: { destructive: true, idempotent: true },
  params: orderId,
  idempotency: 'none',
  successStatus: 200,
  errors: ['order_not_cancellable'],
  operation: `mutation CancelOrder($id: ID!) { cancelOrder(id: $id) { ${ORDER_AND_BALANCE} } }
  ${ORDER_AND_BALANCE.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});

/** An order's recipient, address and tracking per line. */
const SHIPPING = fragment(
  'Shipping',
  'Order',
  `orderId: id status recipientName shippingAddress updatedAt
  items { itemId: id productName sku kind quantity carrier trackingCode trackingUrl trackingUpdatedAt }`,
);

export const getOrderShipping = defineRoute({
  name: 'get_order_shipping',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/orders/{id}/shipping',
  scope: 'orders:read',
  tag: 'Orders',
  summary: "Read an order's shipping",
  description:
    'Recipient, address and, per line item, the carrier and tracking code once fulfilment sets them. The id is ' +
    'the order\u2019s, from reserve_order or list_orders.',
  hints: { readOnly: true, idempotent: true },
  params: orderId,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetShipping($id: ID!) { order(id: $id) { ${SHIPPING} } }
  ${SHIPPING.definition}`,
  variables: ({ params }) => ({ id: params.id }),
});

export const updateOrderShipping = defineRoute({
  name: 'update_order_shipping',
  family: 'partner',
  method: 'PATCH',
  path: '/api/v1/orders/{id}/shipping',
  scope: 'orders:update',
  tag: 'Orders',
  summary: "Correct an order's recipient or address",
  description:
    'Changes recipient_name and/or shipping_address while the order is pending or processing; once shipped it is ' +
    '409 order_not_editable. Carrier and tracking are set by fulfilment, not here. The id is the order\u2019s.',
  hints: {},
  params: orderId,
  body: atLeastOneOf(
    z.strictObject(snakeShape(shippingUpdateFields.shape)),
    'recipient_name',
    'shipping_address',
  ),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['order_not_editable'],
  operation: `mutation UpdateShipping($id: ID!, $recipientName: String, $shippingAddress: String) {
    updateOrderShipping(id: $id, recipientName: $recipientName, shippingAddress: $shippingAddress) {
      ${SHIPPING}
    }
  }
  ${SHIPPING.definition}`,
  variables: ({ params, body }) => ({ id: params.id, ...camelKeys(body) }),
});

export const getOrderReservation = defineRoute({
  name: 'get_order_reservation_request',
  family: 'partner',
  method: 'GET',
  path: '/api/v1/order-reservations/{id}',
  scope: 'orders:read',
  tag: 'Orders',
  summary: 'Get an order reservation request',
  description:
    "The request that created an order (id from the order's reservation_id): the listing ids as sent, and the " +
    "order's current status and billing status.",
  hints: { readOnly: true, idempotent: true },
  params: idOf("The reservation request's `id`: the `reservation_id` of an order."),
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetReservation($id: ID!) {
    orderReservation(id: $id) { ...ReservationRequest }
  }
  fragment ReservationRequest on OrderReservation {
    id orderId customerId listingMarketIds orderStatus billingStatus createdAt
  }`,
  variables: ({ params }) => ({ id: params.id }),
});

export const createStoreSession = defineRoute({
  name: 'create_store_session',
  family: 'partner',
  method: 'POST',
  path: '/api/v1/store-sessions',
  scope: 'store_sessions:create',
  tag: 'Orders',
  summary: 'Open a store session for a customer',
  description:
    'A short-lived signed session for one customer (from list_customers) to browse ' +
    'a store (store_id from list_stores; omitted: your first store) in the embedded marketplace. Answers the url to ' +
    'open, the token and expires_at.',
  hints: {},
  body: z.strictObject(snakeShape(storeSessionInput.shape)),
  idempotency: 'optional',
  successStatus: 201,
  errors: ['customer_not_eligible'],
  operation: `mutation CreateStoreSession($customerId: ID!, $storeId: ID, $ttlSeconds: Int) {
    createStoreSession(customerId: $customerId, storeId: $storeId, ttlSeconds: $ttlSeconds) {
      ...StoreSession
    }
  }
  fragment StoreSession on StoreSession { id token url storeId customerId expiresAt }`,
  variables: ({ body }) => camelKeys(body),
});
