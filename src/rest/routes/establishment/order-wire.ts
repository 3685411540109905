// The establishment API's order records (spec/establishment-api.md, "Orders"): one operation of an
// order (Reservation / Acquisition / Cancellation × Pending / Completed / Cancelled, derived from
// its history: domain/orders/order-operations.ts) with the order's fields beside it. Each record
// is a fragment over GraphQL's Order and OrderOperationRecord; the order routes (orders.ts) and
// the order lists (order-lists.ts) answer them, derived (rest/wire-answer.ts).
import {
  fragment,
  neverNull,
  type Derived,
  type Fragment,
  type WireParts,
} from '../../wire-answer.js';
import { uuidParams } from './wire.js';

/** What an operation's record says of its order, whichever operation it is. */
const ORDER_TRANSACTION = fragment(
  'OrderTransactionFields',
  'OrderOperationRecord',
  'transactionId orderDisplayStatus value reference playerId productId establishmentId',
);

/** The record: one operation of an order. The lists answer it; so do the moves. */
export const ORDER_RECORD = fragment(
  'OrderRecord',
  'OrderOperationRecord',
  `operationId orderType orderStatus ${ORDER_TRANSACTION} date`,
  [ORDER_TRANSACTION],
  { description: 'One operation (record) on an order.' },
);

/** The delivery details as stored on the order (every field may still be missing). */
const DELIVERY = fragment(
  'OrderDelivery',
  'OrderDelivery',
  'firstName lastName addressLine1 addressLine2 city province country postalCode email',
);

/**
 * Who and where, flat beside a record: the player's e-mail and name (the delivery's, else the
 * player's), the establishment, the short address and the tracking link.
 */
const ORDER_CONTACT = fragment(
  'OrderContactFields',
  'Order',
  `playerEmail firstName: addresseeFirstName lastName: addresseeLastName establishmentName
  establishmentImage: establishmentImageUrl establishmentThumbnailUrl
  shortAddress: delivery { address: addressLine1 country postalCode city province }
  trackToken trackUrl`,
  [],
  { spread: ['shortAddress'] },
);

/**
 * `deliveryDetailsCapturedAt`, and the same value under `deliveryCapturedAt`, its earlier name,
 * kept for the clients that read it (docs/establishment-api.md, "Orders").
 */
const CAPTURED_AT = `deliveryDetailsCapturedAt: deliveryCapturedAt deliveryCapturedAt`;
const deprecated = ({ schema, map }: Derived): Derived => ({
  schema: schema.meta({
    deprecated: true,
    description: 'Deprecated: the same value as deliveryDetailsCapturedAt, its earlier name.',
  }),
  map,
});

const captured = neverNull('When the delivery details were captured.');

/** A move's answer: the record of the operation it made, and what that move adds beside it. */
const moveRecord = (
  name: string,
  type: string,
  more: { fields: string; uses?: Fragment[]; description: string },
  parts: WireParts = {},
) =>
  fragment(
    name,
    'Order',
    `record(type: ${type}) { ${ORDER_RECORD} } ${more.fields}`,
    [ORDER_RECORD, ...(more.uses ?? [])],
    { ...parts, description: more.description, spread: ['record', ...(parts.spread ?? [])] },
  );

export const RESERVATION_RECORD = moveRecord('OrderReservationRecord', 'Reservation', {
  fields: String(ORDER_CONTACT),
  uses: [ORDER_CONTACT],
  description: 'A reservation record with the player, establishment and tracking link.',
});

export const SEND_RECORD = moveRecord(
  'OrderSendRecord',
  'Reservation',
  {
    fields: `addressee: delivery { playerName: name } playerEmail address: delivery { ${DELIVERY} }
    ${CAPTURED_AT}`,
    uses: [DELIVERY],
    description: 'The reservation record with its delivery details.',
  },
  {
    // Sent: the details are captured.
    values: {
      deliveryDetailsCapturedAt: captured,
      deliveryCapturedAt: (value) => deprecated(captured(value)),
    },
    // The delivery's joined name stands beside the record, as `playerName`.
    spread: ['addressee'],
  },
);

export const TRACK_RECORD = moveRecord(
  'OrderTrackRecord',
  'Reservation',
  {
    fields: 'trackingNumber',
    description: 'The reservation record with the tracking number just registered.',
  },
  { values: { trackingNumber: neverNull('The carrier tracking number.') } },
);

/** A transaction: the order with every record made on it, oldest first. */
export const TRANSACTION = fragment(
  'OrderTransaction',
  'Order',
  `record(type: Reservation) { ${ORDER_TRANSACTION} } ${ORDER_CONTACT}
  delivery { ${DELIVERY} } ${CAPTURED_AT} createdAt operations { operationId orderType orderStatus date }`,
  [ORDER_TRANSACTION, ORDER_CONTACT, DELIVERY],
  {
    description: 'A transaction (order) with every record made on it.',
    values: { deliveryCapturedAt: deprecated },
    spread: ['record'],
  },
);

/**
 * The mutation of a move on one of a player's orders (`/orders/{playerId}/<verb>/{transactionId}`),
 * answering `selection` of the order; `extra` declares its other variables, passed through under
 * the same names.
 */
export const orderMove = (
  name: string,
  field: string,
  selection: string,
  uses: { definition: string }[],
  extra: Record<string, string> = {},
) => {
  const declared = Object.entries(extra)
    .map(([k, type]) => `, $${k}: ${type}`)
    .join('');
  const passed = Object.keys(extra)
    .map((k) => `, ${k}: $${k}`)
    .join('');
  return `mutation ${name}($playerId: ID!, $transactionId: ID!${declared}) {
    ${field}(playerId: $playerId, transactionId: $transactionId${passed}) { ${selection} }
  }
  ${uses.map((u) => u.definition).join('\n')}`;
};

/** An order's path ids: the player's and the transaction's. */
export const params = uuidParams('playerId', 'transactionId');
