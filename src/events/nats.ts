// Events to a NATS JetStream stream (docs/webhooks.md, "Streaming"), for consumers that want
// every event of every tenant at volume: subject `rewards.<environment>.<sub_brand_id>.<type>`,
// the body a webhook carries, and `Nats-Msg-Id` = the event id, so JetStream drops a duplicate
// that a relay restart publishes again within the stream's duplicate window.
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { RelayEvent } from '../domain/events/relay-store.js';
import { eventBody } from './send.js';

export const EVENTS_STREAM = 'REWARDS_EVENTS';
export const subjectOf = (e: Pick<RelayEvent, 'environment' | 'subBrandId' | 'type'>) =>
  `rewards.${e.environment}.${e.subBrandId}.${e.type}`;

export type Publisher = {
  publish(events: RelayEvent[]): Promise<void>;
  close(): Promise<void>;
};

/**
 * Connects on first use (a NATS down at start-up delays the stream, not the server) and again
 * after a failed connection; makes the stream when it does not exist (subjects `rewards.>`).
 */
export function natsPublisher(url: string, maxAgeDays = 30, stream = EVENTS_STREAM): Publisher {
  let connection: Promise<{ nc: NatsConnection; js: JetStreamClient }> | null = null;
  const connected = () =>
    (connection ??= (async () => {
      const nc = await connect({ servers: url, name: 'partner-rewards-events' });
      const jsm = await jetstreamManager(nc);
      try {
        await jsm.streams.info(stream);
      } catch {
        // Kept as long as the feed keeps events (a consumer away longer reads the feed).
        await jsm.streams.add({
          name: stream,
          subjects: ['rewards.>'],
          max_age: maxAgeDays * 86_400e9,
        }); // nanoseconds
      }
      return { nc, js: jetstream(nc) };
    })().catch((error: unknown) => {
      connection = null;
      throw error;
    }));
  return {
    async publish(events) {
      const { js } = await connected();
      // All at once, then every acknowledgement: the relay moves on only when all are stored.
      await Promise.all(
        events.map((e) => js.publish(subjectOf(e), eventBody(e), { msgID: e.id, timeout: 10_000 })),
      );
    },
    async close() {
      const c = await connection?.catch(() => null);
      await c?.nc.drain();
    },
  };
}
