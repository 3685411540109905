// Mini-games: a campaign's game has a versioned prize table; a player's plays (credits) come from
// claiming a `game:<name>` prize; a play takes one credit and draws a prize with
// crypto.randomInt, recording the number drawn, the table version and the result, once per
// Idempotency-Key. Coins won go through the one ledger function (`campaign:draw:<id>`).
import { randomInt } from 'node:crypto';
import { z } from 'zod';
import { inTransaction, type Db } from '../../domain/db.js';
import { AppError, notFound } from '../../domain/errors.js';
import { isUuid, newId } from '../../domain/ids.js';
import { MAX_COINS } from '../../domain/ledger/coins.js';
import { moveCoins } from '../../domain/ledger/move-coins.js';
import type { Actor, Tenant } from '../../domain/tenant.js';
import { parseInput } from '../../domain/validation.js';
import { EXCLUDED_STATUSES } from './targeting.js';
import { tenantKey } from '../shared/keys.js';

export const GAME_NAME = /^[a-z0-9_-]{1,40}$/;

export const gameTableInput = z.object({
  prizes: z
    .array(
      z.object({
        label: z.string().min(1).max(200),
        coins: z.number().int().min(0).max(MAX_COINS),
        weight: z.number().int().min(1).max(1_000_000),
      }),
    )
    .min(1)
    .max(50),
});
export type GameTable = z.output<typeof gameTableInput>['prizes'];

const checkName = (gameName: string) => {
  if (!GAME_NAME.test(gameName)) throw notFound('Game');
};

/** A new version of a campaign's game table (versions are kept: draws name theirs). */
export async function setGameTable(
  db: Db,
  tenant: Tenant,
  campaignId: string,
  gameName: string,
  input: unknown,
) {
  const { prizes } = parseInput(gameTableInput, input);
  if (!isUuid(campaignId)) throw notFound('Campaign');
  if (!GAME_NAME.test(gameName))
    throw new AppError('invalid_request', 'gameName: must be 1-40 of a-z, 0-9, _ and -', {
      issues: [{ field: 'gameName', code: 'format', message: 'must be 1-40 of a-z, 0-9, _ and -' }],
    });
  return inTransaction(db, async (tx) => {
    const campaign = await tx.campaign.findFirst({
      where: { id: campaignId, ...tenant, deletedAt: null },
    });
    if (!campaign) throw notFound('Campaign');
    await tx.$queryRaw`SELECT id FROM campaigns WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND id = ${campaignId}::uuid FOR UPDATE`;
    const last = await tx.campaignGameTable.findFirst({
      where: { subBrandId: tenant.subBrandId, campaignId, gameName },
      orderBy: { version: 'desc' },
    });
    return tx.campaignGameTable.create({
      data: {
        id: newId(),
        ...tenant,
        campaignId,
        gameName,
        version: (last?.version ?? 0) + 1,
        prizes,
      },
    });
  });
}

async function currentTable(db: Db, tenant: Tenant, campaignId: string, gameName: string) {
  return db.campaignGameTable.findFirst({
    where: { subBrandId: tenant.subBrandId, campaignId, gameName },
    orderBy: { version: 'desc' },
  });
}

/** Adds plays (claiming a `game:<name>` award). */
export async function grantCredits(
  db: Db,
  tenant: Tenant,
  campaignId: string,
  customerId: string,
  gameName: string,
  credits: number,
) {
  await db.$executeRaw`
    INSERT INTO campaign_game_credits (campaign_id, customer_id, game_name, sub_brand_id, environment, credits)
    VALUES (${campaignId}::uuid, ${customerId}::uuid, ${gameName}, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment, ${credits})
    ON CONFLICT (sub_brand_id, campaign_id, customer_id, game_name) DO UPDATE SET credits = campaign_game_credits.credits + EXCLUDED.credits`;
}

async function findPlayerAndCampaign(
  db: Db,
  tenant: Tenant,
  customerId: string,
  campaignId: string,
  gameName: string,
) {
  checkName(gameName);
  if (!isUuid(customerId)) throw notFound('Customer');
  const player = await db.customer.findFirst({
    where: { id: customerId, ...tenant },
    select: { id: true, status: true },
  });
  if (!player) throw notFound('Customer');
  if (!isUuid(campaignId)) throw notFound('Campaign');
  const campaign = await db.campaign.findFirst({
    where: { id: campaignId, ...tenant, deletedAt: null },
  });
  if (!campaign) throw notFound('Campaign');
  return { player, campaign };
}

