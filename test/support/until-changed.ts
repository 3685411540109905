// A change to a key reaches the principal cache of every process, this one included, when
// PostgreSQL's notification arrives on its LISTEN session (src/http/principal-cache.ts):
// milliseconds after the commit, so a request sent right after may still be answered from the
// cache. Asks until the answer changes from `was`, and fails unless that happens well inside the
// cache's lifetime (so the broadcast did it, not the expiry).
import { expect } from 'vitest';
import { PRINCIPAL_TTL_MS } from '../../src/http/principal-cache.js';

export async function untilChanged<R extends { status: number }>(
  request: () => Promise<R>,
  was = 200,
): Promise<R> {
  const since = performance.now();
  let res = await request();
  while (res.status === was && performance.now() - since < PRINCIPAL_TTL_MS) res = await request();
  expect(performance.now() - since).toBeLessThan(PRINCIPAL_TTL_MS / 2);
  return res;
}
