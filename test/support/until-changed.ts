// A change to a key reaches the principal cache of every process, this one included, when
// PostgreSQL's notification arrives on its LISTEN session (src/http/principal-cache.ts):
// milliseconds after the commit, so a request sent right after may still be answered from the
// cache. Asks until the answer changes from `was`, and fails unless that happens well inside the
// cache's lifetime (so the broadcast did it, not the expiry).
//
// A 429 says nothing either way: the key is still known (the rate limit runs after the key is
// resolved), only asked too often. A key with a small limit (test/cli/admin.test.ts gives 7 a
// minute) runs out while a loaded machine delivers the notification, so a 429 is asked again,
// and asks are spaced by a few milliseconds.
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import { PRINCIPAL_TTL_MS } from '../../src/http/principal-cache.js';

export async function untilChanged<R extends { status: number }>(
  request: () => Promise<R>,
  was = 200,
): Promise<R> {
  const since = performance.now();
  const unchanged = (res: R) => res.status === was || res.status === 429;
  let res = await request();
  while (unchanged(res) && performance.now() - since < PRINCIPAL_TTL_MS) {
    await sleep(5);
    res = await request();
  }
  expect(performance.now() - since).toBeLessThan(PRINCIPAL_TTL_MS / 2);
  return res;
}
