// When a failed delivery is tried again (docs/webhooks.md, "Retries"): exponential backoff from
// 5 seconds, ×4 each time, capped at 12 hours, each delay drawn within ±20 % (jitter, so the
// retries of an outage do not all arrive in the same second); a delivery whose next try would
// fall past 3 days from its creation is `failed` instead. An endpoint whose every attempt has
// failed for 3 days is disabled. About 13 attempts in all: 5 s, 20 s, 80 s, 5 min, 21 min,
// 85 min, 5.7 h, then every 12 h.

export const RETRY_WINDOW_MS = 3 * 24 * 3600 * 1000;
const FIRST_DELAY_MS = 5_000;
const FACTOR = 4;
const MAX_DELAY_MS = 12 * 3600 * 1000;
const JITTER = 0.2;

/** The delay after the `attempts`-th failed attempt, before jitter. */
export const baseDelayMs = (attempts: number) =>
  Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * FACTOR ** Math.max(0, attempts - 1));

/** When to try again after `attempts` failed ones, or null: the delivery has failed for good. */
export function nextAttemptAt(
  attempts: number,
  createdAt: Date,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  const delay = baseDelayMs(attempts) * (1 - JITTER + 2 * JITTER * random());
  const at = new Date(now.getTime() + Math.round(delay));
  return at.getTime() - createdAt.getTime() > RETRY_WINDOW_MS ? null : at;
}

/** An endpoint failing since `failingSince` is disabled at its next failure from then on. */
export const failedTooLong = (failingSince: Date | null, now: Date) =>
  failingSince !== null && now.getTime() - failingSince.getTime() >= RETRY_WINDOW_MS;
