import { z } from 'zod';

/** Coin amounts are JSON numbers on the wire, so they stay exact: within ±(2^53 - 1). */
export const MAX_COINS = Number.MAX_SAFE_INTEGER;

export const coinAmount = z.number().int().min(-MAX_COINS).max(MAX_COINS);

/** Reasons the service writes itself; partners cannot forge them. */
export const RESERVED_REASON = /^(engine|order|refund|bulk|campaign|expiry|hold):/i;

export const movementReason = z
  .string()
  .min(1)
  .max(500)
  .refine(
    (r) => !RESERVED_REASON.test(r),
    'must not start with engine:, order:, refund:, bulk:, campaign:, expiry: or hold: (reserved)',
  );
