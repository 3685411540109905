// Issue 31: every order step, engine execution, campaign prize and tournament settlement writes
// exactly one event with its effect, and the event renders the resource.
import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCampaignJobs } from '../../src/engine/campaigns/run-campaign-jobs.js';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { campaignBody, campaignWorld, prize } from '../campaigns/support.js';
import { backoffice, shop } from '../orders/support.js';
import { eventWorkers } from '../support/events.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
let workers: ReturnType<typeof eventWorkers>;
beforeAll(async () => {
  // The relay and the campaign job read every tenant's rows: a database of this file's own.
  w = await campaignWorld('2026-11-23T12:00:00Z', { ownDatabase: true });
  workers = eventWorkers(w.h, { now: w.clock.now });
});
afterAll(() => w.h.close());

type Api = { get: (path: string) => Promise<{ status: number; body: any; text: string }> };

async function events(api: Api, type?: string) {
  await workers.drain();
  const res = await api.get(`/api/v1/events?limit=100${type ? `&type=${type}` : ''}`);
  expect(res.status, res.text).toBe(200);
  for (const e of res.body.data) seen.set(e.id, e);
  return res.body.data as any[];
}
/** Every event the tests read, whatever their tenant: the last test checks them all. */
const seen = new Map<string, any>();

describe('order events', () => {
  it('creation, each fulfilment step, tracking, cancellation and its refund', async () => {
    const s = await shop(w.h);
    const office = await backoffice(w.h);
    const buyer = await s.buyer(5000);
    const placed = await s.order({
      customer_id: buyer,
      listing_market_ids: [s.listing.listing_market_id],
    });
    expect(placed.status, placed.text).toBe(201);
    const orderId = placed.body.data.id as string;
    for (const to of ['processing', 'shipped']) {
      expect((await office.move(orderId, to)).status).toBe(200);
    }
    const order = (await s.get(`/api/v1/orders/${orderId}`)).body.data;
    expect((await office.track(order.items[0].id, 'DHL', 'JD0001')).status).toBe(200);
    expect((await office.move(orderId, 'delivered')).status).toBe(200);

    const other = await s.order({
      customer_id: buyer,
      listing_market_ids: [s.listing.listing_market_id],
    });
    expect((await s.delete(`/api/v1/orders/${other.body.data.id}`)).status).toBe(200);

    const orderEvents = (await events(s)).filter((e) => e.type.startsWith('order.'));
    expect(orderEvents.map((e) => [e.type, e.data.id])).toEqual([
      ['order.created', orderId],
      ['order.processing', orderId],
      ['order.shipped', orderId],
      ['order.tracking_updated', orderId],
      ['order.delivered', orderId],
      ['order.created', other.body.data.id],
      ['order.cancelled', other.body.data.id],
      ['order.refunded', other.body.data.id],
    ]);
    // Each renders the order as GET /orders/{id} does (rendered when relayed: all delivered now).
    expect(orderEvents[4].data).toEqual((await s.get(`/api/v1/orders/${orderId}`)).body.data);
    // The refund is a coin movement of its own, with its own event.
    const refunds = (await events(s, 'coin_movement.created')).filter(
      (e) => e.data.source === 'refund',
    );
    expect(refunds).toHaveLength(1);
    expect(refunds[0].data.reason).toBe(`refund:${other.body.data.id}`);
  });
});

