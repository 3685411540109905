// A job every server process runs on a timer (the campaigns' jobs, the coin expiry): one pass at
// a time per process, never overlapping itself, and a stop that waits for the pass in flight so
// its transaction commits or rolls back before the pool closes.

export type Periodic = { stop: () => Promise<void> };

export function every(
  everyMs: number,
  pass: () => Promise<unknown>,
  onError: (err: unknown) => void,
): Periodic {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = pass()
      .catch(onError)
      .finally(() => (running = null));
  };
  const timer = setInterval(tick, everyMs).unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
