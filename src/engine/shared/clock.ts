// Time as both engines see it: an injected clock (the GraphQL context's `now`, a test's fixed
// date) and the UTC day, which is the unit of "once a day" and of daily streaks.

export type Clock = () => Date;

/** Midnight UTC at the start of `now`'s day. */
export const utcDayStart = (now: Date): Date =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));

/** The UTC calendar day of `now` as `YYYY-MM-DD`: the key of a once-a-day claim. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/** Whole UTC days from `a`'s day to `b`'s day (1 = consecutive days). */
export const utcDaysBetween = (a: Date, b: Date): number =>
  Math.round((utcDayStart(b).getTime() - utcDayStart(a).getTime()) / 86_400_000);
