// Mini-games (docs/campaigns.md, "Mini-games"; docs/fairness.md): a campaign game's prize table,
// a player's plays and draws, a play, and the rotation of the game's server seed.
import { z } from 'zod';
import {
  expectedCoins,
  gameTableInput,
  playGame,
  prizeOdds,
  readGame,
  rotateGameSeed,
  setGameTable,
  type GameDraw,
  type GameTable,
} from '../../engine/campaigns/mini-games.js';
import type { Rotation } from '../../engine/campaigns/game-seeds.js';
import { builder } from '../builder.js';
import { effect } from '../effects.js';
import { requiredKeyOf } from '../idempotency-key.js';
import { actorOf, tenantOf } from '../tenant.js';
import { inputTypeOf } from '../zod-input.js';

const GameTableInput = inputTypeOf('CampaignGameTableInput', gameTableInput);

const write = { scope: 'campaigns:write' } as const;

/** 64 lowercase hex characters, on the wire (the examples: docs/fairness.md's worked example). */
const hex64 = (example: string) => ({
  jsonShape: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({ examples: [example] }),
});
const SEED_HASH = hex64('c0568a482edf422b232a548dbbb3bf1aaa8c38d81383b3cfc9e1bad8abc9d6cd');
const SERVER_SEED = hex64('d2f4c36b0c1f5e8a9b7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b');

const GamePrizeOddsRef = builder
  .objectRef<ReturnType<typeof prizeOdds>[number]>('CampaignGamePrizeOdds')
  .implement({
    description: 'A prize of the table and its chance.',
    fields: (t) => ({
      label: t.exposeString('label'),
      coins: t.expose('coins', { type: 'SafeInt' }),
      weight: t.exposeInt('weight'),
      chance: t.exposeFloat('chance', { description: 'weight / Σ weight: 0 to 1.' }),
    }),
  });

