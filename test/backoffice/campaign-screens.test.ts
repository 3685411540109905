// The GraphQL the backoffice's leaderboard screen adds to campaigns: each place names its player
// (one query per page, never per row) and a player's live standing, looked up by id or external
// id, inside the signed-in member's tenant only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTenant } from '../support/factories.js';
import { createCustomer } from '../../src/domain/customers/create-customer.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';
import { campaignBody, campaignWorld, prize } from '../campaigns/support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
let staff: StaffClient;
let id: string;
const players: Record<string, string> = {};

beforeAll(async () => {
  w = await campaignWorld('2026-11-23T12:00:00Z');
  staff = await signInAs(
    w.h.url,
    (await createStaff(w.h.db.prisma, 'establishment_operator', { subBrandId: w.p.subBrandId }))
      .email,
  );
  id = await w.campaign(
    campaignBody({
      type: 'tournament',
      endDate: '2026-11-30',
      prizes: [prize({ rank: '1', coinPrize: 500 }), prize({ rank: '2-3', coinPrize: 100 })],
    }),
  );
  for (const [name, points] of [
    ['Ana', 5],
    ['Ben', 9],
    ['Cai', 7],
    ['Dov', 0],
  ] as const) {
    players[name] = await w.player({ first_name: name, last_name: 'Player', external_id: name });
    if (points)
      await w.activity({ mode: 'tournament', player_id: players[name], campaign_id: id, points });
  }
});
afterAll(() => w.h.close());

const gql = async (query: string, variables: Record<string, unknown>) => {
  const res = await staff.gql(query, variables, { subBrandId: w.p.subBrandId });
  expect(res.status, res.text).toBe(200);
  return res.body as { data: any; errors?: { message: string; extensions: { code: string } }[] };
};
const STANDING = `query($id: ID!, $player: String!) { campaign(id: $id) {
  standing(player: $player) { rank points participants playerName externalId prize } } }`;

it('names each place of the leaderboard', async () => {
  const res = await gql(
    `query($id: ID!) { campaign(id: $id) { leaderboard(first: 2) { rank playerName externalId points } } }`,
    { id },
  );
  expect(res.data.campaign.leaderboard).toEqual([
    { rank: 1, playerName: 'Ben Player', externalId: 'Ben', points: 9 },
    { rank: 2, playerName: 'Cai Player', externalId: 'Cai', points: 7 },
  ]);
});

it("finds a player's standing by external id or id, with the prize the place would win", async () => {
  const byExternal = await gql(STANDING, { id, player: 'Ana' });
  expect(byExternal.data.campaign.standing).toEqual({
    rank: 3,
    points: 5,
    participants: 3,
    playerName: 'Ana Player',
    externalId: 'Ana',
    prize: expect.objectContaining({ rank: '2-3', coinPrize: 100 }),
  });
  const byId = await gql(STANDING, { id, player: players.Ben });
  expect(byId.data.campaign.standing).toMatchObject({ rank: 1, points: 9 });
  // A player of the tenant without points has no place (null), not an error.
  expect((await gql(STANDING, { id, player: 'Dov' })).data.campaign.standing).toBeNull();
});

it("refuses an unknown player and another tenant's player as not found", async () => {
  const other = await createTenant(w.h.db.prisma);
  const stranger = await createCustomer(
    w.h.db.prisma,
    { subBrandId: other.subBrandId, environment: 'test' },
    { firstName: 'Eve', lastName: 'Elsewhere', externalId: 'Eve' },
  );
  for (const player of [stranger.id, 'Eve', 'nobody', ' ']) {
    const res = await gql(STANDING, { id, player });
    expect(res.errors?.[0]?.extensions.code, player).toBe('not_found');
    expect(res.errors?.[0]?.message).toMatch(/Customer not found/);
  }
});
