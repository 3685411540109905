// A tournament's standings (issue 32): the ranking an operator (or its agent) reads while a
// tournament runs and after it ended. Additive: the document has a player's position only.
import { z } from 'zod';
import { defineRoute } from '../../define-route.js';
import { fromQuery } from '../partner/wire.js';
import { uuidParams } from './wire.js';

export const getTournamentStandings = defineRoute({
  name: 'get_tournament_standings',
  family: 'establishment',
  method: 'GET',
  path: '/establishments/{establishmentId}/campaigns/{campaignId}/standings',
  scope: 'campaigns:read',
  tag: 'Prizes',
  summary: "A tournament's standings",
  description:
    'The ranking by points (ties: who reached them first), live while it runs and final after it ended, ' +
    'from offset (default 0), limit 1-100 (default 10). A player blocked by responsible gaming is left out.',
  hints: { readOnly: true, idempotent: true },
  params: uuidParams('establishmentId', 'campaignId'),
  query: z.object({
    offset: fromQuery(z.number().int().min(0).max(1_000_000).default(0)),
    limit: fromQuery(z.number().int().min(1).max(100).default(10)),
  }),
  idempotency: 'none',
  successStatus: 200,
  errors: ['not_found'],
  operation: `query TournamentStandings($e: ID, $id: ID!, $first: Int, $offset: Int) {
    campaign(establishmentId: $e, id: $id) { ...TournamentStandings }
  }
  fragment TournamentStandings on Campaign {
    campaignId: id status
    standings: leaderboard(first: $first, offset: $offset) {
      rank playerId: customerId externalId playerName points reachedAt
    }
  }`,
  variables: ({ params, query }) => ({
    e: params.establishmentId,
    id: params.campaignId,
    first: query.limit,
    offset: query.offset,
  }),
});
