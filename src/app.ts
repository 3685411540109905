// The HTTP application: cross-cutting middlewares, then the three ways in (public pages,
// GraphQL, the REST route table), then one error handler. No business logic here.
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { AppError } from './domain/errors.js';
import type { PrismaClient } from './generated/prisma/client.js';
import { createGraphQLHandler } from './graphql/yoga.js';
import { authenticate, requirePrincipal } from './http/authenticate.js';
import { corsFor } from './http/cors.js';
import { asAppError } from './http/error-response.js';
import { locals } from './http/locals.js';
import { probesRouter } from './http/probes.js';
import { rateLimit, type RateLimitStore } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { requestLog } from './http/request-log.js';
import type { Logger } from './logger.js';
import { MCP_PATH, mcpBodyParser, mcpRouter } from './mcp/http.js';
import { READ_TOOLS } from './mcp/tools.js';
import { docsRouter } from './pages/docs.js';
import { storeRouter } from './pages/store.js';
import { guidePage } from './pages/guide.js';
import { landingPage } from './pages/landing.js';
import { OperationStore } from './rest/execute-operation.js';
import { FAMILIES, familyOfPath, type Family } from './rest/families/index.js';
import { buildOpenApi } from './rest/openapi.js';
import type { Route } from './rest/route.js';
import { buildRestRouter, methodNotAllowed } from './rest/router.js';
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
  /** The engine's claim time-out, and test faults. */
  engine?: GraphQLContext['engine'];
};

export function createApp(deps: AppDeps): Express {
  const now = deps.now ?? (() => new Date());
  const routes = deps.routes ?? ROUTES;
  const engine = deps.engine ?? { claimTimeoutMs: DEFAULT_CLAIM_TIMEOUT_MS };
  const operations = new OperationStore(getSchema());
  for (const route of routes) operations.prepare(route.operation); // fail at start, not on a request
  const openapi = {
    partner: buildOpenApi(FAMILIES.partner, routes, deps.publicBaseUrl),
    establishment: buildOpenApi(FAMILIES.establishment, routes, deps.publicBaseUrl),
  };
  const routeDeps = {
    prisma: deps.prisma,
    operations,
    now,
    engine,
    publicBaseUrl: deps.publicBaseUrl,
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.trustProxy ?? 0);
  const cors = corsFor(deps.corsOrigins ?? []);
  if (cors) app.use(cors); // first: a preflight needs no key and spends no budget
  app.use(requestId, requestLog(deps.logger));
  app.use(probesRouter({ prisma: deps.prisma, rateLimits: deps.rateLimits })); // no key, no budget
  app.use(authenticate(deps.prisma));
  app.use('/graphql', express.json({ limit: '256kb' })); // read before rate limiting: queries and mutations spend different budgets
  app.use(MCP_PATH, mcpBodyParser); // likewise: a read tool call spends the read budget
  app.use(buildRestRouter(routes, routeDeps, deps.rateLimits)); // each row spends its own unit
  app.use(rateLimit(deps.rateLimits, READ_TOOLS)); // everything else

  app.get('/openapi.json', (_req, res) => void res.json(openapi.partner));
  app.get('/openapi/establishment.json', (_req, res) => void res.json(openapi.establishment));
  app.get(
    '/',
    landingPage({ graphiql: deps.graphiql ?? false, publicBaseUrl: deps.publicBaseUrl }),
  );
  app.use(docsRouter());
  app.use(storeRouter({ prisma: deps.prisma, now }));
  app.get(
    '/api/v1/guide',
    (req, res) => void res.type('html').send(guidePage(req, deps.publicBaseUrl)),
  );

  const graphql = createGraphQLHandler({
    prisma: deps.prisma,
    now,
    engine,
    graphiql: deps.graphiql ?? false,
    logger: deps.logger,
    publicBaseUrl: deps.publicBaseUrl,
  });
  app.use('/graphql', graphqlAuth(deps.graphiql ?? false), graphql as unknown as RequestHandler);

  app.use(mcpRouter({ ...routeDeps, logger: deps.logger }));
  app.use(methodNotAllowed(routes));
  app.use((req) => {
    throw new AppError(
      'not_found',
      `No route ${req.method} ${req.path}. See /openapi.json for the routes.`,
    );
  });
  app.use(errorHandler(deps.logger, familyOfPath(routes)));
  return app;
}

/** GraphiQL (a page, GET with Accept: text/html) opens without a key; operations need one. */
const graphqlAuth =
  (graphiql: boolean): RequestHandler =>
  (req, res, next) => {
    if (!(graphiql && req.method === 'GET' && req.accepts(['json', 'html']) === 'html'))
      requirePrincipal(req, res);
    next();
  };

const errorHandler =
  (logger: Logger, familyOf: (path: string) => Family): ErrorRequestHandler =>
  (err, req, res, _next) => {
    const { requestId: id, route } = locals(res);
    const error = asAppError(err, logger, id);
    if (res.headersSent) return void res.end();
    const family = route ? FAMILIES[route.family] : familyOf(req.path);
    res
      .set(error.headers)
      .status(family.status(error, route))
      .json(family.errorBody(error, id, route));
  };
