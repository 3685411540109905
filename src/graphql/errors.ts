// GraphQL's error envelope, also for refusals made before yoga runs (401, 403, 429, a query over
// its limits): a GraphQL client reads `errors[].extensions.code` whatever refused it.
import type { AppError } from '../domain/errors.js';

export const isGraphQLPath = (path: string): boolean =>
  path === '/graphql' || path.startsWith('/graphql/');

export const graphqlErrorBody = (error: AppError, requestId: string) => ({
  errors: [
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
