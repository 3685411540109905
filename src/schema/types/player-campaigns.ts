// A customer's campaign side, on the customer itself: the establishment API's player record
// carries the player's latest prizes and mini-game plays (docs/campaigns.md, "The player
// record"). Both are relations, so a list of customers loads them in one query per relation for
// the whole list (Pothos merges them into the customers' query), never one per customer.
import { builder } from '../builder.js';

/** How many of the newest awards the record carries; the rest are at GET .../prizes. */
export const RECORD_PRIZES = 20;

builder.prismaObject('CampaignGameCredit', {
  description: "A player's plays left in one campaign's mini-game.",
  fields: (t) => ({
    campaignId: t.exposeID('campaignId'),
    gameName: t.exposeString('gameName'),
    credits: t.exposeInt('credits', { description: 'Plays left.' }),
  }),
});

builder.prismaObjectFields('Customer', (t) => ({
  campaignPrizes: t.relation('campaignAwards', {
    description: `The newest ${RECORD_PRIZES} campaign awards (pending, claimed or expired), newest first.`,
    query: { orderBy: { id: 'desc' }, take: RECORD_PRIZES },
  }),
  gameCredits: t.relation('campaignGameCredits', {
    description:
      'Mini-game plays left, in campaigns not deleted (a deleted campaign cannot be played).',
    query: {
      where: { credits: { gt: 0 }, campaign: { deletedAt: null } },
      orderBy: [{ campaignId: 'asc' }, { gameName: 'asc' }],
    },
  }),
}));
