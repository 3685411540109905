// `npm run admin -- events …` and `webhooks …`: a tenant's outbound events and webhook endpoints
// (docs/webhooks.md), over the same domain functions as the partner API and the backoffice. Every
// command names its tenant: --sub-brand and --env. A signing secret is printed when it is made
// (create, rotate) and never again.
import type { Db } from '../domain/db.js';
import { listDeliveries, replayEvents } from '../domain/events/deliveries.js';
import {
  createEndpoint,
  deleteEndpoint,
  listEndpoints,
  rotateSecret,
  updateEndpoint,
} from '../domain/events/endpoints.js';
import { readEvent, readEvents, type FeedEvent } from '../domain/events/feed.js';
import { eventTypesOf } from '../domain/events/types.js';
import { getSubBrand } from '../domain/tenancy/read-tenancy.js';
import type { Tenant } from '../domain/tenant.js';
import type { CommandName } from './usage.js';
import {
  iso,
  lines,
  list,
  optional,
  str,
  UsageError,
  type Command,
  type Values,
} from './command.js';

type EventCommandName = Extract<CommandName, `events ${string}` | `webhooks ${string}`>;

/** Rows a list shows unless told (--limit), and at most. */
const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

const limit = (values: Values): number => {
  const value = optional(values, 'limit');
  if (value === undefined) return DEFAULT_LIMIT;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_LIMIT)
    throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
  return Number(value);
};

/** A comma-separated list of event types (each one that exists), or undefined when not given. */
const eventTypes = (values: Values, name: string): string[] | undefined => {
  const types = list(optional(values, name));
  return types && eventTypesOf([...new Set(types)], name);
};

/**
 * The tenant the flags name: the flags first (usage errors), then that the sub-brand exists. Each
 * command reads its other flags before, and checks event types after, so a usage error (exit 2)
 * always wins over what the database says (exit 1).
 */
async function tenantOf(db: Db, values: Values): Promise<Tenant> {
  const environment = str(values, 'env');
  if (environment !== 'live' && environment !== 'test')
    throw new UsageError('--env must be live or test');
  const subBrandId = str(values, 'sub-brand');
  await getSubBrand(db, subBrandId); // an unknown sub-brand is an error, not an empty list
  return { subBrandId, environment };
}

const TENANT = { 'sub-brand': { type: 'string' }, env: { type: 'string' } } as const;

const eventJson = (e: FeedEvent) => ({
  id: e.id,
  type: e.type,
  created_at: e.createdAt.toISOString(),
  resource_id: e.resourceId,
  data: e.data,
});

type Endpoint = Awaited<ReturnType<typeof listEndpoints>>[number];
const endpointJson = (e: Endpoint) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  event_types: e.eventTypes,
  status: e.status,
  disabled_reason: e.disabledReason,
  failing_since: iso(e.failingSince),
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});
const typesText = (types: string[]) => (types.length ? types.join(',') : 'all');

type Delivery = Awaited<ReturnType<typeof listDeliveries>>['deliveries'][number];
const deliveryJson = (d: Delivery) => {
  const last = d.attemptList[0]; // newest first
  return {
    id: d.id,
    event_id: d.eventId,
    event_type: d.eventType,
    status: d.status,
    attempts: d.attempts,
    replay: d.replay,
    created_at: d.createdAt.toISOString(),
    // While pending: when it is tried next (or, while a sender holds it, when its lease ends).
    next_attempt_at: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    last_attempt: last
      ? {
          at: last.at.toISOString(),
          status_code: last.statusCode,
          duration_ms: last.durationMs,
          error: last.error,
        }
      : null,
  };
};
const deliveryLine = (d: ReturnType<typeof deliveryJson>) => {
  // The error says the status too (`HTTP 500: …`), or why there was none (a timeout, a refusal).
  const last = d.last_attempt
    ? `last: ${d.last_attempt.error ?? d.last_attempt.status_code}`
    : 'not tried yet';
  const next = d.next_attempt_at ? `  next: ${d.next_attempt_at}` : '';
  return `${d.created_at}  ${d.event_type ?? '?'}  ${d.status}  ${d.attempts} attempt(s)  ${last}${next}${d.replay ? '  (replay)' : ''}  ${d.event_id}`;
};

/** Turns an endpoint on or off. */
const setStatus = (status: 'active' | 'disabled'): Command => ({
  options: TENANT,
  positionals: 1,
  async run(db, v, [id]) {
    const endpoint = await updateEndpoint(db, await tenantOf(db, v), id!, { status });
    return {
      json: endpointJson(endpoint),
      text:
        status === 'active'
          ? `Webhook endpoint ${endpoint.id} enabled: deliveries resume.`
          : `Webhook endpoint ${endpoint.id} disabled: nothing is sent to it until it is enabled.`,
    };
  },
});

