// What a GraphQL client sees of an error raised while a document ran: our code in
// `extensions.code` for every refusal, never the text of an unexpected failure (it is logged).
// yoga masks its errors with it, and so does the keyed mutations' path (keyed-mutations.ts).
import { PothosValidationError } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { AppError } from '../domain/errors.js';
import type { DatabaseHealth } from '../http/db-outage.js';
import type { Logger } from '../logger.js';

export type MaskError = (error: unknown) => GraphQLError;

export function createMaskError(deps: {
  logger: Logger;
  databaseHealth: DatabaseHealth;
}): MaskError {
  return (error) => {
    const graphQLError = error instanceof GraphQLError ? error : null;
    const original = graphQLError?.originalError ?? error;
    const at = { nodes: graphQLError?.nodes, path: graphQLError?.path };
    if (original instanceof AppError) {
      return new GraphQLError(original.message, {
        ...at,
        extensions: {
          code: original.code,
          ...(original.issues.length ? { issues: original.issues } : {}),
        },
      });
    }
    if (graphQLError && !graphQLError.originalError) return graphQLError; // syntax, validation
    const outage = deps.databaseHealth.observe(original);
    if (outage)
      return new GraphQLError(outage.message, { ...at, extensions: { code: outage.code } });
    // A variable that its type refuses ("Int cannot represent 2147483648"): graphql-js wraps
    // the scalar's own GraphQLError, which is about the input, not our fault.
    if (original instanceof GraphQLError && graphQLError) {
      return new GraphQLError(graphQLError.message, {
        ...at,
        extensions: { code: 'invalid_request' },
      });
    }
    if (original instanceof PothosValidationError) {
      return new GraphQLError(original.message, { ...at, extensions: { code: 'invalid_request' } });
    }
    deps.logger.error({ msg: 'internal error in GraphQL', err: original });
    return new GraphQLError('Something went wrong on our side.', {
      ...at,
      extensions: { code: 'internal_error' },
    });
  };
}
