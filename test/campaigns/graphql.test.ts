// The backoffice's view of campaigns through GraphQL: campaigns with their leaderboard and
// settlement run, awards, recorded activity, settlement runs, and the admin moves.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCampaignJobs } from '../../src/engine/campaigns/run-campaign-jobs.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';
import { campaignBody, campaignWorld, prize } from './support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
let staff: StaffClient;
beforeAll(async () => {
  // The campaign job below completes and settles every tenant's campaigns at its clock: on the
  // run's shared database it would settle the tournaments of the files running beside.
  w = await campaignWorld('2026-11-23T12:00:00Z', { ownDatabase: true });
  const operator = await createStaff(w.h.db.prisma, 'establishment_operator', {
    subBrandId: w.p.subBrandId,
  });
  staff = await signInAs(w.h.url, operator.email);
});
afterAll(() => w.h.close());

/** An establishment operator signed in to the backoffice, in the test environment. */
const gql = async (query: string, variables: Record<string, unknown> = {}) => {
  const res = await staff.gql(query, variables, { subBrandId: w.p.subBrandId });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: any; errors?: { message: string; extensions: { code: string } }[] };
};

it('reads campaigns, leaderboard, awards, activity and settlement runs; retries only a failed run', async () => {
  const id = await w.campaign(
    campaignBody({
      type: 'tournament',
      endDate: '2026-11-24',
      prizes: [prize({ rank: '1', coinPrize: 500 })],
    }),
  );
  const [a, b] = [await w.player(), await w.player()];
  await w.activity({ mode: 'tournament', player_id: a, campaign_id: id, points: 5 });
  await w.activity({ mode: 'tournament', player_id: b, campaign_id: id, points: 9 });

  const live = await gql(
    `query($id: ID!) { campaign(id: $id) { id status type leaderboard(first: 5) { rank customerId points } settlement { status } } }`,
    { id },
  );
  expect(live.data.campaign).toMatchObject({
    status: 'in_progress',
    type: 'tournament',
    leaderboard: [
      { rank: 1, customerId: b, points: 9 },
      { rank: 2, customerId: a, points: 5 },
    ],
    settlement: null,
  });
  const facts = await gql(
    `query($id: ID!) { campaignActivities(campaignId: $id) { mode customerId points } }`,
    { id },
  );
  expect(facts.data.campaignActivities).toHaveLength(2);

  const end = new Date('2026-11-25T00:00:00Z');
  await runCampaignJobs(w.h.db.prisma, { now: () => end });
  const done = await gql(
    `query($id: ID!) { campaign(id: $id) { status settlement { status awarded attempts } }
       campaignAwards(campaignId: $id) { customerId rank coins status }
       campaignSettlements { campaignId status } }`,
    { id },
  );
  expect(done.data.campaign).toMatchObject({
    status: 'completed',
    settlement: { status: 'done', awarded: 1 },
  });
  expect(done.data.campaignAwards).toEqual([
    { customerId: b, rank: 1, coins: 500, status: 'pending' },
  ]);
  expect(done.data.campaignSettlements).toContainEqual({ campaignId: id, status: 'done' });

  const retry = await gql(
    `mutation($id: ID!) { retryCampaignSettlement(campaignId: $id) { status } }`,
    { id },
  );
  expect(retry.errors?.[0]?.message).toMatch(/is done: only a failed one is retried/);

  const paused = await gql(
    `mutation($id: ID!) { updateCampaignStatus(id: $id, status: "paused") { status } }`,
    { id },
  );
  expect(paused.errors?.[0]?.message).toMatch(/is completed/);
});

it('a support member (read-only role) cannot change a campaign', async () => {
  const id = await w.campaign(campaignBody(), false);
  const support = await createStaff(w.h.db.prisma, 'support', { subBrandId: w.p.subBrandId });
  const client = await signInAs(w.h.url, support.email);
  const res = await client.gql(
    `mutation($id: ID!) { updateCampaignStatus(id: $id, status: "in_progress") { status } }`,
    { id },
    { subBrandId: w.p.subBrandId },
  );
  expect(res.body.errors?.[0]?.extensions.code).toBe('forbidden');
});
