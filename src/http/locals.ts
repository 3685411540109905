// What the middlewares leave for later ones on `res.locals`, typed in one place.
import type { Response } from 'express';
import type { AppError } from '../domain/errors.js';
import type { AuthFailure, Principal } from '../domain/tenancy/authenticate-api-key.js';
import type { Route } from '../rest/route.js';

export type RequestLocals = {
  requestId: string;
  startedAt: bigint;
  principal?: Principal;
  authFailure?: AuthFailure | 'missing' | 'session_ended';
  /** The route pattern that answered, for logs (`/api/v1/customers/{id}`, not the raw URL). */
  routePattern?: string;
  /** Units of a bucket this request spends, when not one (http/request-charge.ts). */
  charge?: { bucket: 'read' | 'write'; units: number };
  /** A refusal found while charging, answered after authentication. */
  refusal?: AppError;
  /** The REST route row that matched: its family shapes the errors. */
  route?: Route;
};

export const locals = (res: Response): RequestLocals => res.locals as RequestLocals;
