// GraphQL's error envelope, also for refusals made before yoga runs (401, 403, 429, a query over
// its limits): a GraphQL client reads `errors[].extensions.code` whatever refused it.
import type { AppError } from '../domain/errors.js';
import { DocumentRefused } from './limits.js';

export const isGraphQLPath = (path: string): boolean =>
  path === '/graphql' || path.startsWith('/graphql/');

export const graphqlErrorBody = (error: AppError, requestId: string) => ({
  // A document refused before it ran: every error GraphQL found, each with where it is.
  errors:
    error instanceof DocumentRefused
      ? error.errors.map((e) => ({
          message: e.message,
          ...(e.locations ? { locations: e.locations } : {}),
          extensions: { code: error.code, request_id: requestId },
        }))
      : [
          {
            message: error.message,
            extensions: {
              code: error.code,
              request_id: requestId,
              ...(error.issues.length ? { issues: error.issues } : {}),
            },
          },
        ],
});
