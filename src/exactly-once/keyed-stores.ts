// Every store that makes something happen once, in one list (issue 30): what it keys, the unique
// index that holds the key (the database, not the code, refuses a second use), who writes it and
// what a repeat gets. A request with an Idempotency-Key is answered once by keyed-requests.ts,
// whatever its transport; the work it runs may itself be keyed below, so that it applies once even
// when it is asked for again without that header (an engine event resent by a partner, a claim
// sent twice from a player's phone). test/db/keyed-stores.test.ts holds each entry to its index in
// the migrated database, so a migration that drops one fails there. A store keyed by a row of its
// own spends the key with claim-key.ts, whose conflict target is the entry's key.

export type KeyedStore = {
  /** What is done once. */
  what: string;
  table: string;
  /** The unique index's columns, in order. */
  key: readonly string[];
  /** For a partial index over reasons: the prefixes it covers (`engine:` …). */
  reasons?: readonly string[];
  /** The module that claims the key. */
  owner: string;
  /** What a second request with the same key gets. */
  repeat: string;
};

export const KEYED_STORES = {
  request: {
    what: 'a request sent with an Idempotency-Key (REST, MCP tools, keyed GraphQL mutations)',
    table: 'idempotency_records',
    key: ['sub_brand_id', 'environment', 'key'],
    owner: 'exactly-once/keyed-requests.ts',
    repeat:
      'the first answer, byte for byte (stored, or rendered from the movement it references); ' +
      'another request under the key is a conflict; one still running, idempotency_in_progress',
  },
  bulkRun: {
    what: 'a bulk adjustment of a cohort',
    table: 'bulk_adjustments',
    key: ['sub_brand_id', 'environment', 'idempotency_key'],
    owner: 'domain/wallet/bulk-adjust-coins.ts',
    repeat: 'the same run, resumed where it stopped (each wallet moved once: bulk_id, customer_id)',
  },
  bulkWallet: {
    what: "one wallet's movement in a bulk adjustment",
    table: 'coin_movements',
    key: ['bulk_id', 'customer_id'],
    owner: 'domain/wallet/bulk-adjust-coins.ts',
    repeat: 'nothing: the wallet already moved in this run',
  },
  engineExecution: {
    what: 'an engine event (a delivery of a definition)',
    table: 'engine_executions',
    key: ['definition_id', 'environment', 'idempotency_key'],
    owner: 'engine/points/claim.ts',
    repeat:
      'the frozen result of the first execution; a claim left by a crash is taken over after its time-out',
  },
  engineCoins: {
    what: "an engine execution's coins",
    table: 'coin_movements',
    key: ['reason'],
    reasons: ['engine:'],
    owner: 'engine/points/execute.ts',
    repeat: 'refused by the database: the execution already credited',
  },
  orderCoins: {
    what: "an order's debit and its refund",
    table: 'coin_movements',
    key: ['reason'],
    reasons: ['order:', 'refund:'],
    owner: 'domain/orders/reserve-order.ts, domain/orders/cancel-order.ts',
    repeat: 'refused by the database: the order was already paid, or already refunded',
  },
  prepaid: {
    what: "a prepaid brand's reservation and its release for one order",
    table: 'prepaid_movements',
    key: ['reason'],
    reasons: ['order:', 'release:'],
    owner: 'domain/orders/prepaid.ts',
    repeat: 'refused by the database',
  },
  campaignCoins: {
    what: 'a campaign award claimed, or a mini-game draw paid',
    table: 'coin_movements',
    key: ['sub_brand_id', 'reason'],
    reasons: ['campaign:'],
    owner: 'engine/campaigns/claim-award.ts, engine/campaigns/mini-games.ts',
    repeat: 'award_already_claimed; a draw is paid once',
  },
  campaignAward: {
    what: 'a campaign award won (a streak day, a final rank)',
    table: 'campaign_awards',
    key: ['sub_brand_id', 'campaign_id', 'customer_id', 'award_key'],
    owner: 'engine/campaigns/grant-award.ts',
    repeat: 'the award already granted',
  },
  campaignActivity: {
    what: 'a campaign activity sent to insert-activity',
    table: 'campaign_activities',
    key: ['sub_brand_id', 'environment', 'idempotency_key'],
    owner: 'engine/campaigns/insert-activity.ts',
    repeat: 'the first answer (replayed: true); nothing counted twice',
  },
  gameDraw: {
    what: 'a mini-game play',
    table: 'campaign_game_draws',
    key: ['sub_brand_id', 'environment', 'idempotency_key'],
    owner: 'engine/campaigns/mini-games.ts',
    repeat: 'the same draw (replayed: true); no second credit spent',
  },
} as const satisfies Record<string, KeyedStore>;

export type KeyedStoreName = keyof typeof KEYED_STORES;
