// The outbound events' workers, in every server process (started by start-server.ts, stopped with
// it; docs/webhooks.md):
// - the relay: takes committed events in (xid, id) order once no running transaction can still
//   write one before them, renders their `data`, writes their deliveries and moves the feed's
//   horizon. One process at a time holds it (a lease, renewed each pass);
// - the NATS relay (EVENTS_NATS_URL): publishes what the relay passed, with its own position,
//   so a NATS outage delays the stream and nothing else;
// - the sender: takes due deliveries (SKIP LOCKED, leased for three time-outs), at most
//   MAX_IN_FLIGHT at once in a process and PER_ENDPOINT for one endpoint, sends each, records
//   the attempt and schedules the next (domain/events/retry-schedule.ts).
// A crash anywhere repeats work, never loses it: an unmoved position is relayed again (the
// deliveries of a batch commit with the position), an unrecorded attempt is sent again when its
// lease runs out, with the same webhook-id.
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import { inTransaction } from '../domain/db.js';
import { claimDeliveries, recordAttempt, type DeliveryJob } from '../domain/events/deliveries.js';
import {
  advanceRelay,
  claimRelay,
  finalEventsAfter,
  handOn,
  lastEvent,
  relayedEventsAfter,
  relayPosition,
  releaseRelay,
  type RelayName,
} from '../domain/events/relay-store.js';
import type { FeedPosition } from '../domain/events/feed.js';
import type { Logger } from '../logger.js';
import type { Publisher } from './nats.js';
import { renderBatch, type RenderDeps } from './render.js';
import { sendDelivery, SEND_TIMEOUT_MS } from './send.js';

export type EventWorkerOptions = Omit<RenderDeps, 'db'> & {
  prisma: PrismaClient;
  logger: Logger;
  nats?: Publisher | null;
  /** Events per relay pass. Default 500. */
  batch?: number;
  /** How long an idle loop waits before looking again. Default 200 ms. */
  pollMs?: number;
  /** Sends in flight in this process at most. Default 32. */
  maxInFlight?: number;
  /** …and for one endpoint. Default 8. */
  perEndpoint?: number;
  timeoutMs?: number;
  /** Jitter's randomness (tests fix it). */
  random?: () => number;
};

/** How long a relay's lease lasts without renewal. */
const RELAY_LEASE_MS = 15_000;

