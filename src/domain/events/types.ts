import { invalidRequest } from '../errors.js';

// Every outbound event type, in one place (docs/webhooks.md): the effect it reports and the
// resource its `data` renders. The OpenAPI document's `webhooks`, the docs' list, the feed's
// `type` filter and the endpoints' `event_types` all read this list.
export const EVENT_TYPES = {
  'coin_movement.created': {
    resource: 'coin_movement',
    description:
      'Coins were credited or debited: an adjustment, an order, a refund, an engine grant, a campaign prize.',
  },
  'coins.expiring': {
    resource: 'coin_lot',
    description:
      'Coins of a lot expire in seven days or less: `data` is the lot, its amount left and when it expires.',
  },
  'coins.expired': {
    resource: 'coin_lot',
    description:
      'A lot’s remainder was written off at its expiry: `data` is the lot, the amount and the movement.',
  },
  'coin_hold.created': { resource: 'coin_hold', description: 'Coins were set aside (a hold).' },
  'coin_hold.captured': {
    resource: 'coin_hold',
    description: 'Held coins were spent: a debit movement, the rest released.',
  },
  'coin_hold.released': {
    resource: 'coin_hold',
    description:
      'A hold was released: by a request, or because an expiry left too few coins to cover it.',
  },
  'coin_hold.reduced': {
    resource: 'coin_hold',
    description: 'An expiry left too few coins to cover a hold: its amount was cut to fit.',
  },
  'coin_hold.expired': {
    resource: 'coin_hold',
    description: 'A hold reached its expiry unused and released its coins.',
  },
  'customer.created': { resource: 'customer', description: 'A customer (player) was created.' },
  'customer.updated': {
    resource: 'customer',
    description: 'A customer’s fields or status changed.',
  },
  'customer.deleted': {
    resource: 'customer',
    description: 'A customer was deleted; `data` is its id and external_id, with deleted: true.',
  },
  'order.created': {
    resource: 'order',
    description: 'An order was reserved: coins spent, stock taken.',
  },
  'order.processing': { resource: 'order', description: 'An order moved to processing.' },
  'order.shipped': { resource: 'order', description: 'An order was shipped.' },
  'order.tracking_updated': {
    resource: 'order',
    description: 'A line’s carrier or tracking code was set or changed.',
  },
  'order.delivered': { resource: 'order', description: 'An order was delivered.' },
  'order.cancelled': {
    resource: 'order',
    description: 'An order was cancelled (before shipping, or a delivered one reversed).',
  },
  'order.refunded': {
    resource: 'order',
    description: 'An order’s coins went back to the customer.',
  },
  'engine_execution.completed': {
    resource: 'engine_execution',
    description: 'An engine event was turned into coins.',
  },
  'engine_execution.skipped': {
    resource: 'engine_execution',
    description: 'An engine event gave nothing, by its rules (a constraint, an inactive player).',
  },
  'engine_execution.failed': {
    resource: 'engine_execution',
    description: 'An engine event failed (an unknown player, a refused debit).',
  },
  'campaign_award.granted': {
    resource: 'campaign_award',
    description: 'A campaign prize was won and waits to be claimed.',
  },
  'campaign_award.claimed': { resource: 'campaign_award', description: 'A prize was claimed.' },
  'campaign_award.expired': {
    resource: 'campaign_award',
    description: 'A prize expired unclaimed.',
  },
  'tournament.settled': {
    resource: 'tournament',
    description: 'A tournament ended and its ranks were awarded.',
  },
} as const;

/** The version of `data`'s shapes: the partner API's. */
export const EVENTS_API_VERSION = 'v1';

export type EventType = keyof typeof EVENT_TYPES;
export type ResourceType = (typeof EVENT_TYPES)[EventType]['resource'];

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

const KNOWN = new Set<string>(EVENT_TYPE_NAMES);

/** A filter's types, each one that exists, or invalid_request naming the others. */
export function eventTypesOf(types: readonly string[], field = 'type'): EventType[] {
  const unknown = types.filter((t) => !KNOWN.has(t));
  if (unknown.length)
    throw invalidRequest([
      {
        field,
        code: 'enum',
        // Named back only when they look like type names: the caller's text is not echoed
        // (an agent reading this error must not meet instructions someone stored in it).
        message: unknown.every((t) => /^[a-z_.]{1,64}$/.test(t))
          ? `has unknown event types: ${unknown.join(', ')} (see GET /openapi.json, webhooks)`
          : `has ${unknown.length} unknown event type${unknown.length === 1 ? '' : 's'} (see GET /openapi.json, webhooks)`,
      },
    ]);
  return types as EventType[];
}
