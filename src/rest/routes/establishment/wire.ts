// Shared pieces of establishment route rows: uuid path ids (malformed is 400 here, not 404),
// the player record and page-number pagination.
import { z } from 'zod';
import { joinName } from '../../../domain/customers/player.js';
import { NUMBERED_PAGE, numberedPageSize, pageNumber } from '../../../domain/pages.js';
import { fromQuery } from '../partner/wire.js';
import { RESPONSIBLE_GAMING } from '../partner/responsible-gaming.js';
import { wireRecord } from '../../wire-answer.js';
import { AWARD_FIELDS, award } from './award-wire.js';

const responsibleGamingRecord = wireRecord('establishment', RESPONSIBLE_GAMING).schema;

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

/** The GraphQL selection behind a player record. */
export const PLAYER_SELECTION = `id subBrandId firstName lastName email status coinBalance createdAt
  responsibleGaming { state until source since } gameCredits { campaignId gameName credits } campaignPrizes { ${AWARD_FIELDS} }`;

export const playerRecord = z
  .object({
    playerId: z.uuid(),
    establishmentId: z.uuid(),
    name: z.string().describe('First and last name, joined by one space.'),
    email: z.email().nullable(),
    playerStatus: z.enum(['active', 'watch', 'restricted', 'banned']),
    coins: z.number().int().min(0).describe('The wallet balance.'),
    createdAt: z.iso.datetime(),
    responsibleGaming: responsibleGamingRecord, // additive (docs/compliance.md)
    gameCredits: z
      .record(z.string(), z.number().int().min(1))
      .describe(
        'Mini-game plays left, keyed `<gameName>:<campaignId>` (the path of GET /players/{playerId}/game/' +
          '{gameName}/{campaignId}); a game with none left, or in a deleted campaign, is not listed.',
      ),
    prizes: z
      .array(award.schema)
      .describe(
        'The newest 20 campaign awards (pending, claimed or expired), newest first, as in GET ' +
          '/players/{playerId}/prizes, which lists them all.',
      ),
  })
  .meta({
    id: 'Player',
    description:
      "An establishment's player: the partner API's customer, seen by the establishment.",
  });

type PlayerNode = {
  id: string;
  subBrandId: string;
  firstName: string;
  lastName: string;
  email: string | null;
  status: string;
  coinBalance: number;
  createdAt: string;
  responsibleGaming: unknown;
  gameCredits: { campaignId: string; gameName: string; credits: number }[];
  campaignPrizes: unknown[];
};

export const toPlayer = (node: unknown) => {
  const p = node as PlayerNode;
  return {
    playerId: p.id,
    establishmentId: p.subBrandId,
    name: joinName(p.firstName, p.lastName),
    email: p.email,
    playerStatus: p.status,
    coins: p.coinBalance,
    createdAt: p.createdAt,
    responsibleGaming: p.responsibleGaming,
    gameCredits: Object.fromEntries(
      p.gameCredits.map((g) => [`${g.gameName}:${g.campaignId}`, g.credits]),
    ),
    prizes: p.campaignPrizes.map(award.map),
  };
};

/** What GET /players/{playerId} adds: the wallet beyond its balance (docs/expiry-and-holds.md). */
export const WALLET_SELECTION = `coins { held available expiring { amount expiresAt }
  holds { id amount reason expiresAt createdAt } lots { id amount remaining expiresAt createdAt } }`;

const walletRecord = z
  .object({
    held: z.number().int().min(0).describe('Coins on active holds.'),
    available: z.number().int().min(0).describe('What can be spent: coins less holds.'),
    expiring: z
      .array(z.object({ amount: z.number().int(), expiresAt: z.iso.datetime() }))
      .describe('The next five expiries, soonest first.'),
    holds: z
      .array(
        z.object({
          holdId: z.uuid(),
          amount: z.number().int(),
          reason: z.string().nullable(),
          expiresAt: z.iso.datetime(),
          createdAt: z.iso.datetime(),
        }),
      )
      .describe('The active holds (at most 100).'),
    lots: z
      .array(
        z.object({
          lotId: z.uuid(),
          amount: z.number().int(),
          remaining: z.number().int(),
          expiresAt: z.iso.datetime().nullable(),
          createdAt: z.iso.datetime(),
        }),
      )
      .describe('Lots with coins left, in the order debits spend them (at most 100).'),
  })
  .meta({ id: 'PlayerWallet', description: "A player's coins beyond the balance." });

export const playerDetail = playerRecord
  .extend({ wallet: walletRecord.describe('Additive: holds, expiries and lots.') })
  .meta({ id: 'PlayerDetail', description: 'One player, with its wallet.' });

type WalletNode = {
  coins: {
    held: number;
    available: number;
    expiring: unknown[];
    holds: ({ id: string } & Record<string, unknown>)[];
    lots: ({ id: string } & Record<string, unknown>)[];
  };
};

export const toPlayerDetail = (node: unknown) => {
  const {
    coins: { held, available, expiring, holds, lots },
  } = node as WalletNode;
  return {
    ...toPlayer(node),
    wallet: {
      held,
      available,
      expiring,
      holds: holds.map(({ id, ...h }) => ({ holdId: id, ...h })),
      lots: lots.map(({ id, ...l }) => ({ lotId: id, ...l })),
    },
  };
};
