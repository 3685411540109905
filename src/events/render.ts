// Renders events' `data` (docs/webhooks.md): each resource through the documents the partner API
// reads it with (rest/routes/partner/event-data.ts), as a principal of the event's own tenant, so
// `data` is exactly what GET would answer at that moment. Coin movements, most of the events, a
// batch per query; the others one at a time, a few at once. A resource gone since (a customer
// deleted before its creation was rendered) renders as `{ id, deleted: true }`.
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { readerPrincipal } from '../domain/events/reader-principal.js';
import type { RelayEvent } from '../domain/events/relay-store.js';
import type { ResourceType } from '../domain/events/types.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import type { OperationStore } from '../rest/execute-operation.js';
import { EVENT_DATA } from '../rest/routes/partner/event-data.js';
import type { GraphQLContext } from '../schema/context.js';

export type RenderDeps = {
  db: Db;
  operations: OperationStore;
  now: () => Date;
  engine: GraphQLContext['engine'];
  baseUrl: string;
};

/** How many single-resource documents run at once. */
const CONCURRENCY = 8;

/** Sets `data` on every event of the batch that has none yet. */
export async function renderBatch(deps: RenderDeps, batch: RelayEvent[]): Promise<void> {
  const todo = batch.filter((e) => e.data === null);
  const groups = new Map<string, RelayEvent[]>();
  for (const e of todo) {
    const key = `${e.subBrandId}/${e.environment}/${e.resourceType}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const principals = new Map<string, Promise<Principal | null>>();
  const principalOf = (e: RelayEvent) => {
    const key = `${e.subBrandId}/${e.environment}`;
    if (!principals.has(key)) principals.set(key, readerPrincipal(deps.db, e));
    return principals.get(key)!;
  };
  const jobs: (() => Promise<void>)[] = [];
  for (const events of groups.values()) {
    const data = EVENT_DATA[events[0]!.resourceType as ResourceType];
    if (!data) throw new Error(`No renderer for ${events[0]!.resourceType}`);
    if (data.many) {
      const many = data.many;
      jobs.push(async () => {
        const principal = await principalOf(events[0]!);
        if (!principal) return gone(events);
        const found = many.result(
          await deps.operations.run(
            many.operation,
            { ids: events.map((e) => e.resourceId) },
            context(deps, principal),
          ),
        );
        const byId = new Map(found.map((r) => [r.id, r]));
        for (const e of events) e.data = byId.get(e.resourceId) ?? deleted(e);
      });
    } else {
      const one = data.one;
      if (!one) throw new Error(`${events[0]!.resourceType} events are written with their data`);
      for (const e of events) {
        jobs.push(async () => {
          const principal = await principalOf(e);
          if (!principal) return gone([e]);
          try {
            e.data = one.result(
              await deps.operations.run(
                one.operation,
                { id: e.resourceId },
                context(deps, principal),
              ),
            );
          } catch (error) {
            if (!(error instanceof AppError) || error.code !== 'not_found') throw error;
            e.data = deleted(e);
          }
        });
      }
    }
  }
  await runAtMost(CONCURRENCY, jobs);
}

const deleted = (e: RelayEvent) => ({ id: e.resourceId, deleted: true });
const gone = (events: RelayEvent[]) => {
  for (const e of events) e.data = deleted(e);
};

const context = (deps: RenderDeps, principal: Principal): GraphQLContext => ({
  db: deps.db,
  principal,
  requestId: 'event-relay',
  baseUrl: deps.baseUrl,
  now: deps.now,
  engine: deps.engine,
});

async function runAtMost(limit: number, jobs: (() => Promise<void>)[]) {
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}
