// The demo tenant is made once however many callers race for it (two servers starting on a fresh
// database with DEMO=1, `admin demo` beside them): one tenant, one sample catalog, a key each.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureDemo } from '../../src/domain/tenancy/ensure-demo.js';
import { ownDatabase, type OwnDatabase } from '../support/harness.js';

let own: OwnDatabase;
beforeAll(async () => {
  own = await ownDatabase(); // the demo tenant is one per database
});
afterAll(() => own.drop());

it('four concurrent callers: one tenant made, one catalog seeded, four working keys', async () => {
  const prisma = own.db.prisma;
  const demos = await Promise.all([1, 2, 3, 4].map(() => ensureDemo(prisma)));
  const subBrands = new Set(demos.map((d) => d.subBrandId));
  expect(subBrands.size).toBe(1);
  const [subBrandId] = subBrands;
  expect(await prisma.subBrand.count({ where: { isDemo: true } })).toBe(1);
  expect(demos.filter((d) => d.created)).toHaveLength(1);
  expect(new Set(demos.map((d) => d.apiKey.key)).size).toBe(4);
  const listings = await prisma.listingMarket.count({ where: { subBrandId } });
  expect(listings).toBeGreaterThan(0);
  const again = await ensureDemo(prisma);
  expect(again).toMatchObject({ subBrandId, created: false });
  expect(await prisma.listingMarket.count({ where: { subBrandId } })).toBe(listings);
  expect(await prisma.eventDefinition.count({ where: { subBrandId } })).toBe(
    again.eventCodes.length,
  );
});
