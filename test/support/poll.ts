// Polls until a condition the test cannot await directly holds (a backend waiting on a lock, a
// request parked in a group commit, a server back from an outage), and fails naming what it
// waited for.

/**
 * Resolves with the first value `check` gives (anything but undefined), asking every 20 ms;
 * throws after `timeoutMs`.
 */
export async function untilGiven<T>(
  check: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves when `check` holds, asking every 20 ms; throws after `timeoutMs`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  await untilGiven(async () => ((await check()) ? true : undefined), what, timeoutMs);
}