export const EVENT_COMMANDS: Record<EventCommandName, Command> = {
  'events list': {
    options: { ...TENANT, type: { type: 'string' }, limit: { type: 'string' } },
    async run(db, v) {
      const page = limit(v);
      const tenant = await tenantOf(db, v);
      const { events } = await readEvents(db, tenant, {
        after: null,
        limit: page,
        types: eventTypes(v, 'type') ?? null,
        newestFirst: true,
      });
      const rows = events.map(eventJson);
      return {
        json: { events: rows },
        text: lines(
          rows,
          (e) => `${e.created_at}  ${e.type}  ${e.id}  ${e.resource_id}`,
          'No events.',
        ),
      };
    },
  },
  'events show': {
    options: TENANT,
    positionals: 1,
    async run(db, v, [id]) {
      const e = await readEvent(db, await tenantOf(db, v), id!);
      const json = {
        id: e.id,
        type: e.type,
        created_at: e.createdAt.toISOString(),
        environment: e.environment,
        resource_type: e.resourceType,
        resource_id: e.resourceId,
        data: e.data,
      };
      return {
        json,
        text: [
          `id: ${json.id}`,
          `type: ${json.type}`,
          `created_at: ${json.created_at}`,
          `environment: ${json.environment}`,
          `resource: ${json.resource_type} ${json.resource_id}`,
          `data: ${JSON.stringify(json.data, null, 2)}`,
        ].join('\n'),
      };
    },
  },
  'webhooks list': {
    options: TENANT,
    async run(db, v) {
      const rows = (await listEndpoints(db, await tenantOf(db, v))).map(endpointJson);
      return {
        json: { endpoints: rows },
        text: lines(
          rows,
          (e) =>
            `${e.url}  ${e.status}${e.disabled_reason ? ` (${e.disabled_reason})` : ''}  ${typesText(e.event_types)}  ${e.id}`,
          'No webhook endpoints.',
        ),
      };
    },
  },
  'webhooks create': {
    options: {
      ...TENANT,
      url: { type: 'string' },
      types: { type: 'string' },
      description: { type: 'string' },
    },
    async run(db, v) {
      const url = str(v, 'url');
      const tenant = await tenantOf(db, v);
      const created = await createEndpoint(db, tenant, {
        url,
        eventTypes: eventTypes(v, 'types') ?? [],
        description: optional(v, 'description'),
      });
      return {
        json: { ...endpointJson(created), secret: created.secret },
        text:
          `Webhook endpoint ${created.id} created: ${created.url} (${typesText(created.eventTypes)} event types).\n` +
          `Signing secret (shown once: store it now):\n  ${created.secret}`,
      };
    },
  },
  'webhooks disable': setStatus('disabled'),
  'webhooks enable': setStatus('active'),
  'webhooks delete': {
    options: TENANT,
    positionals: 1,
    async run(db, v, [id]) {
      const { id: deleted } = await deleteEndpoint(db, await tenantOf(db, v), id!);
      return {
        json: { id: deleted, deleted: true },
        text: `Webhook endpoint ${deleted} deleted, with its deliveries.`,
      };
    },
  },
  'webhooks rotate': {
    options: TENANT,
    positionals: 1,
    async run(db, v, [id]) {
      const rotated = await rotateSecret(db, await tenantOf(db, v), id!, new Date());
      const until = iso(rotated.previousExpiresAt);
      return {
        json: { id: rotated.id, secret: rotated.secret, previous_secret_expires_at: until },
        text:
          `New signing secret of webhook endpoint ${rotated.id} (shown once: store it now):\n  ${rotated.secret}\n` +
          `The old secret also signs deliveries until ${until}; after that, only the new one.`,
      };
    },
  },
  'webhooks deliveries': {
    options: { ...TENANT, limit: { type: 'string' } },
    positionals: 1,
    async run(db, v, [id]) {
      const first = limit(v);
      const { deliveries } = await listDeliveries(db, await tenantOf(db, v), id!, {
        first,
        after: null,
      });
      const rows = deliveries.map(deliveryJson);
      return {
        json: { deliveries: rows },
        text: lines(rows, deliveryLine, 'No deliveries.'),
      };
    },
  },
  'webhooks replay': {
    options: { ...TENANT, from: { type: 'string' }, to: { type: 'string' } },
    positionals: 1,
    async run(db, v, [id]) {
      const window = { from: str(v, 'from'), to: str(v, 'to') };
      const replayed = await replayEvents(db, await tenantOf(db, v), id!, window);
      return {
        json: { endpoint_id: replayed.endpointId, deliveries: replayed.deliveries },
        text: `${replayed.deliveries} event(s) from ${window.from} to ${window.to} queued for webhook endpoint ${replayed.endpointId}.`,
      };
    },
  },
};