export function createEventWorkers(o: EventWorkerOptions) {
  const holder = `${process.pid}-${randomUUID()}`;
  const size = o.batch ?? 500;
  const maxInFlight = o.maxInFlight ?? 32;
  const perEndpoint = o.perEndpoint ?? 8;
  const timeoutMs = o.timeoutMs ?? SEND_TIMEOUT_MS;
  const lease = (name: RelayName) =>
    claimRelay(o.prisma, name, holder, new Date(Date.now() + RELAY_LEASE_MS));

  /** One relay pass; answers how many events it handed on. */
  async function relay(): Promise<number> {
    const from = await lease('main');
    if (!from) return 0;
    const batch = await finalEventsAfter(o.prisma, from, size);
    if (!batch.length) return 0;
    await renderBatch({ ...o, db: o.prisma }, batch);
    const done = await inTransaction(o.prisma, (tx) => handOn(tx, from, batch));
    if (done) wake(sender);
    return done ? batch.length : 0;
  }

  /** One NATS pass: publishes what the relay passed, then moves its own position. */
  async function stream(): Promise<number> {
    if (!o.nats) return 0;
    const from = await lease('nats');
    if (!from) return 0;
    const batch = await relayedEventsAfter(o.prisma, from, size);
    if (!batch.length) return 0;
    await o.nats.publish(batch);
    await advanceRelay(o.prisma, 'nats', from, batch[batch.length - 1]!);
    return batch.length;
  }

  const inFlight = new Map<string, number>();
  const sends = new Set<Promise<void>>();

  /** Claims what is due within the bounds and starts sending it; answers how many. */
  async function send(): Promise<number> {
    const free = maxInFlight - sends.size;
    if (free <= 0) return 0;
    const now = o.now();
    const jobs = await claimDeliveries(o.prisma, {
      now,
      leaseUntil: new Date(now.getTime() + 3 * timeoutMs),
      limit: free,
      perEndpoint,
      inFlight,
    });
    for (const job of jobs) start(job);
    return jobs.length;
  }

  function start(job: DeliveryJob) {
    inFlight.set(job.endpointId, (inFlight.get(job.endpointId) ?? 0) + 1);
    const sent: Promise<void> = sendDelivery(job, o.now, timeoutMs)
      .then((outcome) => recordAttempt(o.prisma, job, outcome, o.random))
      .then(
        () => {},
        (err: unknown) =>
          o.logger.warn({ msg: 'webhook attempt not recorded; it is sent again', err }),
      )
      .finally(() => {
        const left = inFlight.get(job.endpointId)! - 1;
        if (left) inFlight.set(job.endpointId, left);
        else inFlight.delete(job.endpointId);
        sends.delete(sent);
        wake(sender);
      });
    sends.add(sent);
  }

  // Each loop runs its pass again at once while there was work, else sleeps until woken or
  // pollMs has passed.
  type Loop = {
    name: string;
    pass: () => Promise<number>;
    /** Set by a wake that came while the pass ran: the loop runs again instead of sleeping. */
    woken: boolean;
    wake?: () => void;
    done?: Promise<void>;
  };
  const relayer: Loop = { name: 'event relay', pass: relay, woken: false };
  const streamer: Loop = { name: 'event stream (NATS)', pass: stream, woken: false };
  const sender: Loop = { name: 'webhook sender', pass: send, woken: false };
  let stopped = true;

  function wake(loop: Loop) {
    loop.woken = true;
    loop.wake?.();
  }

  async function run(loop: Loop) {
    while (!stopped) {
      let worked = 0;
      loop.woken = false;
      try {
        worked = await loop.pass();
      } catch (err) {
        o.logger.warn({ msg: `${loop.name} pass failed`, err });
      }
      if (worked || loop.woken || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, o.pollMs ?? 200);
        loop.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      loop.wake = undefined;
    }
  }

  return {
    start() {
      stopped = false;
      for (const loop of o.nats ? [relayer, streamer, sender] : [relayer, sender])
        loop.done = run(loop);
    },
    /** Stops the loops, waits for the sends in flight to be recorded, gives the leases up. */
    async stop() {
      stopped = true;
      for (const loop of [relayer, streamer, sender]) wake(loop);
      await Promise.all([relayer.done, streamer.done, sender.done]);
      await Promise.all(sends);
      await releaseRelay(o.prisma, 'main', holder).catch(() => {});
      await releaseRelay(o.prisma, 'nats', holder).catch(() => {});
    },
    /**
     * Tests and tools: relays, streams and sends until nothing is left that is due now, each
     * attempt recorded before it answers; then gives the leases up for whoever runs next.
     */
    async drain(): Promise<void> {
      // Everything committed before now: the relay waits for the horizon to pass it (a
      // transaction elsewhere in the cluster may hold it back a moment).
      const target = await lastEvent(o.prisma);
      const deadline = Date.now() + 30_000;
      for (;;) {
        const moved = (await relay()) + (await stream()) + (await send());
        if (sends.size) await Promise.all(sends);
        else if (moved) continue;
        else if (!target || !before(await relayPosition(o.prisma), target)) break;
        else if (Date.now() > deadline)
          throw new Error('drain: the relay did not reach the last event');
        else await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await releaseRelay(o.prisma, 'main', holder);
      await releaseRelay(o.prisma, 'nats', holder);
    },
    relay,
    holder,
  };
}

export type EventWorkers = ReturnType<typeof createEventWorkers>;

const before = (a: FeedPosition, b: FeedPosition) =>
  a.xid < b.xid || (a.xid === b.xid && a.id < b.id);
