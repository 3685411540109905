// Where a route row becomes a route: its answer, when the row leaves it out, is derived from its
// GraphQL operation here, once, as the row's module loads (rest/wire-answer.ts).
import type { z } from 'zod';
import type { Route, RouteRow } from './route.js';
import { deriveAnswer } from './wire-answer.js';

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** Checks a row, infers its schema types, and derives the answer it does not write itself. */
export function defineRoute<
  P extends AnyObject | undefined = undefined,
  Q extends AnyObject | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(row: RouteRow<P, Q, B>): Route {
  if ((row.response === undefined) !== (row.result === undefined))
    throw new Error(`${row.name}: write both response and result, or neither (derived)`);
  const answer = row.response && row.result ? {} : deriveAnswer(row);
  return { ...row, ...answer } as unknown as Route;
}
