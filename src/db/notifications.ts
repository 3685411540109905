// LISTEN on a database channel, for caches that must drop what they hold when another process
// changes it (src/http/principal-cache.ts). PostgreSQL: one dedicated session per database handle
// (a pooled connection cannot LISTEN), reconnected after a loss; PGlite: its in-process listen.
// Subscribers are told when the channel is up or down: while it is down they must not trust
// what they cached, since a change made meanwhile would not reach them.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export type Subscriber = { onNotify: () => void; onState: (live: boolean) => void };
export type Listen = (channel: string, subscriber: Subscriber) => () => void;
export type Notifications = { listen: Listen; close(): Promise<void> };

const RECONNECT_MS = 1_000;

export function pgNotifications(url: string): Notifications {
  const channels = new Map<string, Set<Subscriber>>();
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;

  const each = (f: (s: Subscriber) => void) => {
    for (const set of channels.values()) for (const s of set) f(s);
  };
  const down = () => {
    if (live) each((s) => s.onState(false));
    live = false;
    const old = client;
    client = null;
    old?.end().catch(() => {});
    if (!closed && channels.size && !retry)
      retry = setTimeout(() => ((retry = null), void connect()), RECONNECT_MS).unref();
  };
  const connect = async () => {
    if (closed || client) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    c.on('error', down);
    c.on('end', () => client === c && down());
    c.on('notification', (n) => {
      for (const s of channels.get(n.channel) ?? []) s.onNotify();
    });
    try {
      await c.connect();
      for (const channel of channels.keys())
        await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (client !== c) return;
      live = true;
      each((s) => s.onState(true));
    } catch {
      if (client === c) down();
    }
  };

  return {
    listen(channel, subscriber) {
      const set = channels.get(channel) ?? new Set();
      const fresh = !channels.has(channel);
      channels.set(channel, set);
      set.add(subscriber);
      if (!client) void connect();
      else if (fresh && live) {
        // A new channel on a live session: up once its LISTEN is done.
        client.query(`LISTEN ${pg.escapeIdentifier(channel)}`).then(
          () => subscriber.onState(true),
          () => down(),
        );
      } else if (live) subscriber.onState(true);
      return () => void set.delete(subscriber);
    },
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      live = false;
      await c?.end().catch(() => {});
    },
  };
}

export function pgliteNotifications(db: PGlite): Notifications {
  const unlisten: (() => Promise<void>)[] = [];
  return {
    listen(channel, subscriber) {
      let stop: (() => Promise<void>) | null = null;
      let dropped = false;
      db.listen(channel, () => subscriber.onNotify()).then(
        (f) => {
          if (dropped) return void f().catch(() => {});
          stop = f;
          unlisten.push(f);
          subscriber.onState(true);
        },
        () => subscriber.onState(false),
      );
      return () => {
        dropped = true;
        void stop?.().catch(() => {});
      };
    },
    async close() {
      await Promise.all(unlisten.map((f) => f().catch(() => {})));
    },
  };
}
