// Reads that may go to a hot standby (DATABASE_READ_URL; db/replica.ts): the lists, searches,
// reports and leaderboards call `onReplica`, which answers from the standby once it has replayed
// the caller's own last write, and from the primary otherwise (or when there is no standby, or
// when `ctx.db` is a request's transaction). Only reads go there: a standby refuses writes.
import { readAs } from '../db/replica.js';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { callerOf } from '../domain/tenancy/caller.js';
import type { GraphQLContext } from './context.js';

/** A refusal of the caller's own making (a bad cursor) is the answer, wherever it ran. */
const isRefusal = (error: unknown) => error instanceof AppError;

export const onReplica = <T>(ctx: GraphQLContext, read: (db: Db) => Promise<T>): Promise<T> =>
  readAs(ctx.db, callerOf(ctx.principal), read, isRefusal);
