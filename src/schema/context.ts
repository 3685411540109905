import type { Db } from '../domain/db.js';
import type { EngineOptions } from '../engine/points/delivery.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';

/** What every resolver gets: the database (or the request's transaction) and the caller. */
export type GraphQLContext = {
  db: Db;
  principal: Principal;
  requestId: string;
  /** Where this service is reached (PUBLIC_BASE_URL, or the request's own host): absolute links. */
  baseUrl: string;
  /** The clock, injectable so tests can cross a UTC midnight. */
  now: () => Date;
  /** The engine's claim time-out. */
  engine: Omit<EngineOptions, 'now'>;
  /**
   * The Idempotency-Key header of a GraphQL request (src/graphql/keyed-mutations.ts), for the
   * mutations that keep exactly-once in the domain; REST routes pass theirs as an argument.
   */
  idempotencyKey?: string | null;
};
