// The idempotency key of a mutation that keeps exactly-once in the domain (an order, a bulk
// adjustment, an engine delivery, a game play): its `idempotencyKey` argument, which is how the
// REST routes pass the key their caller sent, else the Idempotency-Key header of the GraphQL
// request (the one rule on /graphql, docs/idempotency.md).
import { AppError } from '../domain/errors.js';
import type { GraphQLContext } from './context.js';

export const keyOf = (argument: string | null | undefined, ctx: GraphQLContext): string | null =>
  argument ?? ctx.idempotencyKey ?? null;

export function requiredKeyOf(argument: string | null | undefined, ctx: GraphQLContext): string {
  const key = keyOf(argument, ctx);
  if (key === null) {
    throw new AppError(
      'missing_idempotency_key',
      'This mutation needs an idempotency key: send an Idempotency-Key header (1-64 ASCII characters).',
    );
  }
  return key;
}
