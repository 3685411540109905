// POST /graphql: the backoffice's transport over the one schema. Same keys, scopes and rate
// buckets as REST; errors carry our code in `extensions.code`.
import type { Request, Response } from 'express';
import { PothosValidationError } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { AppError } from '../domain/errors.js';
import { baseUrlOf } from '../http/base-url.js';
import type { DatabaseHealth } from '../http/db-outage.js';
import { locals } from '../http/locals.js';
import type { Logger } from '../logger.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { GraphQLContext } from '../schema/context.js';
import { getSchema } from '../schema/index.js';

type ServerContext = { req: Request; res: Response };

export function createGraphQLHandler(deps: {
  prisma: PrismaClient;
  now: () => Date;
  engine: GraphQLContext['engine'];
  graphiql: boolean;
  logger: Logger;
  publicBaseUrl: string | undefined;
  databaseHealth: DatabaseHealth;
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
    context: ({ req, res }) => ({
      db: deps.prisma,
      principal: locals(res).principal!,
      requestId: locals(res).requestId,
      baseUrl: baseUrlOf(req, deps.publicBaseUrl),
      now: deps.now,
      engine: deps.engine,
    }),
    maskedErrors: {
      maskError(error, _message) {
        const graphQLError = error instanceof GraphQLError ? error : null;
        const original = graphQLError?.originalError ?? error;
        if (original instanceof AppError) {
          return new GraphQLError(original.message, {
            nodes: graphQLError?.nodes,
            path: graphQLError?.path,
            extensions: {
              code: original.code,
              ...(original.issues.length ? { issues: original.issues } : {}),
            },
          });
        }
        if (graphQLError && !graphQLError.originalError) return graphQLError; // syntax, validation
        const outage = deps.databaseHealth.observe(original);
        if (outage) {
          return new GraphQLError(outage.message, {
            nodes: graphQLError?.nodes,
            path: graphQLError?.path,
            extensions: { code: outage.code },
          });
        }
        // A variable that its type refuses ("Int cannot represent 2147483648"): graphql-js wraps
        // the scalar's own GraphQLError, which is about the input, not our fault.
        if (original instanceof GraphQLError && graphQLError) {
          return new GraphQLError(graphQLError.message, {
            nodes: graphQLError.nodes,
            path: graphQLError.path,
            extensions: { code: 'invalid_request' },
          });
        }
        if (original instanceof PothosValidationError) {
          return new GraphQLError(original.message, {
            nodes: graphQLError?.nodes,
            path: graphQLError?.path,
            extensions: { code: 'invalid_request' },
          });
        }
        deps.logger.error({ msg: 'internal error in GraphQL', err: original });
        return new GraphQLError('Something went wrong on our side.', {
          nodes: graphQLError?.nodes,
          path: graphQLError?.path,
          extensions: { code: 'internal_error' },
        });
      },
    },
  });
}
