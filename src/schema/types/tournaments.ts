// Tournaments' tables (docs/campaigns.md): a campaign's leaderboard and a player's live place in
// it, and a player's places across the running tournaments, with the players' names.
import { leaderboard, type Leader } from '../../engine/campaigns/settle-tournaments.js';
import {
  POSITION_STATUSES,
  tournamentPositions,
  type Position,
} from '../../engine/campaigns/tournament-positions.js';
import { prizeInput } from '../../engine/campaigns/schemas.js';
import { notFound } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import { builder } from '../builder.js';
import type { GraphQLContext } from '../context.js';
import { onReplica } from '../read.js';
import { tenantOf } from '../tenant.js';
import { read } from './campaign.js';

/** Who holds a place: the backoffice shows names, not ids (read in one query per page). */
type Named = { playerName: string | null; externalId: string | null };
type NamedLeader = Leader & Named;

const LeaderRef = builder.objectRef<NamedLeader>('CampaignLeader').implement({
  description: 'One place of a tournament: by points, then who reached them first.',
  fields: (t) => ({
    rank: t.exposeInt('rank'),
    customerId: t.exposeID('customerId'),
    playerName: t.exposeString('playerName', {
      nullable: true,
      description: 'First and last name (staff and keys of the tenant alike).',
    }),
    externalId: t.exposeString('externalId', { nullable: true }),
    points: t.expose('points', { type: 'SafeInt' }),
    reachedAt: t.expose('reachedAt', {
      type: 'DateTime',
      description: 'When the player reached these points.',
    }),
  }),
});

/** The players' names for a page of places: one query, never one per row. */
async function named<T extends { customerId: string }>(
  ctx: GraphQLContext,
  leaders: T[],
): Promise<(T & Named)[]> {
  const players = leaders.length
    ? await ctx.db.customer.findMany({
        where: { id: { in: leaders.map((l) => l.customerId) }, ...tenantOf(ctx) },
        select: { id: true, firstName: true, lastName: true, externalId: true },
      })
    : [];
  const byId = new Map(players.map((p) => [p.id, p]));
  return leaders.map((l) => {
    const p = byId.get(l.customerId);
    return {
      ...l,
      playerName: p ? `${p.firstName} ${p.lastName}` : null,
      externalId: p?.externalId ?? null,
    };
  });
}

const StandingRef = builder
  .objectRef<Omit<Position, 'endsAt' | 'title' | 'status'> & { customerId: string } & Named>(
    'CampaignStanding',
  )
  .implement({
    description: "One player's live place in a running or paused tournament.",
    fields: (t) => ({
      rank: t.exposeInt('rank'),
      customerId: t.exposeID('customerId'),
      playerName: t.exposeString('playerName', { nullable: true }),
      externalId: t.exposeString('externalId', { nullable: true }),
      points: t.expose('points', { type: 'SafeInt' }),
      participants: t.exposeInt('participants'),
      prize: t.expose('prize', {
        type: 'JSON',
        nullable: true,
        description: 'What the place would win if the tournament ended now.',
      }),
    }),
  });

const PositionStatusEnum = builder.enumType('TournamentPositionStatus', {
  description: 'A tournament with live places: running, or paused.',
  values: POSITION_STATUSES,
});

const PositionRef = builder.objectRef<Position>('TournamentPosition').implement({
  description: "A player's live place in one running tournament.",
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    title: t.exposeString('title'),
    status: t.expose('status', { type: PositionStatusEnum }),
    endsAt: t.expose('endsAt', {
      type: 'DateTime',
      description: 'Exclusive: the first instant after the tournament.',
    }),
    rank: t.exposeInt('rank', { description: 'By points, then who reached them first.' }),
    points: t.expose('points', { type: 'SafeInt' }),
    participants: t.exposeInt('participants'),
    prize: t.expose('prize', {
      type: 'JSON',
      nullable: true,
      description: 'What the rank would win if the tournament ended now.',
      extensions: { jsonShape: prizeInput },
    }),
  }),
});

builder.prismaObjectFields('Campaign', (t) => ({
  leaderboard: t.field({
    type: [LeaderRef],
    description: 'Tournaments: the current (or final) ranking, from `offset`.',
    args: { first: t.arg.int({ defaultValue: 10 }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: async (c, args, ctx) =>
      named(
        ctx,
        await onReplica(ctx, (db) =>
          leaderboard(
            db,
            c,
            Math.min(Math.max(args.first ?? 10, 1), 100),
            Math.max(args.offset ?? 0, 0),
          ),
        ),
      ),
  }),
  standing: t.field({
    type: StandingRef,
    nullable: true,
    description:
      "Tournaments: a player's live place, found by player id or external id. Null when the player has no points here or the tournament is not running or paused (after the end, the final ranking is the leaderboard).",
    args: { player: t.arg.string({ required: true }) },
    resolve: async (c, args, ctx) => {
      const key = args.player.trim();
      const player = await ctx.db.customer.findFirst({
        where: { ...tenantOf(ctx), ...(isUuid(key) ? { id: key } : { externalId: key }) },
        select: { id: true },
      });
      if (!player) throw notFound('Customer');
      const mine = (await tournamentPositions(ctx.db, tenantOf(ctx), player.id, ctx.now())).find(
        (p) => p.campaignId === c.id,
      );
      if (!mine) return null;
      const [standing] = await named(ctx, [{ ...mine, customerId: player.id }]);
      return standing!;
    },
  }),
}));

builder.queryFields((t) => ({
  tournamentPositions: t.field({
    type: [PositionRef],
    authScopes: read,
    args: { customerId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      onReplica(ctx, (db) =>
        tournamentPositions(db, tenantOf(ctx), String(args.customerId), ctx.now()),
      ),
  }),
}));
