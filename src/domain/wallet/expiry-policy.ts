// When a sub-brand's coins expire (docs/expiry-and-holds.md). `none` unless an admin sets one; a
// lot's expiry is fixed when it opens (the ledger's ledger_lot_expiry), so a new policy applies
// to coins credited from then on — except `inactivity_days`, under which every movement moves the
// expiry of all the wallet's coins.
import { z } from 'zod';
import type { ExpiryPolicy, SubBrand } from '../../generated/prisma/client.js';
import type { Db } from '../db.js';
import { notFound } from '../errors.js';
import { isUuid } from '../ids.js';
import { parseInput } from '../validation.js';

/** The policy as every reader shows it. */
export type CoinExpiry = {
  policy: ExpiryPolicy;
  days: number | null;
  month: number | null;
  day: number | null;
};

/** Days in each month of a year that is not a leap year: a fixed date must come every year. */
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export const coinExpiryInput = z.discriminatedUnion('policy', [
  z.strictObject({ policy: z.literal('none') }),
  z.strictObject({
    policy: z.literal('rolling_days'),
    days: z
      .number()
      .int()
      .min(1)
      .max(3660)
      .describe('Each credit expires this many days after it was earned.'),
  }),
  z.strictObject({
    policy: z.literal('inactivity_days'),
    days: z
      .number()
      .int()
      .min(1)
      .max(3660)
      .describe('All coins expire after this many days without a movement.'),
  }),
  z
    .strictObject({
      policy: z.literal('fixed_date'),
      month: z.number().int().min(1).max(12),
      day: z.number().int().min(1).max(31),
    })
    .refine((v) => v.day <= DAYS_IN_MONTH[v.month - 1]!, {
      path: ['day'],
      message: 'must exist in every year (no 29 February, no 31 April)',
    }),
]);

export const coinExpiryOf = (
  s: Pick<SubBrand, 'expiryPolicy' | 'expiryDays' | 'expiryMonth' | 'expiryDay'>,
): CoinExpiry => ({
  policy: s.expiryPolicy,
  days: s.expiryDays,
  month: s.expiryMonth,
  day: s.expiryDay,
});

/**
 * The input from a caller whose absent fields come as null or undefined (GraphQL's arguments, the
 * CLI's flags): those are left out, so the policy's own rule says which fields it takes.
 */
export const coinExpiryFields = (fields: {
  policy: string;
  days?: number | null;
  month?: number | null;
  day?: number | null;
}) =>
  Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== null && value !== undefined),
  ) as z.input<typeof coinExpiryInput>;

/** Sets the policy of one sub-brand (the caller has checked who may). */
export async function setCoinExpiry(
  db: Db,
  subBrandId: string,
  input: z.input<typeof coinExpiryInput>,
): Promise<CoinExpiry> {
  const v = parseInput(coinExpiryInput, input);
  const { count } = isUuid(subBrandId)
    ? await db.subBrand.updateMany({
        where: { id: subBrandId },
        data: {
          expiryPolicy: v.policy,
          expiryDays: 'days' in v ? v.days : null,
          expiryMonth: 'month' in v ? v.month : null,
          expiryDay: 'day' in v ? v.day : null,
        },
      })
    : { count: 0 };
  if (count === 0) throw notFound('Sub-brand');
  return coinExpiryOf(await db.subBrand.findUniqueOrThrow({ where: { id: subBrandId } }));
}