/** The player's plays left, the current table with each prize's chance, and the latest draws. */
export async function readGame(
  db: Db,
  tenant: Tenant,
  customerId: string,
  gameName: string,
  campaignId: string,
) {
  await findPlayerAndCampaign(db, tenant, customerId, campaignId, gameName);
  const [credit, table, draws] = await Promise.all([
    db.campaignGameCredit.findUnique({
      where: {
        subBrandId_campaignId_customerId_gameName: {
          subBrandId: tenant.subBrandId,
          campaignId,
          customerId,
          gameName,
        },
      },
    }),
    currentTable(db, tenant, campaignId, gameName),
    db.campaignGameDraw.findMany({
      where: { subBrandId: tenant.subBrandId, campaignId, customerId, gameName },
      orderBy: { id: 'desc' },
      take: 20,
    }),
  ]);
  return { credits: credit?.credits ?? 0, table, draws };
}

/** One play: a credit taken, a prize drawn, recorded; a replayed key answers the first draw. */
export async function playGame(
  db: Db,
  tenant: Tenant,
  actor: Actor,
  customerId: string,
  gameName: string,
  campaignId: string,
  idempotencyKey: string | null,
) {
  if (!idempotencyKey)
    throw new AppError(
      'missing_idempotency_key',
      'A play needs an Idempotency-Key header: a retry must not play twice.',
    );
  return inTransaction(db, async (tx) => {
    const { player } = await findPlayerAndCampaign(tx, tenant, customerId, campaignId, gameName);
    const before = await tx.campaignGameDraw.findFirst({ where: { ...tenant, idempotencyKey } });
    if (before) return { draw: before, replayed: true };
    if (EXCLUDED_STATUSES.has(player.status))
      throw new AppError(
        'customer_not_eligible',
        `The player's status is ${player.status}: ${player.status} players receive nothing from campaigns.`,
      );
    const table = await currentTable(tx, tenant, campaignId, gameName);
    if (!table) throw notFound('Game');
    const taken = await tx.$executeRaw`
      UPDATE campaign_game_credits SET credits = credits - 1
      WHERE sub_brand_id = ${tenant.subBrandId}::uuid AND campaign_id = ${campaignId}::uuid
        AND customer_id = ${customerId}::uuid AND game_name = ${gameName} AND credits > 0`;
    if (taken === 0)
      throw new AppError(
        'no_game_credits',
        `The player has no plays left in ${gameName} for this campaign.`,
      );
    const prizes = table.prizes as GameTable;
    const total = prizes.reduce((sum, p) => sum + p.weight, 0);
    const drawn = randomInt(0, total);
    let index = 0;
    for (let acc = prizes[0]!.weight; drawn >= acc; acc += prizes[++index]!.weight);
    const prize = prizes[index]!;
    const id = newId();
    const inserted = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO campaign_game_draws (id, sub_brand_id, environment, campaign_id, customer_id, game_name, table_version,
                                       idempotency_key, draw, total_weight, result_index, label, coins)
      VALUES (${id}::uuid, ${tenant.subBrandId}::uuid, ${tenant.environment}::environment, ${campaignId}::uuid,
              ${customerId}::uuid, ${gameName}, ${table.version}, ${idempotencyKey}, ${drawn}, ${total}, ${index},
              ${prize.label}, ${prize.coins}::bigint)
      ON CONFLICT (sub_brand_id, environment, idempotency_key) DO NOTHING RETURNING id`;
    // A concurrent twin with the same key won: this transaction's credit goes back with its rollback.
    if (!inserted.length)
      throw new AppError(
        'idempotency_in_progress',
        'The same play is being made right now; retry.',
      );
    if (prize.coins > 0) {
      const moved = await moveCoins(
        tx,
        tenant,
        { customerId, delta: prize.coins, reason: `campaign:draw:${id}` },
        { ...actor, source: 'campaign' },
      );
      await tx.campaignGameDraw.update({
        where: tenantKey(tenant.subBrandId, id),
        data: { movementId: moved.movementId },
      });
    }
    return {
      draw: await tx.campaignGameDraw.findUniqueOrThrow({
        where: tenantKey(tenant.subBrandId, id),
      }),
      replayed: false,
    };
  });
}
