// POST /graphql: the backoffice's transport over the one schema. Same keys, scopes and rate
// buckets as REST; errors carry our code in `extensions.code`.
import type { Request, Response } from 'express';
import { getOperationAST } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { replicaOf, wroteAs } from '../db/replica.js';
import { callerOf } from '../domain/tenancy/caller.js';
import { baseUrlOf } from '../http/base-url.js';
import { locals } from '../http/locals.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { GraphQLContext } from '../schema/context.js';
import { getSchema } from '../schema/index.js';
import type { MaskError } from './mask-error.js';

type ServerContext = { req: Request; res: Response };

/** What a request's resolvers get: the database, the caller and the request's own facts. */
export const graphqlContext =
  (deps: {
    prisma: PrismaClient;
    now: () => Date;
    engine: GraphQLContext['engine'];
    publicBaseUrl: string | undefined;
  }) =>
  (req: Request, res: Response): GraphQLContext => ({
    db: deps.prisma,
    principal: locals(res).principal!,
    requestId: locals(res).requestId,
    baseUrl: baseUrlOf(req, deps.publicBaseUrl),
    now: deps.now,
    engine: deps.engine,
  });

/**
 * A mutation's caller reads its own write next, even where reads go to a standby: the primary's
 * WAL position is remembered before the answer goes out (db/replica.ts; nothing without one).
 */
const readYourWrites: Plugin<GraphQLContext> = {
  onExecute({ args, executeFn, setExecuteFn }) {
    const ctx = args.contextValue as GraphQLContext;
    // Without a standby nothing is recorded: no document walk on every request.
    if (!replicaOf(ctx.db)) return;
    if (getOperationAST(args.document, args.operationName)?.operation !== 'mutation') return;
    setExecuteFn(async (execution) => {
      const result = await executeFn(execution);
      await wroteAs(ctx.db, callerOf(ctx.principal));
      return result;
    });
  },
};

export function createGraphQLHandler(deps: {
  context: (req: Request, res: Response) => GraphQLContext;
  maskError: MaskError;
  graphiql: boolean;
}) {
  return createYoga<ServerContext, GraphQLContext>({
    schema: getSchema(),
    graphqlEndpoint: '/graphql',
    graphiql: deps.graphiql
      ? { title: 'Partner Rewards backoffice', headers: '{"Authorization":"Bearer svc_test_…"}' }
      : false,
    // From the installed package (no CDN, works offline), loaded when first rendered: its inlined
    // bundle is a large module to parse at start-up, and production never serves GraphiQL.
    renderGraphiQL: async (options) =>
      (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    landingPage: false,
    logging: false,
    context: ({ req, res }) => deps.context(req, res),
    plugins: [readYourWrites],
    maskedErrors: { maskError: (error) => deps.maskError(error) },
  });
}
