// Players: the partner API's customers seen by the establishment. One table, one wallet.
import { z } from 'zod';
import { CUSTOMER_STATUSES } from '../../../domain/customers/schemas.js';
import { defineRoute } from '../../define-route.js';
import {
  PAGINATION_CONTROLS,
  pageBody,
  pageQuery,
  player,
  PLAYER,
  PLAYER_DETAIL,
  uuidParams,
} from './wire.js';

const status = z.enum(CUSTOMER_STATUSES);
const instant = z.iso.datetime({
  message: 'must be an ISO-8601 UTC date-time ending in Z, e.g. 2026-01-31T12:00:00Z',
});
const coins = z.number().int().min(0);

const searchBody = z.object({
  search: z.string().max(200).optional().describe('Part of the name or e-mail, or a playerId.'),
  filters: z
    .object({
      status: z.array(status).optional().describe('Any of these statuses.'),
      coin: z.object({ min: coins.optional(), max: coins.optional() }).optional(),
      registerDate: z
        .object({ from: instant.optional(), to: instant.optional() })
        .optional()
        .describe('Creation window: from inclusive, to exclusive.'),
    })
    .optional(),
  pagination: pageBody,
  sort: z
    .object({ field: z.literal('createdAt').default('createdAt'), order: z.enum(['asc', 'desc']) })
    .optional()
    .describe('Newest first unless told otherwise.'),
});

const PAGE_SELECTION = `total totalExact page limit hasMore coin { name parity } players { ${PLAYER} }`;

type PageNode = {
  total: number;
  totalExact: boolean;
  page: number;
  limit: number;
  hasMore: boolean;
  coin: { name: string; parity: number };
  players: unknown[];
};

const paginationMeta = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
    hasMore: z.boolean(),
    totalExact: z
      .boolean()
      .describe('False when more than 10000 players match: total is then that bound.'),
  })
  .meta({
    id: 'PlayerPagination',
    description: 'Where a page of players stands in the whole search.',
  });

export const searchPlayers = defineRoute({
  name: 'search_players',
  family: 'establishment',
  method: 'POST',
  path: '/players/search',
  scope: 'customers:read',
  tag: 'Players',
  summary: 'Search players',
  description:
    'Players newest first (or sort.order asc), filtered by any combination (AND) of: search (part of the name or ' +
    'e-mail, or an exact playerId), statuses, a coin range and a registration window. Page numbers from 1; ' +
    '`meta.pagination.total` counts the matches exactly up to 10000 (then `totalExact` is false) and pages reach ' +
    'that far. A read: it spends the read budget.',
  hints: { readOnly: true, idempotent: true },
  body: searchBody,
  idempotency: 'none',
  successStatus: 200,
  response: z
    .object({
      meta: z.object({
        version: z.string(),
        pagination: paginationMeta,
        filters: z.object({
          types: z.array(z.string()),
          statuses: z.array(z.string()),
          categories: z.array(z.string()),
          priceRange: z.null(),
          stockRange: z.null(),
          current: z.record(z.string(), z.unknown()),
        }),
        sort: z.object({
          fields: z.array(z.string()),
          allowed: z.array(z.string()),
          default: z.string(),
          current: z.string(),
        }),
        paginationControls: z.object({
          defaultLimit: z.number().int(),
          maxLimit: z.number().int(),
          allowed: z.array(z.number().int()),
          current: z.number().int(),
        }),
        coin: z.object({ parity: z.number(), name: z.string() }),
      }),
      data: z.array(
        player.schema.extend({
          entityType: z.literal('player'),
          scope: z.literal('establishment'),
        }),
      ),
    })
    .meta({
      id: 'PlayerSearchResult',
      description: 'A page of players with the search that found them.',
    }),
  errors: [],
  operation: `query SearchPlayers($input: PlayerSearchInput!) { playerSearch(input: $input) { ${PAGE_SELECTION} } }
    ${PLAYER.definition}`,
  variables: ({ body }) => ({
    input: {
      search: body.search?.trim() || undefined,
      statuses: body.filters?.status,
      minCoins: body.filters?.coin?.min,
      maxCoins: body.filters?.coin?.max,
      createdAfter: body.filters?.registerDate?.from,
      createdBefore: body.filters?.registerDate?.to,
      page: body.pagination?.page,
      limit: body.pagination?.limit,
      order: body.sort?.order,
    },
  }),
  result: (data, { input: { body } }) => {
    const p = data.playerSearch as PageNode;
    return {
      meta: {
        version: '1.0',
        pagination: {
          page: p.page,
          limit: p.limit,
          total: p.total,
          hasMore: p.hasMore,
          totalExact: p.totalExact,
        },
        filters: {
          types: ['player'],
          statuses: [...CUSTOMER_STATUSES],
          categories: [],
          priceRange: null,
          stockRange: null,
          current: {
            ...(body.search ? { search: body.search } : {}),
            ...body.filters,
          },
        },
        sort: { ...SORT_META, current: `createdAt:${body.sort?.order ?? 'desc'}` },
        paginationControls: { ...PAGINATION_CONTROLS, current: p.limit },
        coin: { parity: p.coin.parity, name: p.coin.name },
      },
      // Assigned, not spread into a new literal: V8 builds `{ ...o, a, b }` through its runtime
      // (4.5 µs a row against 0.7, measured with the row's JSON; docs/performance.md).
      data: p.players.map((node) =>
        Object.assign(player.map(node) as object, { entityType: 'player', scope: 'establishment' }),
      ),
    };
  },
});

