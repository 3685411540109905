// A player's side of campaigns: tournament positions, prizes won, and claiming them. The
// document lists the paths without shapes; these are ours (docs/campaigns.md).
import { z } from 'zod';
import { claimInput } from '../../../engine/campaigns/claim-award.js';
import { defineRoute } from '../../define-route.js';
import { fragment, wireRecord } from '../../wire-answer.js';
import { AWARD, award } from './award-wire.js';
import { uuidParams } from './wire.js';

const POSITION = fragment(
  'TournamentPosition',
  'TournamentPosition',
  'campaignId name: title status endDate: endsAt rank points participants prize',
);
const position = wireRecord('establishment', POSITION);

export const getTournamentPosition = defineRoute({
  name: 'get_tournament_position',
  family: 'establishment',
  method: 'GET',
  path: '/players/{playerId}/tournament-position',
  scope: 'campaigns:read',
  tag: 'Prizes',
  summary: "A player's tournament positions",
  description:
    'For each running (or paused) tournament the player has points in: rank (by points, then who reached them ' +
    'first), points, participants with points, and the prize the rank would win if it ended now.',
  hints: { readOnly: true, idempotent: true },
  params: uuidParams('playerId'),
  idempotency: 'none',
  successStatus: 200,
  // The list is the operation's; the player's id, which the answer puts beside it, is the path's.
  response: z.object({ playerId: z.uuid(), tournaments: z.array(position.schema) }),
  errors: ['not_found'],
  operation: `query TournamentPositions($id: ID!) {
    tournamentPositions(customerId: $id) { ${POSITION} }
  } ${POSITION.definition}`,
  variables: ({ params }) => ({ id: params.playerId }),
  result: (data, { input }) => ({
    playerId: input.params.playerId,
    tournaments: (data.tournamentPositions as unknown[]).map(position.map),
  }),
});

export const listPlayerPrizes = defineRoute({
  name: 'list_player_prizes',
  family: 'establishment',
  method: 'GET',
  path: '/players/{playerId}/prizes',
  scope: 'campaigns:read',
  tag: 'Prizes',
  summary: "A player's campaign prizes",
  description:
    'Awards the player won, newest first (at most 500): pending ones are claimed with POST .../claim.',
  hints: { readOnly: true, idempotent: true },
  params: uuidParams('playerId'),
  idempotency: 'none',
  successStatus: 200,
  // The list is the operation's; the player's id, which the document puts beside it, is the path's.
  response: z.object({ playerId: z.uuid(), prizes: z.array(award.schema) }),
  errors: ['not_found'],
  operation: `query PlayerPrizes($id: ID!) { campaignAwards(customerId: $id, first: 500) { ${AWARD} } }
  ${AWARD.definition}`,
  variables: ({ params }) => ({ id: params.playerId }),
  result: (data, { input }) => ({
    playerId: input.params.playerId,
    prizes: (data.campaignAwards as unknown[]).map(award.map),
  }),
});

export const claimPrize = defineRoute({
  name: 'claim_prize',
  family: 'establishment',
  method: 'POST',
  path: '/players/{playerId}/claim',
  scope: 'prizes:claim',
  tag: 'Prizes',
  summary: 'Claim a prize',
  description:
    '{ awardId } (from insert-activity or GET /players/{playerId}/prizes). Once: coins are credited through the ' +
    'ledger (reason campaign:<awardId>); a product prize becomes an order of zero coins, listed on ' +
    '/api/v1/orders too (a physical one needs recipientName and shippingAddress). A second claim is 400 ' +
    'AWARD_ALREADY_CLAIMED; an award unclaimed for 30 days is 400 AWARD_EXPIRED; restricted and banned players ' +
    'are 400 CUSTOMER_NOT_ELIGIBLE; a player under an active responsible-gaming state is 409 RG_BLOCKED.',
  hints: { idempotent: true },
  params: uuidParams('playerId'),
  body: claimInput,
  idempotency: 'optional',
  successStatus: 200,
  errors: [
    'not_found',
    'award_already_claimed',
    'award_expired',
    'customer_not_eligible',
    'out_of_stock',
    'rg_blocked',
  ],
  operation: `mutation ClaimPrize($id: ID!, $input: CampaignAwardClaimInput!) {
    claimCampaignAward(customerId: $id, input: $input) { award { ${AWARD} } coins: balance orderId }
  }
  ${AWARD.definition}`,
  variables: ({ params, body }) => ({ id: params.playerId, input: body }),
});
