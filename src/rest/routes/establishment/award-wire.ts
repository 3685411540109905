// A player's campaign award as the establishment API shows it: in GET /players/{id}/prizes, in
// a claim's answer and in the player record's `prizes`.
import { z } from 'zod';

export const AWARD_SELECTION =
  'id campaignId customerId awardKey day rank coins productId catalogPrize quantity status expiresAt claimedAt movementId orderId createdAt';

export const award = z.object({
  awardId: z.uuid(),
  campaignId: z.uuid(),
  playerId: z.uuid(),
  day: z.number().int().nullable().describe('Daily rewards: the streak day it was won on.'),
  rank: z.number().int().nullable().describe('Tournaments: the final rank.'),
  coins: z.number().int(),
  productId: z.uuid().nullable(),
  catalogPrize: z.string().nullable(),
  quantity: z.number().int(),
  status: z.enum(['pending', 'claimed', 'expired']),
  expiresAt: z.iso.datetime(),
  claimedAt: z.iso.datetime().nullable(),
  movementId: z.uuid().nullable(),
  orderId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
});

type Node = Record<string, unknown>;
export const toAward = (node: unknown) => {
  const { id, customerId, awardKey: _k, ...rest } = node as Node;
  return { awardId: id, playerId: customerId, ...rest };
};
