// What an event's `data` is, per resource (docs/webhooks.md): the resource as the partner API
// renders it. Customers and orders are their GET routes' answers (the same document and the same
// mapping); coin movements are the movement record of the wallet routes, rendered many at once;
// engine executions, campaign awards and tournaments, which the partner API does not read, have
// their shapes here. The relay renders with these (src/events/render.ts) and the OpenAPI
// document's `webhooks` section shows them (rest/openapi.ts).
import { z } from 'zod';
import { EVENT_TYPE_NAMES, EVENT_TYPES, type ResourceType } from '../../../domain/events/types.js';
import { snakeKeys } from '../../casing.js';
import type { Route } from '../../route.js';
import { CUSTOMER, getCustomer } from './customers.js';
import { eventRecord } from './events.js';
import { getOrder, ORDER } from './orders.js';
import { COIN_HOLD } from './holds.js';
import { COIN_MOVEMENT } from './wallet.js';
import { fragment, wireRecord, type Fragment } from '../../wire-answer.js';

/** How one resource type's `data` is made. */
export type EventData = {
  schema: z.ZodType;
  /** A document reading one resource by `$id`… */
  one?: { operation: string; result: (data: Record<string, unknown>) => unknown };
  /** …or many by `$ids` (what the relay prefers for a batch). */
  many?: { operation: string; result: (data: Record<string, unknown>) => { id: string }[] };
};

/**
 * A GET route's answer (its `record`, read by `{ field(id) }`), for many resources at once: the
 * same record read by `{ many(ids) }` and mapped as the route maps it (the events tests
 * hold the two equal). One execution per batch, where one per event cost an order's placement
 * a sixth of its server CPU (docs/performance.md, "Where an order's server CPU goes").
 */
function ofRoute(route: Route, field: string, many: string, record: Fragment): EventData {
  const { map } = wireRecord('partner', record);
  if (!route.operation.includes(`${field}(id: $id) { ${record} }`)) {
    throw new Error(`${route.name} does not read ${field}(id) as ${record.name}`);
  }
  return {
    schema: route.response,
    many: {
      operation: `query EventData($ids: [ID!]!) { ${many}(ids: $ids) { ${record} } }\n${record.definition}`,
      result: (data) => (data[many] as unknown[]).map((r) => map(r) as { id: string }),
    },
  };
}

/** What the engine did with one gameplay event. */
const ENGINE_EXECUTION = fragment(
  'EngineExecution',
  'EngineExecution',
  'id eventCode idempotencyKey channel status customerId pointsRequested pointsApplied errorCode correlationId createdAt completedAt',
);

/** A prize a player won in a campaign. */
const CAMPAIGN_AWARD = fragment(
  'CampaignAward',
  'CampaignAward',
  'id campaignId customerId day rank coins productId catalogPrize quantity status expiresAt claimedAt movementId orderId createdAt',
);

/** One resource by `$id` from `field`, as the fragment renders it on the partner wire. */
function byId(field: string, record: Fragment): EventData {
  const { schema, map } = wireRecord('partner', record);
  return {
    schema,
    one: {
      operation: `query EventData($id: ID!) { ${field}(id: $id) { ${record} } }\n${record.definition}`,
      result: (data) => map(data[field]),
    },
  };
}

const movement = wireRecord('partner', COIN_MOVEMENT);

const tournamentRecord = z
  .object({
    id: z.uuid().describe('The campaign.'),
    title: z.string(),
    starts_at: z.iso.datetime(),
    ends_at: z.iso.datetime(),
    status: z.string(),
    awarded: z.number().int().describe('Awards its settlement granted.'),
    settled_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'TournamentSettlement', description: 'A tournament, settled.' });

const coinLotEventRecord = z
  .object({
    lot_id: z.uuid(),
    customer_id: z.uuid(),
    amount: z
      .number()
      .int()
      .describe('coins.expiring: what is left of the lot; coins.expired: what was written off.'),
    expires_at: z.iso.datetime(),
    movement_id: z.uuid().optional().describe('coins.expired: the expiry movement.'),
    balance_after: z.number().int().optional().describe('coins.expired: the balance after it.'),
  })
  .meta({ id: 'CoinLotEvent', description: 'Coins of one lot, expiring or expired.' });

export const EVENT_DATA: Record<ResourceType, EventData> = {
  customer: ofRoute(getCustomer, 'customer', 'customersByIds', CUSTOMER),
  order: ofRoute(getOrder, 'order', 'ordersByIds', ORDER),
  coin_movement: {
    schema: movement.schema,
    many: {
      operation: `query EventMovements($ids: [ID!]!) { coinMovements(ids: $ids) { ${COIN_MOVEMENT} } }
        ${COIN_MOVEMENT.definition}`,
      result: (data) =>
        (data.coinMovements as unknown[]).map((m) => movement.map(m) as { id: string }),
    },
  },
  coin_hold: byId('coinHold', COIN_HOLD),
  // Written with its data by the ledger and the expiry job, in the transaction of the effect:
  // a lot's figures at that moment are the event (the lot itself moves on).
  coin_lot: { schema: coinLotEventRecord },
  engine_execution: byId('engineExecution', ENGINE_EXECUTION),
  campaign_award: byId('campaignAward', CAMPAIGN_AWARD),
  // Written by hand: the settlement's figures are flattened into the tournament.
  tournament: {
    schema: tournamentRecord,
    one: {
      operation: `query EventTournament($id: ID!) {
        campaign(id: $id) { id title startsAt endsAt status settlement { awarded completedAt } }
      }`,
      result: (data) => {
        const { settlement, ...c } = data.campaign as Record<string, unknown> & {
          settlement: { awarded: number; completedAt: string | null } | null;
        };
        return {
          ...(snakeKeys(c) as object),
          awarded: settlement?.awarded ?? 0,
          settled_at: settlement?.completedAt ?? null,
        };
      },
    },
  },
};

/** `data` of a resource deleted before its event was rendered (src/events/render.ts). */
const goneRecord = z.object({ id: z.uuid(), deleted: z.literal(true) }).meta({
  id: 'DeletedResource',
  description: 'The resource, deleted before this event was sent.',
});

/** `customer.deleted`'s `data`: what a partner matches its player by. */
const deletedCustomerRecord = z
  .object({ id: z.uuid(), external_id: z.string(), deleted: z.literal(true) })
  .meta({ id: 'DeletedCustomerEvent', description: 'A customer, deleted.' });

/** Each type as a receiver gets it (the OpenAPI document's `webhooks`): the event, its `data` typed. */
export const eventWebhooks = () =>
  Object.fromEntries(
    EVENT_TYPE_NAMES.map((type) => {
      const { resource, description } = EVENT_TYPES[type];
      const data =
        type === 'customer.deleted'
          ? deletedCustomerRecord
          : z.union([EVENT_DATA[resource].schema, goneRecord]);
      return [type, { description, body: eventRecord.extend({ type: z.literal(type), data }) }];
    }),
  );
