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
  /**
   * How long the relay waits after a pass that found events but not a full batch. Default 20 ms.
   * Under load, passes run back to back and each found the few events committed during the one
   * before: seven round trips, a commit and a GraphQL execution for a handful of events. Waiting
   * this long gathers what commits meanwhile into the next pass, for at most this much lag
   * (docs/webhooks.md, "How it works").
   */
  paceMs?: number;
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
  const pollMs = o.pollMs ?? 200;
  const paceMs = o.paceMs ?? 20;
  const maxInFlight = o.maxInFlight ?? 32;
  const perEndpoint = o.perEndpoint ?? 8;
  const timeoutMs = o.timeoutMs ?? SEND_TIMEOUT_MS;
  /** Relay passes that handed events on (a test's and a benchmark's reading). */
  const counts = { relayPasses: 0 };
  const lease = (name: RelayName) =>
    claimRelay(o.prisma, name, holder, new Date(Date.now() + RELAY_LEASE_MS));

  /** One relay pass; answers how many events it handed on. */
  async function relay(): Promise<number> {
    const from = await lease('main');
    if (!from) return 0;
    const batch = await finalEventsAfter(o.prisma, from, size);
    if (!batch.length) return 0;
    await renderBatch({ ...o, db: o.prisma }, batch);
    const written = await inTransaction(o.prisma, (tx) => handOn(tx, from, batch));
    if (written === null) return 0;
    counts.relayPasses++;
    // The stream publishes what the relay passed; the sender is woken for new deliveries only:
    // a pass without any (no endpoint wants these events) would cost a claim for nothing.
    wake(streamer);
    if (written) wake(sender);
    return batch.length;
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
  // pollMs has passed; the relay, after a pass short of a full batch, waits paceMs first.
  type Loop = {
    name: string;
    pass: () => Promise<number>;
    /**
     * A pass that did less than `full` waits `ms` before the next (the relay's pace), and so does
     * an empty pass within `warmMs` of one that did something: under load, what committed last
     * may wait a moment for the horizon (an older transaction still running), and a pass that
     * found nothing for that reason would otherwise leave it for a whole pollMs.
     */
    pace?: { full: number; ms: number; warmMs: number };
    /** When a pass last did something (Date.now()). */
    worked?: number;
    /** Set by a wake that came while the pass ran: the loop runs again instead of sleeping. */
    woken: boolean;
    wake?: () => void;
    done?: Promise<void>;
  };
  const relayer: Loop = {
    name: 'event relay',
    pass: relay,
    woken: false,
    pace: { full: size, ms: paceMs, warmMs: pollMs },
  };
  // Woken by each relay pass; paced like the relay so that it runs once per relay pass, not twice.
  const streamer: Loop = {
    name: 'event stream (NATS)',
    pass: stream,
    woken: false,
    pace: { full: size, ms: paceMs, warmMs: 0 },
  };
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
      if (loop.woken || stopped) continue;
      let wait = pollMs;
      if (worked) {
        loop.worked = Date.now();
        if (!loop.pace || worked >= loop.pace.full) continue;
        wait = loop.pace.ms;
      } else if (loop.pace && Date.now() - (loop.worked ?? 0) < loop.pace.warmMs) {
        wait = loop.pace.ms;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
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
    counts,
  };
}

export type EventWorkers = ReturnType<typeof createEventWorkers>;

const before = (a: FeedPosition, b: FeedPosition) =>
  a.xid < b.xid || (a.xid === b.xid && a.id < b.id);
