// The HTTP status of each kind of error, as the partner API and the other HTTP surfaces (GraphQL,
// MCP, pages) answer it. An API family may answer some kinds differently (rest/families/).
import type { AppError, ErrorKind } from '../domain/errors.js';

export const HTTP_STATUS: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method: 405,
  conflict: 409,
  state: 409,
  media: 415,
  rate_limited: 429,
  headers_too_large: 431,
  internal: 500,
  unavailable: 503,
};

export const httpStatus = (error: AppError): number => HTTP_STATUS[error.kind];
