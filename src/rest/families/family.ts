// An API family is a wire format over the one core (DESIGN.md, "API families"): it owns the
// status of each error, the error and success bodies, what happens to unknown fields and its
// OpenAPI document. Route rows say what a route does; their family says how it looks on the wire.
import type { z } from 'zod';
import type { AppError } from '../../domain/errors.js';
import type { Route } from '../route.js';

type JsonSchema = Record<string, unknown>;

export type Family = {
  name: 'partner' | 'establishment';
  /** Where its routes live: `/api/v1` or the root. */
  prefix: string;
  /**
   * Unknown body fields: 'refuse' (strict schemas, 400 naming the field) or 'ignore' (stripped:
   * the establishment document re-sends whole objects and has fields it does not consume). The
   * route rows' schemas follow it; a test checks every row against its family.
   */
  unknownFields: 'refuse' | 'ignore';
  status(error: AppError, route?: Route): number;
  errorBody(error: AppError, requestId: string, route?: Route): unknown;
  openapi: {
    title: string;
    description: string;
    /** The body of a success, around the row's `response` schema. */
    successSchema(route: Route, response: JsonSchema): JsonSchema;
    /** The body of an error with one of these codes on this route. */
    errorSchema(route: Route, status: number, codes: string[]): JsonSchema;
    /** Shared schemas its documents reference. */
    components: Record<string, JsonSchema>;
    /**
     * What it sends rather than answers (OpenAPI 3.1's top-level `webhooks`): per event type, its
     * description and the body a receiver gets. A function: the schemas are the routes' own.
     */
    webhooks?: () => Record<string, { description: string; body: z.ZodType }>;
  };
};
