// Polls until a condition the test cannot await directly holds (a backend waiting on a lock, a
// request parked in a group commit), and fails naming what it waited for.

/** Resolves when `check` holds, asking every 20 ms; throws after `timeoutMs`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
