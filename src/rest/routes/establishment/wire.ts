// Shared pieces of establishment route rows: uuid path ids (malformed is 400 here, not 404),
// the player record and page-number pagination.
import { z } from 'zod';
import { NUMBERED_PAGE, numberedPageSize, pageNumber } from '../../../domain/pages.js';
import { fromQuery } from '../partner/wire.js';
import { RESPONSIBLE_GAMING } from '../partner/responsible-gaming.js';
import { fragment, neverNull, wireRecord, type Derived } from '../../wire-answer.js';
import { AWARD } from './award-wire.js';

/** A path id that must be a UUID: anything else is 400 VALIDATION_ERROR naming it. */
export const uuidParams = <K extends string>(...names: K[]) =>
  z.object(
    Object.fromEntries(names.map((n) => [n, z.uuid().describe('A UUID.')])) as Record<K, z.ZodUUID>,
  );

/**
 * A numbered page asked for in a query string (domain/pages.ts). The defaults sit inside
 * `fromQuery`: zod's JSON Schema of a request leaves out a default put around a preprocess, and
 * the document would not show it.
 */
export const pageQuery = { page: fromQuery(pageNumber), limit: fromQuery(numberedPageSize) };

/** A numbered page asked for in a search body: `pagination: { page, limit }`, optional. */
export const pageBody = z.object({ page: pageNumber, limit: numberedPageSize }).optional();

/** What a list's `paginationControls` tells a client about page sizes. */
export const PAGINATION_CONTROLS = {
  defaultLimit: NUMBERED_PAGE.defaultSize,
  maxLimit: NUMBERED_PAGE.maxSize,
  allowed: [...NUMBERED_PAGE.sizes],
};

/** Mini-game plays on the wire: keyed by the path that plays them, a game with none left unlisted. */
const playsLeft = (): Derived => ({
  schema: z
    .record(z.string(), z.number().int().min(1))
    .describe(
      'Mini-game plays left, keyed `<gameName>:<campaignId>` (the path of GET /players/{playerId}/game/' +
        '{gameName}/{campaignId}); a game with none left, or in a deleted campaign, is not listed.',
    ),
  map: (credits) =>
    Object.fromEntries(
      (credits as { campaignId: string; gameName: string; credits: number }[]).map((g) => [
        `${g.gameName}:${g.campaignId}`,
        g.credits,
      ]),
    ),
});

/** The player record: the partner API's customer, in this family's words. */
export const PLAYER = fragment(
  'Player',
  'Customer',
  `playerId: id establishmentId: subBrandId name email playerStatus: status coins: coinBalance createdAt
  responsibleGaming { ${RESPONSIBLE_GAMING} } gameCredits { campaignId gameName credits } prizes: campaignPrizes { ${AWARD} }`,
  [RESPONSIBLE_GAMING, AWARD],
  {
    description:
      "An establishment's player: the partner API's customer, seen by the establishment.",
    values: { gameCredits: playsLeft },
  },
);

export const player = wireRecord('establishment', PLAYER);

/**
 * What GET /players/{playerId} adds: the wallet beyond its balance (docs/expiry-and-holds.md). It
 * reads the present, so what GraphQL leaves null for a past instant (asOf) is always there.
 */
const PLAYER_WALLET = fragment(
  'PlayerWallet',
  'CoinBalance',
  `held available expiring { amount expiresAt } holds { holdId: id amount reason expiresAt createdAt }
  lots { lotId: id amount remaining expiresAt createdAt }`,
  [],
  {
    description: "A player's coins beyond the balance.",
    values: {
      held: neverNull('Coins on active holds.'),
      available: neverNull('What can be spent: coins less holds and coins already due.'),
      expiring: neverNull('The next five expiries, soonest first.'),
    },
  },
);

export const PLAYER_DETAIL = fragment(
  'PlayerDetail',
  'Customer',
  `${PLAYER} wallet: coins { ${PLAYER_WALLET} }`,
  [PLAYER, PLAYER_WALLET],
  { description: 'One player, with its wallet.' },
);
