// One call of one route, free of express: scope, input validation, the Idempotency-Key layer and
// the GraphQL operation. The express router and the MCP tools both go through here, so a tool
// can never do what its route would refuse.
import type { z } from 'zod';
import { wroteAs } from '../db/replica.js';
import { callerOf } from '../domain/tenancy/caller.js';
import type { Db } from '../domain/db.js';
import { AppError, invalidRequest, type FieldIssue } from '../domain/errors.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import { toFieldIssues } from '../domain/validation.js';
import { assertStorableInput } from '../http/input-guard.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { GraphQLContext } from '../schema/context.js';
import type { OperationStore } from './execute-operation.js';
import { FAMILIES } from './families/index.js';
import {
  readIdempotencyKey,
  recentReplay,
  requestFingerprint,
  runIdempotently,
  type Outcome,
} from '../exactly-once/keyed-requests.js';
import type { Route, RouteInput } from './route.js';

export type RouteDeps = {
  prisma: PrismaClient;
  operations: OperationStore;
  now: () => Date;
  engine: GraphQLContext['engine'];
  publicBaseUrl?: string | undefined;
};

export type RouteCall = {
  principal: Principal;
  requestId: string;
  /** Where the caller reaches this service, for absolute links in answers. */
  baseUrl: string;
  /** The concrete path called, part of what makes two idempotent requests the same. */
  path: string;
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  idempotencyKey: string | undefined;
};

/** `json` is the body serialized once: stored for replays and sent as is. */
export type RouteResponse = {
  status: number;
  json: string;
  headers: Record<string, string>;
  /** The body `json` serializes, when this call made it: in-process callers (MCP) need not parse it. */
  body?: unknown;
};

export async function callRoute(
  deps: RouteDeps,
  route: Route,
  call: RouteCall,
): Promise<RouteResponse> {
  const response = await respond(deps, route, call);
  // The caller's next read sees this write, even where reads go to a standby (db/replica.ts).
  if (route.method !== 'GET') await wroteAs(deps.prisma, callerOf(call.principal));
  return response;
}

async function respond(deps: RouteDeps, route: Route, call: RouteCall): Promise<RouteResponse> {
  const admitted =
    call.principal.scopes.has(route.scope) ||
    (route.platformAdmin && call.principal.isPlatformAdmin);
  if (!admitted) {
    throw new AppError(
      'forbidden',
      `This key lacks the ${route.scope} scope that ${route.method} ${route.path} needs.`,
    );
  }
  // Bounds depth and size first: the fingerprint walks the body.
  assertStorableInput({ path: call.params, query: call.query, body: call.body });
  // A replay this process answered lately: the same method, path and body passed this route's
  // validation when they first ran, so the stored answer goes out before validating them again
  // (~3 % of a replay's CPU, issue 16). The query is not part of a request's fingerprint, so only
  // calls without one. Anything else takes the path below, whose errors keep their order (an
  // invalid body is a 400 before a reused key is a 409).
  const requestHash =
    route.idempotency === 'none' || call.idempotencyKey === undefined
      ? ''
      : requestFingerprint(route.method, call.path, call.body);
  if (call.idempotencyKey !== undefined && requestHash && isEmpty(call.query)) {
    const recent = recentReplay(call.principal, call.idempotencyKey, requestHash);
    if (recent)
      return replied(deps, route, call, call.idempotencyKey, { ...recent, replayed: true });
  }
  const input = parseRouteInput(route, call);
  const key = route.idempotency === 'none' ? null : readIdempotencyKey(call.idempotencyKey);
  if (route.idempotency === 'required' && key === null) {
    throw new AppError(
      'missing_idempotency_key',
      `${route.method} ${route.path} needs an Idempotency-Key header (1-64 ASCII characters).`,
    );
  }
  const context = (db: Db) => ({
    db,
    principal: call.principal,
    requestId: call.requestId,
    baseUrl: call.baseUrl,
    now: deps.now,
    engine: deps.engine,
  });
  // The last answer made here, kept with its JSON: the response carries it only if that JSON is
  // what goes out (not a stored replay, nor a refusal after a retry).
  let made: { json: string; body: unknown } | undefined;
  const answer = (data: Record<string, unknown>) => {
    const body = route.result(data, { requestId: call.requestId, input });
    made = { json: JSON.stringify(body), body };
    return { status: route.successStatus, json: made.json };
  };
  const withBody = (response: RouteResponse): RouteResponse =>
    made?.json === response.json ? { ...response, body: made.body } : response;
  const execute = async (db: Db) => {
    const data = await deps.operations.run(
      route.operation,
      route.variables(input, {
        principal: call.principal,
        idempotencyKey: key,
        idempotencyHeader: call.idempotencyKey ?? null,
      }),
      context(db),
    );
    return answer(data);
  };
  const byReference = route.answerByReference;
  if (key === null || route.preview?.(input))
    return withBody({ ...(await execute(deps.prisma)), headers: {} });
  const outcome = await runIdempotently({
    prisma: deps.prisma,
    principal: call.principal,
    key,
    requestHash,
    work: execute,
    transaction: route.transaction ?? 'wrap',
    byReference: byReference && {
      status: route.successStatus,
      render: async (ref) =>
        answer(await deps.operations.run(byReference.operation, { ref }, context(deps.prisma))),
    },
    refusal: (error) => {
      if (error.retryable) return null;
      const family = FAMILIES[route.family];
      return {
        status: family.status(error, route),
        json: JSON.stringify(family.errorBody(error, call.requestId, route)),
      };
    },
  });
  return withBody(await replied(deps, route, call, key, outcome));
}

/** The answer of an idempotent call: a replay is marked, and audited where the route asks. */
async function replied(
  deps: RouteDeps,
  route: Route,
  call: RouteCall,
  key: string,
  outcome: Outcome & { replayed: boolean; workRan?: boolean },
): Promise<RouteResponse> {
  if (outcome.replayed && !outcome.workRan && route.onStoredReplay) {
    await route.onStoredReplay(deps.prisma, call.principal, {
      json: outcome.json,
      requestId: call.requestId,
      idempotencyKey: key,
    });
  }
  return {
    status: outcome.status,
    json: outcome.json,
    headers: outcome.replayed ? { 'idempotent-replay': 'true' } : {},
  };
}

function isEmpty(object: Record<string, unknown>): boolean {
  for (const _ in object) return false;
  return true;
}

function parseRouteInput(route: Route, call: RouteCall): RouteInput<never, never, never> {
  const issues: FieldIssue[] = [];
  const parse = (schema: z.ZodType | undefined, value: unknown, fallback: unknown) => {
    if (!schema) return fallback;
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    issues.push(...toFieldIssues(result.error));
    return undefined;
  };
  const input = {
    params: parse(route.params, call.params, {}),
    query: parse(route.query, call.query, {}),
    body: parse(route.body, call.body, undefined),
  };
  if (issues.length) throw invalidRequest(issues);
  return input as RouteInput<never, never, never>;
}
