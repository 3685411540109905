// Named toolsets (issue 32), as the large public MCP servers offer them: a connection lists the
// sets it asks for (`?toolsets=` on HTTP, `--toolsets` on stdio; `partner` when it names none),
// so an agent's context holds the tools of its job and not all 72. Each set's tools/list stays
// ≤ 25 KB and all of them together ≤ 60 KB (test/mcp/toolsets.test.ts prints and holds both).
// A set is a list of route names: every tool is a row of the one route table, called through
// the same pipeline as REST. A route may sit in several sets (an agent of the establishment side
// finds its establishment id with get_brand_sub_brand as a partner agent does).
import type { Route } from '../rest/route.js';
import { ROUTES } from '../rest/table.js';

export type ToolsetName =
  | 'partner'
  | 'catalog'
  | 'holds'
  | 'events'
  | 'sandbox'
  | 'establishment'
  | 'campaigns'
  | 'reports';

type Toolset = { description: string; routes: (route: Route) => boolean };

/** Browsing the catalog's structure; an order needs only search_products and get_product. */
const CATALOG = new Set([
  'search_products',
  'get_product',
  'list_stores',
  'get_store',
  'list_catalogs',
  'get_catalog',
  'list_categories',
]);
const ORDERING = new Set(['search_products', 'get_product']);

const HOLDS = new Set([
  'create_coin_hold',
  'list_coin_holds',
  'get_coin_hold',
  'capture_coin_hold',
  'release_coin_hold',
]);
const isHold = (r: Route) => r.family === 'partner' && HOLDS.has(r.name);
/** The outbound events (issue 31): the feed and the webhook endpoints (their administration is not a tool). */
const isEvents = (r: Route) => r.family === 'partner' && ['Events', 'Webhooks'].includes(r.tag);
/** Questions over the whole sub-brand, and the log of responsible-gaming refusals. */
const isReport = (r: Route) =>
  r.family === 'partner' && (r.tag === 'Reports' || r.name === 'list_rg_decisions');
/** Test keys' helpers: what the operator does to live orders, done to test orders. */
const isSandbox = (r: Route) => r.family === 'partner' && r.name === 'advance_test_order';
const inPartnerSet = (r: Route) =>
  r.family === 'partner' &&
  !isHold(r) &&
  !isEvents(r) &&
  !isReport(r) &&
  !isSandbox(r) &&
  (!CATALOG.has(r.name) || ORDERING.has(r.name));

/**
 * The establishment operations an operator's agent needs (issue 32): find, read, create a player
 * and change its status; credit or debit coins and read their history; reservations through
 * acquisition and cancellation; products and catalogs, read only. Catalog and product authoring,
 * the marketplace iframe, games and deletions stay with people (the backoffice) and programs.
 */
const ESTABLISHMENT = new Set([
  'get_brand_sub_brand',
  'get_establishment',
  'search_players',
  'get_player',
  'create_player',
  'update_player',
  'adjust_player_coins',
  // The movement history of the same wallet: a player id is a customer id on both families.
  'list_customer_coin_movements',
  'reserve_player_order',
  'capture_order_details',
  'send_order',
  'track_order',
  'acquire_order',
  'cancel_reservation',
  'list_order_records',
  'list_player_orders',
  'get_player_order',
  'search_establishment_products',
  'get_establishment_product',
  'list_establishment_catalogs',
  'get_establishment_catalog',
]);

/** Running campaigns: list, read, create from a template, start/pause/end; standings; claims. */
const CAMPAIGNS = new Set([
  'get_brand_sub_brand',
  'list_campaigns',
  'get_campaign',
  'clone_campaign',
  'update_campaign_status',
  'get_tournament_standings',
  'get_tournament_position',
  'list_player_prizes',
  'claim_prize',
]);

export const TOOLSETS: Record<ToolsetName, Toolset> = {
  partner: {
    description:
      'Customers and their coins, responsible-gaming states, products, orders, store sessions, the engine.',
    routes: inPartnerSet,
  },
  catalog: {
    description: "The catalog's stores, catalogs and categories, and its products.",
    routes: (r) => r.family === 'partner' && CATALOG.has(r.name),
  },
  holds: {
    description: 'Coin holds: reserve coins, then capture or release them.',
    routes: isHold,
  },
  events: {
    description: 'The outbound event feed and the webhook endpoints, read only.',
    routes: isEvents,
  },
  sandbox: {
    description: 'Test keys only: move your test orders through fulfilment.',
    routes: isSandbox,
  },
  establishment: {
    description: 'Players, their coins, reservations to acquisition, products and catalogs.',
    routes: (r) => ESTABLISHMENT.has(r.name),
  },
  campaigns: {
    description: 'Campaigns from templates, their status, tournament standings and prizes.',
    routes: (r) => CAMPAIGNS.has(r.name),
  },
  reports: {
    description:
      'Questions over the whole sub-brand: coins per day or source, top earners, orders, campaigns, ' +
      'responsible-gaming refusals.',
    routes: isReport,
  },
};

export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['partner'];

/** The rows of a set, in the route table's order (never a row marked `mcp: false`). */
export const routesOf = (name: ToolsetName): Route[] =>
  ROUTES.filter((r) => r.mcp !== false && TOOLSETS[name].routes(r));
