// Mini-games: the document lists GET /players/{playerId}/game/{gameName}/{campaignId} without a
// shape; this one and POST …/play are ours (docs/campaigns.md, "Mini-games").
import { z } from 'zod';
import { defineRoute } from '../../route.js';

const params = z.object({
  playerId: z.uuid().describe('A UUID.'),
  gameName: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/)
    .describe('1-40 of a-z, 0-9, _ and -.'),
  campaignId: z.uuid().describe('A UUID.'),
});

const DRAW_SELECTION =
  'id campaignId gameName tableVersion draw totalWeight resultIndex label coins movementId createdAt';

const draw = z.object({
  drawId: z.uuid(),
  tableVersion: z.number().int(),
  draw: z.number().int().describe('crypto.randomInt(0, totalWeight): the number drawn.'),
  totalWeight: z.number().int(),
  resultIndex: z.number().int().describe('The prize of the table it fell on.'),
  label: z.string(),
  coins: z.number().int(),
  movementId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

type Node = Record<string, unknown>;
const toDraw = (node: unknown) => {
  const { id, campaignId: _c, gameName: _g, ...rest } = node as Node;
  return { drawId: id, ...rest };
};

export const getPlayerGame = defineRoute({
  name: 'get_player_game',
  family: 'establishment',
  method: 'GET',
  path: '/players/{playerId}/game/{gameName}/{campaignId}',
  scope: 'games:read',
  tag: 'Games',
  summary: "A player's mini-game",
  description:
    'Plays left (granted by claiming a prize whose catalogPrize is game:<gameName>), the current prize table with ' +
    "each prize's chance (weight / total), and the player's last 20 draws.",
  hints: { readOnly: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  response: z.object({
    playerId: z.uuid(),
    campaignId: z.uuid(),
    gameName: z.string(),
    credits: z.number().int(),
    table: z
      .object({
        version: z.number().int(),
        prizes: z.array(
          z.object({
            label: z.string(),
            coins: z.number().int(),
            weight: z.number().int(),
            chance: z.number(),
          }),
        ),
      })
      .nullable()
      .describe('Null until the backoffice sets one.'),
    draws: z.array(draw),
  }),
  errors: ['not_found'],
  operation: `query PlayerGame($p: ID!, $g: String!, $c: ID!) {
    campaignGame(customerId: $p, gameName: $g, campaignId: $c) {
      credits table { version prizes } draws { ${DRAW_SELECTION} }
    }
  }`,
  variables: ({ params: p }) => ({ p: p.playerId, g: p.gameName, c: p.campaignId }),
  result: (data, { input }) => {
    const g = data.campaignGame as {
      credits: number;
      table: { version: number; prizes: { label: string; coins: number; weight: number }[] } | null;
      draws: unknown[];
    };
    const total = g.table?.prizes.reduce((s, p) => s + p.weight, 0) ?? 0;
    return {
      ...input.params,
      credits: g.credits,
      table: g.table && {
        version: g.table.version,
        prizes: g.table.prizes.map((p) => ({ ...p, chance: p.weight / total })),
      },
      draws: g.draws.map(toDraw),
    };
  },
});

export const playGame = defineRoute({
  name: 'play_game',
  family: 'establishment',
  method: 'POST',
  path: '/players/{playerId}/game/{gameName}/{campaignId}/play',
  scope: 'prizes:claim',
  tag: 'Games',
  summary: 'Play a mini-game',
  description:
    'Takes one play and draws a prize from the current table with a cryptographically secure generator ' +
    '(crypto.randomInt); the number drawn, the table version and the result are recorded, and coins won are ' +
    'credited through the ledger (reason campaign:draw:<drawId>). Idempotency-Key required: a retry answers the ' +
    'same draw. No plays left: 400 NO_GAME_CREDITS.',
  hints: {},
  params,
  idempotency: 'required',
  successStatus: 200,
  response: z.object({ replayed: z.boolean(), draw }),
  errors: ['not_found', 'no_game_credits', 'customer_not_eligible'],
  operation: `mutation PlayGame($p: ID!, $g: String!, $c: ID!, $key: String!) {
    playCampaignGame(customerId: $p, gameName: $g, campaignId: $c, idempotencyKey: $key) {
      replayed draw { ${DRAW_SELECTION} }
    }
  }`,
  variables: ({ params: p }, { idempotencyKey }) => ({
    p: p.playerId,
    g: p.gameName,
    c: p.campaignId,
    key: idempotencyKey,
  }),
  result: (data) => {
    const r = data.playCampaignGame as { replayed: boolean; draw: unknown };
    return { replayed: r.replayed, draw: toDraw(r.draw) };
  },
});
