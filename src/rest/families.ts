// What differs between the two API families, in one place: where they live and how an error
// looks on their wire. The machinery (auth, limits, idempotency, execution) is shared.
import type { AppError } from '../domain/errors.js';
import type { ApiFamily } from './route.js';

export type FamilyWire = {
  prefix: string;
  errorBody(error: AppError, requestId: string): unknown;
};

export const FAMILIES: Record<ApiFamily, FamilyWire> = {
  partner: {
    prefix: '/api/v1',
    errorBody: (error, requestId) => ({
      error: { code: error.code, message: error.message, request_id: requestId },
    }),
  },
  // The establishment API (its own issue) has per-endpoint error shapes; until its routes land
  // it answers in the partner envelope.
  establishment: {
    prefix: '',
    errorBody: (error, requestId) => ({
      error: { code: error.code, message: error.message, request_id: requestId },
    }),
  },
};

export function familyOfPath(path: string): ApiFamily {
  return path.startsWith('/api/v1') ? 'partner' : 'establishment';
}
