// Issue 31: with EVENTS_NATS_URL set, every event is also published to the JetStream stream
// REWARDS_EVENTS under rewards.<environment>.<sub_brand_id>.<type>, with the event id as
// Nats-Msg-Id. This consumes the stream of the machine's NATS (.ci/run starts one), filtered to
// this test's tenant, so runs beside each other never see each other's events.
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relayedEventsAfter } from '../../src/domain/events/relay-store.js';
import { EVENTS_STREAM, natsPublisher } from '../../src/events/nats.js';
import type { Harness } from '../support/harness.js';
import { startHarness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { eventWorkers } from '../support/events.js';

const START = { xid: 0n, id: '00000000-0000-0000-0000-000000000000' };
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

let h: Harness;
let nc: NatsConnection;
const publisher = natsPublisher(NATS_URL);
beforeAll(async () => {
  h = await startHarness({ ownDatabase: true });
  nc = await connect({ servers: NATS_URL });
});
afterAll(async () => {
  await publisher.close();
  await nc?.drain();
  await h.close();
});

/** Every message of the stream under `subject`, from the first. */
async function consume(subject: string, expected: number) {
  const jsm = await jetstreamManager(nc);
  const info = await jsm.consumers.add(EVENTS_STREAM, {
    filter_subject: subject,
    deliver_policy: DeliverPolicy.All,
    ack_policy: AckPolicy.None,
    inactive_threshold: 60e9, // ephemeral: gone a minute after the test
  });
  const consumer = await jetstream(nc).consumers.get(EVENTS_STREAM, info.name);
  const messages: { subject: string; msgId: string | undefined; json: any }[] = [];
  while (messages.length < expected) {
    const batch = await consumer.fetch({ max_messages: expected - messages.length, expires: 2000 });
    let got = 0;
    for await (const m of batch) {
      got++;
      messages.push({ subject: m.subject, msgId: m.headers?.get('Nats-Msg-Id'), json: m.json() });
    }
    if (!got) break;
  }
  return messages;
}

describe('the NATS JetStream stream', () => {
  it('carries every event once, under its subject, with the event id as Nats-Msg-Id', async () => {
    const api = await partner(h);
    const workers = eventWorkers(h, { nats: publisher });
    const customer = await api.customer({ external_id: 'nats-1' });
    await api.credit(customer.id, 300, 'welcome');
    await api.credit(customer.id, -100, 'spend');
    await workers.drain();

    const feed = (await api.get('/api/v1/events?limit=100')).body.data as any[];
    expect(feed.map((e) => e.type)).toEqual([
      'customer.created',
      'coin_movement.created',
      'coin_movement.created',
    ]);
    const subject = `rewards.test.${api.subBrandId}.>`;
    const messages = await consume(subject, feed.length);
    expect(messages.map((m) => m.subject)).toEqual(
      feed.map((e) => `rewards.test.${api.subBrandId}.${e.type}`),
    );
    expect(messages.map((m) => m.msgId)).toEqual(feed.map((e) => e.id));
    // The body is the webhook's: the feed's event as it is.
    expect(messages.map((m) => m.json)).toEqual(feed);

    // A relay that publishes a batch again (it crashed before moving its position) adds nothing:
    // JetStream drops a message whose id it has seen within its duplicate window.
    const relayed = (await relayedEventsAfter(h.db.prisma, START, 1000)).filter(
      (e) => e.subBrandId === api.subBrandId,
    );
    expect(relayed).toHaveLength(feed.length);
    await publisher.publish(relayed);
    expect(await consume(subject, feed.length + 1)).toHaveLength(feed.length);
  });
});
