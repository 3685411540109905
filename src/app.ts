// The HTTP application: cross-cutting middlewares, then the three ways in (public pages,
// GraphQL, the REST route table), then one error handler. No business logic here.
import express, {
  type ErrorRequestHandler,
  type Express,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import { backofficeRouter } from './backoffice/router.js';
import { AppError } from './domain/errors.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { graphqlErrorBody, isGraphQLPath } from './graphql/errors.js';
import { keyedMutations } from './graphql/keyed-mutations.js';
import { trustedDocuments } from './graphql/trusted-documents.js';
import { createMaskError } from './graphql/mask-error.js';
import { createGraphQLHandler, graphqlContext } from './graphql/yoga.js';
import { authenticate, requirePrincipal } from './http/authenticate.js';
import { DatabaseHealth } from './http/db-outage.js';
import { corsFor } from './http/cors.js';
import { asAppError } from './http/error-response.js';
import { locals } from './http/locals.js';
import { probesRouter } from './http/probes.js';
import { rateLimit, type RateLimitStore } from './http/rate-limit.js';
import { graphqlCharge, mcpCharge, refuseCharged } from './http/request-charge.js';
import { requestId } from './http/request-id.js';
import { requestLog } from './http/request-log.js';
import { staffGraphQLAuth } from './http/staff-session.js';
import type { Logger } from './logger.js';
import { MCP_PATH, mcpBodyParser } from './mcp/path.js';
import { READ_TOOLS } from './mcp/tools.js';
import { docsRouter } from './pages/docs.js';
import { FAIRNESS_ROOT, fairnessRouter } from './pages/fairness.js';
import { marketplaceRouter } from './pages/marketplace.js';
import { guidePage } from './pages/guide.js';
import { landingPage } from './pages/landing.js';
import { OperationStore } from './rest/execute-operation.js';
import { FAMILIES, familyOfPath, type Family } from './rest/families/index.js';
import { buildOpenApi } from './rest/openapi.js';
import type { Route } from './rest/route.js';
import { RouteMatcher } from './rest/route-matcher.js';
import { methodNotAllowed, restRoutes } from './rest/router.js';
import { ROUTES } from './rest/table.js';
import type { GraphQLContext } from './schema/context.js';
import { getSchema } from './schema/index.js';

export const DEFAULT_CLAIM_TIMEOUT_MS = 30_000;

export type AppDeps = {
  prisma: PrismaClient;
  logger: Logger;
  rateLimits: RateLimitStore;
  publicBaseUrl?: string | undefined;
  /** Serve GraphiQL on GET /graphql (development only). */
  graphiql?: boolean;
  /** How many proxies' X-Forwarded-For to trust when reading the client address. */
  trustProxy?: number;
  /** Browser origins allowed by CORS (none by default). */
  corsOrigins?: string[];
  now?: () => Date;
  routes?: Route[];
  /** The engine's claim time-out. */
  engine?: GraphQLContext['engine'];
  /** Tracks database outages (503s); made here when not given. Readiness reads its `state`. */
  databaseHealth?: DatabaseHealth;
  /** Where the built backoffice is (default web/dist). */
  webDist?: string;
  /** Where the built marketplace is (default marketplace/dist). */
  marketplaceDist?: string;
  /** Serve /marketplace/demo, the demo player's marketplace (development only). */
  demoLinks?: boolean;
};

export function createApp(deps: AppDeps): Express {
  const now = deps.now ?? (() => new Date());
  const routes = deps.routes ?? ROUTES;
  const engine = deps.engine ?? { claimTimeoutMs: DEFAULT_CLAIM_TIMEOUT_MS };
  // Start-up time (docs/production.md): what only some requests need is made on the first of
  // them. Each route's operation is parsed and validated on its first call (every route's is
  // checked by test/rest/operations.test.ts), the OpenAPI documents on their first read, and
  // the MCP endpoint (the MCP SDK) on the first MCP request.
  const operations = new OperationStore(getSchema());
  const openapi = {
    partner: once(() => buildOpenApi(FAMILIES.partner, routes, deps.publicBaseUrl)),
    establishment: once(() => buildOpenApi(FAMILIES.establishment, routes, deps.publicBaseUrl)),
  };
  const routeDeps = {
    prisma: deps.prisma,
    operations,
    now,
    engine,
    publicBaseUrl: deps.publicBaseUrl,
  };
  const databaseHealth =
    deps.databaseHealth ?? new DatabaseHealth(() => deps.prisma.$queryRaw`SELECT 1`, deps.logger);

  const app = express();
  // For the readiness probe (issue 15): `app.locals.databaseHealth.state.available`.
  app.locals.databaseHealth = databaseHealth;
  app.disable('x-powered-by');
  // No ETag on answers: hashing every API body costs CPU on each request and no client sends
  // If-None-Match to the API (the backoffice's static files keep theirs, from express.static).
  app.set('etag', false);
  app.set('trust proxy', deps.trustProxy ?? 0);
  // In front of express's router (`serveFront` below): CORS first (a preflight needs no key and
  // spends no budget), the request id and log line, then the route table: most calls are its
  // rows; each identifies its caller and spends its own rate unit (no path of the table is a
  // probe's, the backoffice's, GraphQL's or MCP's).
  const cors = corsFor(deps.corsOrigins ?? []);
  const matcher = new RouteMatcher(routes);
  const front = [
    ...(cors ? [cors] : []),
    requestId,
    requestLog(deps.logger),
    restRoutes(matcher, routeDeps, deps.rateLimits),
  ];
  app.use(probesRouter({ prisma: deps.prisma, rateLimits: deps.rateLimits })); // no key, no budget
  app.use(authenticate(deps.prisma, now));
  // The backoffice: its pages, assets and sign-in (which throttles itself), before the limiter.
  app.use(
    backofficeRouter({
      db: deps.prisma,
      rateLimits: deps.rateLimits,
      logger: deps.logger,
      webDist: deps.webDist,
      graphiql: deps.graphiql ?? false,
    }),
  );
  // Bodies read before rate limiting: a query spends read units by its cost, each mutation and
  // each JSON-RPC message of a batch one unit (http/request-charge.ts).
  app.use('/graphql', express.json({ limit: '256kb' }));
  app.use('/graphql', staffGraphQLAuth(deps.prisma)); // a signed-in staff member, when no key is sent
  app.use('/graphql', trustedDocuments); // a player runs the marketplace's documents only
  app.use('/graphql', graphqlCharge(getSchema()));
  app.use(MCP_PATH, mcpBodyParser, mcpCharge(READ_TOOLS));
  app.use(rateLimit(deps.rateLimits, READ_TOOLS)); // everything else

  app.get('/openapi.json', (_req, res) => void res.json(openapi.partner()));
  app.get('/openapi/establishment.json', (_req, res) => void res.json(openapi.establishment()));
  app.get(
    '/',
    landingPage({ graphiql: deps.graphiql ?? false, publicBaseUrl: deps.publicBaseUrl }),
  );
  app.use(docsRouter());
  app.use(
    marketplaceRouter({
      prisma: deps.prisma,
      now,
      engine,
      dist: deps.marketplaceDist,
      demoLinks: deps.demoLinks ?? false,
      publicBaseUrl: deps.publicBaseUrl,
    }),
  );
  app.get(
    '/api/v1/guide',
    (req, res) => void res.type('html').send(guidePage(req, deps.publicBaseUrl)),
  );
  app.use(fairnessRouter({ prisma: deps.prisma })); // public: no key, the address's budget

  const context = graphqlContext({
    prisma: deps.prisma,
    now,
    engine,
    publicBaseUrl: deps.publicBaseUrl,
  });
  const maskError = createMaskError({ logger: deps.logger, databaseHealth });
  const graphql = createGraphQLHandler({ context, maskError, graphiql: deps.graphiql ?? false });
  app.use(
    '/graphql',
    graphqlAuth(deps.graphiql ?? false),
    keyedMutations({ prisma: deps.prisma, schema: getSchema(), context, maskError }),
    graphql as unknown as RequestHandler,
  );

  app.post(MCP_PATH, (req, res, next) => {
    requirePrincipal(req, res); // 401 before a refused batch's 400
    refuseCharged(req, res, next);
  });
  const mcp = once(() =>
    import('./mcp/http.js').then(({ mcpRouter }) =>
      mcpRouter({ ...routeDeps, logger: deps.logger }),
    ),
  );
  app.use((req, res, next) => {
    if (req.path !== MCP_PATH && !req.path.startsWith(`${MCP_PATH}/`)) return next();
    mcp().then((router) => router(req, res, next), next);
  });
  app.use(methodNotAllowed(matcher));
  app.use((req) => {
    throw new AppError(
      'not_found',
      `No route ${req.method} ${req.path}. See /openapi.json for the routes.`,
    );
  });
  const onError = errorHandler(deps.logger, familyOfPath(routes, [FAIRNESS_ROOT]), databaseHealth);
  app.use(onError);
  serveFront(app, front, onError);
  return app;
}

/**
 * Runs `front` before express's router, which serves what they pass on. express walks its router
 * for every middleware (a path match, a prefix trim, parameter processing and a promise check per
 * layer): ~10 % of a replayed request's CPU, spent on four middlewares that take every request
 * (docs/performance.md, seventh pass). Their errors go to the app's error handler, as through
 * express.
 */
function serveFront(app: Express, front: RequestHandler[], onError: ErrorRequestHandler) {
  const application = app as unknown as {
    handle: (req: Request, res: Response, callback?: (error?: unknown) => void) => void;
    request: Request;
    response: Response;
  };
  const handle = application.handle.bind(app);
  application.handle = (req, res, callback) => {
    // What express's own handle does first, so the middlewares see express's req and res. The
    // prototypes are set already when the server is createHttpServer's (then V8 returns at once).
    req.res = res;
    res.req = req;
    Object.setPrototypeOf(req, application.request);
    Object.setPrototypeOf(res, application.response);
    res.locals ??= Object.create(null) as Response['locals'];
    req.originalUrl ??= req.url; // as express's router sets it (the log line reads it)
    let i = 0;
    const next = (error?: unknown) => {
      if (error !== undefined && error !== null) {
        return onError(error, req, res, () => res.end());
      }
      const middleware = front[i++];
      if (!middleware) return handle(req, res, callback);
      try {
        // As express 5 does: a promise's rejection is an error passed on.
        const returned = middleware(req, res, next) as unknown;
        if (returned instanceof Promise) returned.catch(next);
      } catch (thrown) {
        next(thrown ?? new Error('a middleware threw nothing'));
      }
    };
    next();
  };
}

/**
 * GraphiQL (a page, GET with Accept: text/html) opens without a key; operations need a signed-in
 * staff member, a platform-admin key, or a player's store session running the marketplace's
 * trusted documents (trusted-documents.ts). GraphQL's audiences are the backoffice and the
 * marketplace: partner keys use REST /api/v1 and MCP, and they cannot introspect a schema they
 * may not use (docs/api-conventions.md, "GraphQL").
 */
const graphqlAuth =
  (graphiql: boolean): RequestHandler =>
  (req, res, next) => {
    if (graphiql && req.method === 'GET' && req.accepts(['json', 'html']) === 'html') return next();
    const principal = requirePrincipal(req, res);
    if (!principal.staff && !principal.player && !principal.scopes.has('admin')) {
      throw new AppError(
        'forbidden',
        'GraphQL is the backoffice API: partner keys use the REST API under /api/v1 or the MCP tools.',
      );
    }
    refuseCharged(req, res, next);
  };

const errorHandler =
  (
    logger: Logger,
    familyOf: (path: string) => Family,
    databaseHealth: DatabaseHealth,
  ): ErrorRequestHandler =>
  (err, req, res, _next) => {
    const { requestId: id, route } = locals(res);
    const error = databaseHealth.observe(err) ?? asAppError(err, logger, id);
    if (res.headersSent) return void res.end();
    const family = route ? FAMILIES[route.family] : familyOf(req.path);
    res
      .set(error.headers)
      .status(family.status(error, route))
      .json(
        !route && isGraphQLPath(req.originalUrl.split('?')[0]!)
          ? graphqlErrorBody(error, id)
          : family.errorBody(error, id, route),
      );
  };

/** A value made on first use, then kept. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
