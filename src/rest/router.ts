// The route table served over HTTP: one middleware finds the row (route-matcher.ts) and runs its
// steps in order, plus 405 for a known path called with another method. HTTP concerns (bodies,
// headers, casing of the envelope) stop here.
import type { Request, RequestHandler, Response } from 'express';
import { AppError, invalidRequest } from '../domain/errors.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import { authenticator, requirePrincipal } from '../http/authenticate.js';
import { baseUrlOf } from '../http/base-url.js';
import { JsonBodyReader } from '../http/json-body.js';
import { locals } from '../http/locals.js';
import { spend, type RateLimitStore } from '../http/rate-limit.js';
import { callRoute, type RouteDeps } from './call-route.js';
import { unitOf, type Route } from './route.js';
import type { RouteMatcher } from './route-matcher.js';

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/**
 * Serves the table's rows. For each call, in this order: the row is named (logs, error shapes),
 * the caller identified, its rate unit spent (by key, or by address without one), the key
 * required (before reading the body: no parsing work for strangers), the body read, the call
 * made. Paths no row has go on to the next middleware, untouched.
 */
export function restRoutes(
  matcher: RouteMatcher,
  deps: RouteDeps,
  limits: RateLimitStore,
): RequestHandler {
  const identify = authenticator(deps.prisma, deps.now);
  const readers = new Map<number, JsonBodyReader>(); // one per body limit
  const readerFor = (route: Route) => {
    const limit = route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    let reader = readers.get(limit);
    if (!reader) readers.set(limit, (reader = new JsonBodyReader(limit)));
    return reader;
  };

  return (req, res, next) => {
    if (req.method === 'OPTIONS') return answerOptions(matcher, req, res, next);
    const hit = matcher.match(req.method, req.path);
    if (!hit) return next();
    const { route, params } = hit;
    const l = locals(res);
    l.route = route;
    l.routePattern = route.path;
    req.params = params;
    serve(route, params, req, res).catch(next);
  };

  // One async function per call (a chain of .then would make a promise per step). A cached key
  // and memory counters decide at once: most calls await nothing before their body.
  async function serve(route: Route, params: Record<string, string>, req: Request, res: Response) {
    const identifying = identify(req, res);
    if (identifying) await identifying;
    const spending = spend(limits, req, res, unitOf(route));
    if (spending) await spending;
    const principal = requirePrincipal(req, res);
    refuseUnknownQuery(route, principal, req.query as Record<string, unknown>);
    const body = route.body ? await readerFor(route).read(req, res) : undefined;
    if (body === undefined && route.body && hasBody(req)) {
      throw new AppError(
        'unsupported_media_type',
        'Send the body as JSON with Content-Type: application/json.',
      );
    }
    const out = await callRoute(deps, route, {
      principal,
      requestId: locals(res).requestId,
      // Made when read: a replay answered from memory never reads it.
      get baseUrl() {
        return baseUrlOf(req, deps.publicBaseUrl);
      },
      path: req.path,
      params,
      query: req.query as Record<string, unknown>,
      body,
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
    });
    send(res, out.status, out.headers, out.json);
  }
}

/** The query parameters each row takes (none without a query schema). */
const queryNames = new WeakMap<Route, ReadonlySet<string>>();

/**
 * Unknown query parameters are refused on every route of both families (400 naming each, or the
 * 422 field map where the route answers bad input so), as a typo (`?stauts=`) would otherwise
 * change nothing and be believed (docs/api-conventions.md). After the scope check's place: a key
 * that may not call the route still hears 403 first.
 */
function refuseUnknownQuery(route: Route, principal: Principal, query: Record<string, unknown>) {
  let any = false;
  for (const _ in query) any = true;
  if (!any) return;
  if (!principal.scopes.has(route.scope) && !(route.platformAdmin && principal.isPlatformAdmin))
    return; // callRoute answers 403
  let names = queryNames.get(route);
  if (!names) queryNames.set(route, (names = new Set(Object.keys(route.query?.shape ?? {}))));
  const unknown = Object.keys(query).filter((name) => !names.has(name));
  if (unknown.length)
    throw invalidRequest(
      unknown.map((field) => ({ field, code: 'unknown_field', message: 'is not a known field' })),
    );
}

const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** The answer as express's res.json would write it, without its per-call checks. */
function send(res: Response, status: number, headers: Record<string, string>, json: string) {
  res.statusCode = status;
  for (const name in headers) res.setHeader(name, headers[name]!);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', Buffer.byteLength(json));
  res.end(json); // node sends no body to a HEAD request
}

/** OPTIONS on a row's path: 204 with the methods it allows (CORS preflights are answered before). */
function answerOptions(matcher: RouteMatcher, req: Request, res: Response, next: () => void) {
  const methods = matcher.methodsAt(req.path);
  if (!methods.length) return next();
  res.statusCode = 204;
  res.setHeader('allow', allowed([...methods, 'OPTIONS']));
  res.end();
}

const allowed = (methods: string[]) =>
  [...new Set(methods.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])))].join(', ');

/** 405 with `Allow` for a known path called with another method. */
export function methodNotAllowed(matcher: RouteMatcher): RequestHandler {
  return (req, _res, next) => {
    const methods = matcher.methodsAt(req.path);
    if (!methods.length) return next();
    throw new AppError(
      'method_not_allowed',
      `${req.method} is not allowed here; use ${methods.join(' or ')}.`,
      { headers: { allow: methods.join(', ') } },
    );
  };
}
