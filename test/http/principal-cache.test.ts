// Principals are cached per process for a few seconds (src/http/principal-cache.ts); a change to
// a key is broadcast at its commit, and every process (the one that made it too) applies it as
// soon as the broadcast reaches it (milliseconds), not when its cached copy expires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revokeApiKey } from '../../src/domain/tenancy/revoke-api-key.js';
import { createTenant } from '../support/factories.js';
import { startHarness, TEST_DB, type Harness } from '../support/harness.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { call } from '../support/harness.js';
import { untilChanged } from '../support/until-changed.js';

let h: Harness;
beforeAll(async () => {
  // A server process runs the campaign job on the real clock: on the run's shared database it
  // would complete the campaigns that the files beside run on their own clocks.
  h = await startHarness({ ownDatabase: true });
});
afterAll(() => h.close());

const health = (base: string, key: string) => call(base, 'GET', '/api/v1/health', { key });

describe('the principal cache', () => {
  it('refuses a revoked key once the change is broadcast, however often it was used before', async () => {
    const tenant = await createTenant(h.db.prisma);
    const created = await tenant.key();
    for (let i = 0; i < 5; i++) expect((await health(h.url, created.key)).status).toBe(200);
    await revokeApiKey(h.db.prisma, created.id);
    const res = await untilChanged(() => health(h.url, created.key));
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
  });

  it('applies a change of scopes once it is broadcast', async () => {
    const tenant = await createTenant(h.db.prisma);
    const created = await tenant.key();
    const list = () => call(h.url, 'GET', '/api/v1/customers', { key: created.key });
    expect((await list()).status).toBe(200);
    await h.db.prisma.apiKey.update({ where: { id: created.id }, data: { scopes: [] } });
    expect((await untilChanged(list)).status).toBe(403);
  });

  describe.skipIf(TEST_DB !== 'postgres')('across processes (PostgreSQL)', () => {
    let other: ServerProcess;
    beforeAll(async () => {
      other = await startServerProcess({ DATABASE_URL: h.databaseUrl! });
    }, 60_000);
    afterAll(() => other?.stop());

    it('a key revoked by one process is refused by another once the broadcast arrives, long before the cache would expire', async () => {
      const tenant = await createTenant(h.db.prisma);
      const created = await tenant.key();
      // Both processes have it cached.
      for (let i = 0; i < 3; i++) {
        expect((await health(other.url, created.key)).status).toBe(200);
        expect((await health(h.url, created.key)).status).toBe(200);
      }
      await revokeApiKey(h.db.prisma, created.id);
      const res = await untilChanged(() => health(other.url, created.key));
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/revoked/);
    });
  });
});