builder.prismaObject('CampaignGameTable', {
  description: "A version of a campaign game's prize table.",
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    gameName: t.exposeString('gameName'),
    version: t.exposeInt('version'),
    prizes: t.expose('prizes', { type: 'JSON', description: '[{ label, coins, weight }]' }),
    expectedCoins: t.float({
      description: 'What a play is worth on average: Σ coins × weight / Σ weight.',
      resolve: (table) => expectedCoins(table.prizes as GameTable),
    }),
    odds: t.field({
      type: [GamePrizeOddsRef],
      description: 'The prizes, each with its chance of a play.',
      resolve: (table) => prizeOdds(table.prizes as GameTable),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** The seed a draw used, attached by the domain (readGame, playGame). */
const seedOf = (draw: object) => (draw as Partial<GameDraw>).seed ?? null;

builder.prismaObject('CampaignGameDraw', {
  description:
    'One play: the seeds and nonce it used, the number drawn, the table version and the result (verifiable: docs/fairness.md).',
  fields: (t) => ({
    id: t.exposeID('id'),
    campaignId: t.exposeID('campaignId'),
    customerId: t.exposeID('customerId'),
    gameName: t.exposeString('gameName'),
    tableVersion: t.exposeInt('tableVersion'),
    draw: t.exposeInt('draw', {
      description:
        'In [0, totalWeight): from HMAC-SHA256(server seed, "clientSeed:nonce") (crypto.randomInt before seeds existed).',
    }),
    clientSeed: t.exposeString('clientSeed', {
      nullable: true,
      description: "The player's seed (null for draws before seeds).",
      extensions: { jsonShape: z.string().meta({ examples: ['lucky-6'] }) },
    }),
    nonce: t.exposeInt('nonce', {
      nullable: true,
      description: "The play's number under its server seed, from 0.",
    }),
    seedHash: t.string({
      nullable: true,
      description: 'SHA-256 of the server seed used (null before seeds existed).',
      extensions: SEED_HASH,
      resolve: (d) => seedOf(d)?.seedHash ?? null,
    }),
    serverSeed: t.string({
      nullable: true,
      description: 'The server seed, once rotated out (revealed); null while it is active.',
      extensions: SERVER_SEED,
      resolve: (d) => seedOf(d)?.revealedSeed ?? null,
    }),
    totalWeight: t.exposeInt('totalWeight'),
    resultIndex: t.exposeInt('resultIndex', { description: 'The prize of the table it fell on.' }),
    label: t.exposeString('label'),
    coins: t.expose('coins', { type: 'SafeInt' }),
    movementId: t.exposeID('movementId', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

type GameState = Awaited<ReturnType<typeof readGame>>;
const GameStateRef = builder.objectRef<GameState>('CampaignGameState').implement({
  description: "A player's side of a campaign's mini-game.",
  fields: (t) => ({
    customerId: t.exposeID('customerId'),
    campaignId: t.exposeID('campaignId'),
    gameName: t.exposeString('gameName'),
    credits: t.exposeInt('credits', { description: 'Plays left.' }),
    table: t.prismaField({
      type: 'CampaignGameTable',
      nullable: true,
      description: 'The current table; null until the backoffice sets one.',
      resolve: (_q, g) => g.table,
    }),
    serverSeedHash: t.exposeString('serverSeedHash', {
      nullable: true,
      description:
        "SHA-256 of the game's active server seed, committed before the plays that use it (null without a table).",
      extensions: SEED_HASH,
    }),
    draws: t.prismaField({
      type: ['CampaignGameDraw'],
      description: 'The latest 20 plays, newest first.',
      resolve: (_q, g) => g.draws,
    }),
  }),
});

const PlayRef = builder
  .objectRef<Awaited<ReturnType<typeof playGame>>>('CampaignGamePlay')
  .implement({
    fields: (t) => ({
      replayed: t.exposeBoolean('replayed', {
        description: 'The Idempotency-Key was seen before: this is the same draw.',
      }),
      draw: t.prismaField({ type: 'CampaignGameDraw', resolve: (_q, p) => p.draw }),
    }),
  });

type Revealed = NonNullable<Rotation['previousSeed']>;
const RevealedSeedRef = builder.objectRef<Revealed>('RevealedGameSeed').implement({
  description: 'A server seed rotated out: with it, every draw it made can be recomputed.',
  fields: (t) => ({
    seedHash: t.exposeString('seedHash', { extensions: SEED_HASH }),
    serverSeed: t.exposeString('serverSeed', {
      description: 'The seed, revealed: every draw it made can now be recomputed.',
      extensions: SERVER_SEED,
    }),
    draws: t.exposeInt('draws', { description: 'The plays it drew (nonces 0 to draws − 1).' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    rotatedAt: t.expose('rotatedAt', { type: 'DateTime' }),
  }),
});

const RotationRef = builder.objectRef<Rotation>('CampaignGameSeedRotation').implement({
  fields: (t) => ({
    previousSeed: t.field({
      type: RevealedSeedRef,
      nullable: true,
      description: 'Null when the game had no seed yet.',
      resolve: (r) => r.previousSeed,
    }),
    currentSeedHash: t.exposeString('currentSeedHash', {
      description: 'SHA-256 of the new active seed.',
      extensions: SEED_HASH,
    }),
  }),
});

builder.queryField('campaignGame', (t) =>
  t.field({
    type: GameStateRef,
    authScopes: { scope: 'games:read' },
    args: {
      customerId: t.arg.id({ required: true }),
      gameName: t.arg.string({ required: true }),
      campaignId: t.arg.id({ required: true }),
    },
    resolve: (_root, a, ctx) =>
      readGame(ctx.db, tenantOf(ctx), String(a.customerId), a.gameName, String(a.campaignId)),
  }),
);

builder.mutationFields((t) => ({
  playCampaignGame: t.field({
    extensions: effect('moves_coins'),
    type: PlayRef,
    authScopes: { scope: 'prizes:claim' },
    args: {
      customerId: t.arg.id({ required: true }),
      gameName: t.arg.string({ required: true }),
      campaignId: t.arg.id({ required: true }),
      idempotencyKey: t.arg.string({ description: 'Else the request’s Idempotency-Key header.' }),
      clientSeed: t.arg.string({
        description:
          'The player’s seed: 1-64 printable ASCII characters, without spaces or ":". Absent: one is generated.',
      }),
    },
    resolve: (_root, a, ctx) =>
      playGame(
        ctx.db,
        tenantOf(ctx),
        actorOf(ctx),
        String(a.customerId),
        a.gameName,
        String(a.campaignId),
        requiredKeyOf(a.idempotencyKey, ctx),
        a.clientSeed,
      ),
  }),
  setCampaignGameTable: t.prismaField({
    extensions: effect('changes'),
    type: 'CampaignGameTable',
    authScopes: write,
    description: 'A new version of the prize table.',
    args: {
      campaignId: t.arg.id({ required: true }),
      gameName: t.arg.string({ required: true }),
      input: t.arg({ type: GameTableInput, required: true }),
    },
    resolve: (_q, _root, a, ctx) =>
      setGameTable(ctx.db, tenantOf(ctx), String(a.campaignId), a.gameName, a.input),
  }),
  rotateCampaignGameSeed: t.field({
    extensions: effect('creates'),
    type: RotationRef,
    authScopes: write,
    description:
      "Reveals the game's active server seed and starts a new one, in one transaction (docs/fairness.md).",
    args: {
      campaignId: t.arg.id({ required: true }),
      gameName: t.arg.string({ required: true }),
    },
    resolve: (_root, a, ctx) =>
      rotateGameSeed(ctx.db, tenantOf(ctx), String(a.campaignId), a.gameName, ctx.now()),
  }),
}));