const SORT_META = {
  fields: ['createdAt'],
  allowed: ['createdAt:desc', 'createdAt:asc'],
  default: 'createdAt:desc',
  current: 'createdAt:desc',
};

export const listPlayers = defineRoute({
  name: 'list_players',
  family: 'establishment',
  method: 'GET',
  path: '/players',
  scope: 'customers:read',
  tag: 'Players',
  summary: 'List players',
  description:
    'The players of the establishment, newest first, by page (the variant description of the list). status takes ' +
    'the four player statuses. establishmentId, when sent, must be the key\u2019s own.',
  hints: { readOnly: true, idempotent: true },
  query: z.object({
    ...pageQuery,
    establishmentId: z.uuid().optional(),
    status: status.optional(),
  }),
  idempotency: 'none',
  successStatus: 200,
  response: z
    .object({
      players: z.array(player.schema),
      pagination: z.object({
        currentPage: z.number().int(),
        totalPages: z.number().int(),
        totalItems: z.number().int(),
        itemsPerPage: z.number().int(),
      }),
    })
    .meta({ id: 'PlayerList', description: 'A page of players.' }),
  errors: [],
  operation: `query ListPlayers($input: PlayerSearchInput!) { playerSearch(input: $input) { ${PAGE_SELECTION} } }
    ${PLAYER.definition}`,
  variables: ({ query }) => ({
    input: {
      establishmentId: query.establishmentId,
      statuses: query.status ? [query.status] : undefined,
      page: query.page,
      limit: query.limit,
    },
  }),
  result: (data) => {
    const p = data.playerSearch as PageNode;
    return {
      players: p.players.map(player.map),
      pagination: {
        currentPage: p.page,
        totalPages: Math.ceil(p.total / p.limit),
        totalItems: p.total,
        itemsPerPage: p.limit,
      },
    };
  },
});

/** The domain's rules (domain/customers/player.ts), stated in the document. */
const playerName = z.string().meta({
  minLength: 1,
  maxLength: 241,
  examples: ['Ana María García'],
  description: 'First name, a space, last name: each part at most 120 characters.',
});
const playerEmail = z.email().max(255).nullish();

export const createPlayer = defineRoute({
  name: 'create_player',
  family: 'establishment',
  method: 'POST',
  path: '/players',
  scope: 'customers:create',
  tag: 'Players',
  summary: 'Create a player',
  description:
    "Registers a player with an empty wallet: the partner API's customer, split into first and last name at the " +
    'first space (a one-word name has an empty last name). establishmentId must be the key\u2019s own (else 404 ' +
    'ESTABLISHMENT_NOT_FOUND). An optional Idempotency-Key makes a retry safe.',
  hints: {},
  body: z.object({
    establishmentId: z.uuid(),
    name: playerName,
    email: playerEmail,
  }),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found'],
  operation: `mutation CreatePlayer($input: CreatePlayerInput!) { createPlayer(input: $input) { ${PLAYER} } }
    ${PLAYER.definition}`,
  variables: ({ body }) => ({ input: body }),
});

const params = uuidParams('playerId');

export const getPlayer = defineRoute({
  name: 'get_player',
  family: 'establishment',
  method: 'GET',
  path: '/players/{playerId}',
  scope: 'customers:read',
  tag: 'Players',
  summary: 'Get a player',
  description:
    'One player with its coins (the wallet balance) and, additive, its wallet: what is held and spendable, the ' +
    'next expiries, the active holds and the lots with coins left. Another tenant\u2019s player is 404.',
  hints: { readOnly: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: `query GetPlayer($id: ID!) { customer(id: $id) { ${PLAYER_DETAIL} } } ${PLAYER_DETAIL.definition}`,
  variables: ({ params }) => ({ id: params.playerId }),
});

export const updatePlayer = defineRoute({
  name: 'update_player',
  family: 'establishment',
  method: 'PUT',
  path: '/players/{playerId}',
  scope: 'customers:update',
  tag: 'Players',
  summary: 'Update a player',
  description:
    'Sets name and playerStatus (active, watch, restricted or banned: the partner statuses); email when sent ' +
    '(null clears it). Restricted and banned players cannot order.',
  hints: { idempotent: true },
  params,
  body: z.object({ name: playerName, playerStatus: status, email: playerEmail }),
  idempotency: 'optional',
  successStatus: 200,
  errors: [],
  operation: `mutation UpdatePlayer($id: ID!, $input: UpdatePlayerInput!) { updatePlayer(id: $id, input: $input) { ${PLAYER} } }
    ${PLAYER.definition}`,
  variables: ({ params, body }) => ({
    id: params.playerId,
    input: { name: body.name, status: body.playerStatus, email: body.email },
  }),
});

export const deletePlayer = defineRoute({
  name: 'delete_player',
  family: 'establishment',
  method: 'DELETE',
  path: '/players/{playerId}',
  scope: 'customers:delete',
  tag: 'Players',
  summary: 'Delete a player',
  description:
    'Deletes the player for good, with its wallet and movements; its orders stay without the player link. ' +
    'Irreversible: a second delete is 404.',
  hints: { destructive: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  errors: [],
  operation: 'mutation DeletePlayer($id: ID!) { deleteCustomer(id: $id) { playerId: id deleted } }',
  variables: ({ params }) => ({ id: params.playerId }),
});
