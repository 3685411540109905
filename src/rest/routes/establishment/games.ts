// Mini-games: the document lists GET /players/{playerId}/game/{gameName}/{campaignId} without a
// shape; this one, POST …/play and POST …/rotate-seed are ours (docs/campaigns.md, "Mini-games";
// docs/fairness.md).
import { z } from 'zod';
import { CLIENT_SEED, CLIENT_SEED_RULE } from '../../../engine/campaigns/fair-draw.js';
import { defineRoute } from '../../define-route.js';
import { fragment } from '../../wire-answer.js';

const gameName = z
  .string()
  .regex(/^[a-z0-9_-]{1,40}$/)
  .describe('1-40 of a-z, 0-9, _ and -.');

const params = z.object({
  playerId: z.uuid().describe('A UUID.'),
  gameName,
  campaignId: z.uuid().describe('A UUID.'),
});

/** One play, as the establishment sees it: the GraphQL draw with its id as drawId. */
const DRAW = fragment(
  'GameDraw',
  'CampaignGameDraw',
  'drawId: id tableVersion draw clientSeed nonce seedHash serverSeed totalWeight resultIndex label coins movementId createdAt',
);

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
    "each prize's chance (weight / total) and the expected coins of a play, serverSeedHash (the commitment to the " +
    "seed of the next plays, made on the first read), and the player's last 20 draws.",
  hints: { readOnly: true, idempotent: true },
  params,
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation: `query PlayerGame($p: ID!, $g: String!, $c: ID!) {
    campaignGame(customerId: $p, gameName: $g, campaignId: $c) {
      playerId: customerId campaignId gameName credits serverSeedHash
      table { version expectedCoins prizes: odds { label coins weight chance } } draws { ${DRAW} }
    }
  }
  ${DRAW.definition}`,
  variables: ({ params: p }) => ({ p: p.playerId, g: p.gameName, c: p.campaignId }),
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
    'Takes one play and draws a prize from the current table, provably fairly: HMAC-SHA256(server seed, ' +
    '"clientSeed:nonce") mapped onto the total weight without modulo bias (docs/fairness.md). clientSeed is the ' +
    "player's (else one is generated and answered); the seed hash, client seed, nonce, number drawn, table version " +
    'and result are recorded, and coins won are credited through the ledger (reason campaign:draw:<drawId>). ' +
    'Idempotency-Key required: a retry answers the same draw. No plays left: 400 NO_GAME_CREDITS; a player under an active responsible-gaming state: 409 RG_BLOCKED.',
  hints: {},
  params,
  body: z
    .object({
      clientSeed: z
        .string()
        .regex(CLIENT_SEED, `must be ${CLIENT_SEED_RULE}`)
        .meta({ examples: ['lucky-6'] })
        .optional()
        .describe(`The player's seed: ${CLIENT_SEED_RULE}. Absent: 16 random bytes, hex.`),
    })
    .optional(),
  idempotency: 'required',
  successStatus: 200,
  errors: [
    'not_found',
    'no_game_credits',
    'customer_not_eligible',
    'rg_blocked',
    'service_unavailable',
  ],
  operation: `mutation PlayGame($p: ID!, $g: String!, $c: ID!, $key: String!, $seed: String) {
    playCampaignGame(customerId: $p, gameName: $g, campaignId: $c, idempotencyKey: $key, clientSeed: $seed) {
      replayed draw { ${DRAW} }
    }
  }
  ${DRAW.definition}`,
  variables: ({ params: p, body }, { idempotencyKey }) => ({
    p: p.playerId,
    g: p.gameName,
    c: p.campaignId,
    key: idempotencyKey,
    seed: body?.clientSeed ?? null,
  }),
});

export const rotateGameSeed = defineRoute({
  name: 'rotate_game_seed',
  family: 'establishment',
  method: 'POST',
  path: '/campaigns/{campaignId}/game/{gameName}/rotate-seed',
  scope: 'campaigns:write',
  tag: 'Games',
  summary: "Reveal a mini-game's server seed",
  description:
    "Reveals the game's active server seed (its draws can then be checked at GET /fairness/verify) and starts " +
    'a new one, whose hash is answered. One transaction, the seed row locked first: no play uses a seed being ' +
    'revealed. previousSeed is null when the game had no seed yet. No table for the game: 404.',
  hints: {},
  params: z.object({ campaignId: z.uuid().describe('A UUID.'), gameName }),
  idempotency: 'optional',
  successStatus: 200,
  errors: ['not_found', 'service_unavailable', 'conflict'],
  operation: `mutation RotateGameSeed($c: ID!, $g: String!) {
    rotateCampaignGameSeed(campaignId: $c, gameName: $g) {
      previousSeed { seedHash serverSeed draws createdAt rotatedAt } currentSeedHash
    }
  }`,
  variables: ({ params: p }) => ({ c: p.campaignId, g: p.gameName }),
});
