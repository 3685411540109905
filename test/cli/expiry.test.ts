// Issue 33: `npm run admin -- expiry …`, a sub-brand's coin expiry policy from the command line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.js';
import { createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const admin = async (...argv: string[]) => {
  const result = await runAdmin([...argv, '--json'], h.db.prisma);
  return { ...result, json: result.code === 0 ? JSON.parse(result.out) : null };
};

describe('npm run admin -- expiry …', () => {
  it('sets and shows each policy, in words and as JSON', async () => {
    const { subBrandId } = await createTenant(h.db.prisma);
    expect((await admin('expiry', 'show', subBrandId)).json).toEqual({
      sub_brand_id: subBrandId,
      policy: 'none',
      days: null,
      month: null,
      day: null,
    });
    const set = await runAdmin(
      ['expiry', 'set', subBrandId, '--policy', 'fixed_date', '--month', '12', '--day', '31'],
      h.db.prisma,
    );
    expect(set.code).toBe(0);
    expect(set.out).toContain('every year on 12-31 at 00:00 UTC');
    expect(
      (await admin('expiry', 'set', subBrandId, '--policy', 'rolling_days', '--days', '90')).json,
    ).toMatchObject({ policy: 'rolling_days', days: 90, month: null, day: null });
    const row = await h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: subBrandId } });
    expect(row).toMatchObject({ expiryPolicy: 'rolling_days', expiryDays: 90, expiryMonth: null });
  });

  it('refuses what cannot be a policy, naming the flag, and changes nothing', async () => {
    const { subBrandId } = await createTenant(h.db.prisma);
    for (const argv of [
      ['--policy', 'rolling_days'], // no --days
      ['--policy', 'rolling_days', '--days', '0'],
      ['--policy', 'fixed_date', '--month', '2', '--day', '29'], // not every year
      ['--policy', 'weekly'],
      ['--policy', 'none', '--days', '3'],
    ]) {
      const res = await admin('expiry', 'set', subBrandId, ...argv);
      expect(res.code, argv.join(' ')).not.toBe(0);
    }
    expect((await admin('expiry', 'set', subBrandId)).code).toBe(2); // --policy is required
    const unknown = await admin('expiry', 'show', '01a00000-0000-7000-8000-000000000000');
    expect(unknown.code).toBe(1);
    const row = await h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: subBrandId } });
    expect(row.expiryPolicy).toBe('none');
  });
});
