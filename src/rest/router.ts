// Express routes derived from the route table: one handler per row, plus 405 for a known path
// called with another method. HTTP concerns (bodies, headers, casing of the envelope) stop here.
import express, { Router, type Request, type RequestHandler } from 'express';
import { AppError } from '../domain/errors.js';
import { requirePrincipal } from '../http/authenticate.js';
import { baseUrlOf } from '../http/base-url.js';
import { locals } from '../http/locals.js';
import { spendRouteUnit, type RateLimitStore } from '../http/rate-limit.js';
import { callRoute, type RouteDeps } from './call-route.js';
import { unitOf, type Route } from './route.js';

export const DEFAULT_MAX_BODY_BYTES = 64 * 1024;

/** `/customers/{id}` → `/customers/:id` */
export const expressPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

/** The routes, each spending its own rate unit before anything else. */
export function buildRestRouter(routes: Route[], deps: RouteDeps, limits: RateLimitStore): Router {
  const router = Router();
  for (const route of routes) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    router[method](
      expressPath(route.path),
      matched(route),
      spendRouteUnit(limits, unitOf(route)),
      authenticated,
      ...bodyParser(route),
      handle(route, deps),
    );
  }
  return router;
}

/** Names the route for the log line and the error handler (its family's error shapes). */
const matched =
  (route: Route): RequestHandler =>
  (_req, res, next) => {
    locals(res).route = route;
    locals(res).routePattern = route.path;
    next();
  };

const authenticated: RequestHandler = (req, res, next) => {
  requirePrincipal(req, res); // before reading the body: no parsing work for strangers
  next();
};

function bodyParser(route: Route): RequestHandler[] {
  if (!route.body) return [];
  const json = express.json({ limit: route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, strict: true });
  const requireJson: RequestHandler = (req, _res, next) => {
    if (req.body === undefined && hasBody(req)) {
      throw new AppError(
        'unsupported_media_type',
        'Send the body as JSON with Content-Type: application/json.',
      );
    }
    next();
  };
  return [json, requireJson];
}

const hasBody = (req: Request): boolean =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

const handle =
  (route: Route, deps: RouteDeps): RequestHandler =>
  async (req, res) => {
    const l = locals(res);
    const out = await callRoute(deps, route, {
      principal: l.principal!,
      requestId: l.requestId,
      baseUrl: baseUrlOf(req, deps.publicBaseUrl),
      path: req.path,
      params: req.params,
      query: req.query as Record<string, unknown>,
      body: req.body,
      idempotencyKey: req.get('idempotency-key'),
    });
    res.set(out.headers).status(out.status).type('json').send(out.json);
  };

/** 405 with `Allow` for a known path called with another method. */
export function methodNotAllowed(routes: Route[]): RequestHandler {
  const patterns = routes.map((r) => ({
    method: r.method,
    regex: new RegExp(`^${r.path.replace(/\{\w+\}/g, '[^/]+')}/?$`),
  }));
  return (req, _res, next) => {
    const allowed = [
      ...new Set(patterns.filter((p) => p.regex.test(req.path)).map((p) => p.method)),
    ];
    if (!allowed.length) return next();
    throw new AppError(
      'method_not_allowed',
      `${req.method} is not allowed here; use ${allowed.join(' or ')}.`,
      {
        headers: { allow: allowed.join(', ') },
      },
    );
  };
}