describe('engine events', () => {
  it('completed, skipped and failed executions, with the coin movement of the grant', async () => {
    const s = await shop(w.h);
    const c = await s.customer({ external_id: `p-${randomUUID().slice(0, 8)}` });
    await createDefinition(w.h.db.prisma, { subBrandId: s.subBrandId, code: 'spin', points: 10 });
    await createDefinition(w.h.db.prisma, { subBrandId: s.subBrandId, code: 'fee', points: -50 });
    await createDefinition(w.h.db.prisma, {
      subBrandId: s.subBrandId,
      code: 'over',
      points: 10,
      constraints: { ends_at: '2026-06-01T12:00:00Z' },
    });
    const event = (code: string, player: string) =>
      s.post('/api/v1/engine/events', { event_code: code, data: { externalUserId: player } });
    const done = await event('spin', c.external_id);
    const ended = await event('over', c.external_id);
    const overdraft = await event('fee', c.external_id);
    expect([done, ended, overdraft].map((r) => r.body.data.status)).toEqual([
      'completed',
      'skipped',
      'failed',
    ]);

    const all = await events(s);
    const executions = all.filter((e) => e.type.startsWith('engine_execution.'));
    expect(executions.map((e) => [e.type, e.data.id, e.data.event_code])).toEqual([
      ['engine_execution.completed', done.body.data.event_id, 'spin'],
      ['engine_execution.skipped', ended.body.data.event_id, 'over'],
      ['engine_execution.failed', overdraft.body.data.event_id, 'fee'],
    ]);
    expect(executions[0].data).toMatchObject({
      status: 'completed',
      customer_id: c.id,
      points_applied: 10,
      channel: 'events',
    });
    expect(executions[2].data).toMatchObject({ error_code: 'insufficient_balance' });
    const grants = all.filter(
      (e) => e.type === 'coin_movement.created' && e.data.source === 'engine',
    );
    expect(grants.map((e) => e.data.reason)).toEqual([`engine:${done.body.data.event_id}`]);
  });
});

describe('campaign events', () => {
  it('prizes granted, claimed and expired; a tournament settled', async () => {
    w.clock.set('2026-11-23T12:00:00Z');
    const daily = await w.campaign(campaignBody());
    const player = await w.player();
    const other = await w.player();
    const won = await w.activity({ mode: 'campaign', player_id: player, campaign_id: daily });
    const lost = await w.activity({ mode: 'campaign', player_id: other, campaign_id: daily });
    const awardId = won.body.results[0].award.awardId as string;
    const unclaimed = lost.body.results[0].award.awardId as string;
    expect((await w.claim(player, awardId)).status).toBe(200);

    const race = await w.campaign(
      campaignBody({
        title: 'Race',
        type: 'tournament',
        startDate: '2026-11-20',
        endDate: '2026-11-24T00:00:00Z',
        prizes: [prize({ rank: '1', coinPrize: 1000 })],
      }),
    );
    await w.activity({ mode: 'tournament', player_id: player, campaign_id: race, points: 7 });
    // Past the tournament's end and the daily prize's claim window.
    w.clock.set('2026-12-30T00:00:00Z');
    await runCampaignJobs(w.h.db.prisma, { now: w.clock.now });

    const all = await events(w.p);
    const prizes = all.filter((e) => e.type.startsWith('campaign_award.'));
    const rankAward = prizes.find((e) => e.data.campaign_id === race)!;
    expect(prizes.map((e) => [e.type, e.data.id])).toEqual([
      ['campaign_award.granted', awardId],
      ['campaign_award.granted', unclaimed],
      ['campaign_award.claimed', awardId],
      ['campaign_award.expired', unclaimed],
      ['campaign_award.granted', rankAward.data.id],
    ]);
    expect(rankAward.data).toMatchObject({ customer_id: player, rank: 1, coins: 1000 });
    const settled = all.filter((e) => e.type === 'tournament.settled');
    expect(settled).toHaveLength(1);
    expect(settled[0].data).toMatchObject({ id: race, title: 'Race', awarded: 1 });
    expect(settled[0].data.settled_at).not.toBeNull();
    // A second pass changes nothing and writes nothing.
    await runCampaignJobs(w.h.db.prisma, { now: w.clock.now });
    expect(await events(w.p)).toHaveLength(all.length);
  });
});

describe('the OpenAPI document’s webhooks', () => {
  it('describes every event this file produced: each validates against its type’s body', async () => {
    const doc = (await w.h.call('GET', '/openapi.json')).body;
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ components: doc.components }, 'openapi.json');
    const all = [...seen.values()];
    expect(new Set(all.map((e) => e.type)).size).toBeGreaterThanOrEqual(12);
    for (const event of all) {
      const hook = doc.webhooks[event.type];
      expect(hook, event.type).toBeDefined();
      const schema = JSON.parse(
        JSON.stringify(hook.post.requestBody.content['application/json'].schema).replaceAll(
          '"#/components/',
          '"openapi.json#/components/',
        ),
      );
      const valid = ajv.validate(schema, event);
      expect(ajv.errors ?? [], `${event.type}: ${JSON.stringify(event.data)}`).toEqual([]);
      expect(valid).toBe(true);
    }
  });
});
