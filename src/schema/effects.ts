// What each mutation does, declared on its field (`extensions: effect(…)`), so the transports
// derive their rules from the schema instead of a list kept beside it: the GraphQL transport
// requires an Idempotency-Key for mutations that move coins or create records, and refuses one on
// mutations whose answer holds a secret shown once (src/graphql/keyed-mutations.ts); the staff
// audit writes the row of a mutation that commits in steps of its own after it
// (schema/staff-audit.ts). test/graphql/mutation-effects.test.ts fails on a mutation without one.
import type { GraphQLField } from 'graphql';

export type MutationEffect =
  /** Credits, debits or refunds coins, or moves prepaid money: a retry must never apply twice. */
  | 'moves_coins'
  /** Creates a record: a retry must not create a second. */
  | 'creates'
  /** Changes records to a state given in the request (the same request twice changes nothing more). */
  | 'changes'
  /** Deletes or revokes a record. */
  | 'removes'
  /** Creates a secret shown once (an API key): never stored, so never replayed. */
  | 'mints_secret';

export type MutationExtensions = {
  effect: MutationEffect;
  /** It commits in steps of its own and resumes under the same key (a bulk adjustment). */
  ownTransactions?: true;
};

export const effect = (
  effect: MutationEffect,
  options: { ownTransactions?: true } = {},
): MutationExtensions => ({ effect, ...options });

/** The effect a mutation field declares (undefined on a field that declares none). */
export const extensionsOf = (field: GraphQLField<unknown, unknown>) =>
  field.extensions as Partial<MutationExtensions>;

/** Whether a call of it must carry an Idempotency-Key. */
export const needsIdempotencyKey = (effect: MutationEffect | undefined) =>
  effect === 'moves_coins' || effect === 'creates';
