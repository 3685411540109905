// A player's campaign award as the establishment API shows it: in GET /players/{id}/prizes, in
// a claim's answer and in the player record's `prizes`. Its fields are the GraphQL
// CampaignAward's, renamed for this family (awardId, playerId).
import { fragment, wireRecord } from '../../wire-answer.js';

export const AWARD = fragment(
  'PlayerPrize',
  'CampaignAward',
  'awardId: id campaignId playerId: customerId day rank coins productId catalogPrize quantity status expiresAt claimedAt movementId orderId createdAt',
);

/** The record's schema and mapping, for answers that nest it beside fields of their own. */
export const award = wireRecord('establishment', AWARD);
