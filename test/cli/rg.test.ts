// Issue 34: `npm run admin -- rg …`, a customer's responsible-gaming state from the command line:
// the operator at the CLI may lift a self-exclusion, with a reason, as a brand admin may.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const admin = async (...argv: string[]) => {
  const result = await runAdmin([...argv, '--json'], h.db.prisma);
  return { ...result, json: result.code === 0 ? JSON.parse(result.out) : null };
};

describe('npm run admin -- rg …', () => {
  it('sets, shows and lifts with a reason; the history says it came from the CLI', async () => {
    const p = await partner(h);
    const c = await p.customer();
    expect((await admin('rg', 'show', c.id)).json).toMatchObject({ state: 'none', history: [] });
    const set = await runAdmin(
      ['rg', 'set', c.id, '--state', 'self_excluded', '--source', 'player'],
      h.db.prisma,
    );
    expect(set.code, set.out).toBe(0);
    expect(set.out).toContain('self_excluded indefinitely (incentives blocked)');

    const noReason = await admin('rg', 'set', c.id, '--state', 'none');
    expect(noReason.code).not.toBe(0);
    expect(noReason.out).toMatch(/reason/);
    const lifted = await admin(
      'rg',
      'set',
      c.id,
      '--state',
      'none',
      '--reason',
      'Scheme confirmed',
    );
    expect(lifted.json).toMatchObject({ customer_id: c.id, state: 'none' });

    const shown = await runAdmin(['rg', 'show', c.id], h.db.prisma);
    expect(shown.out).toContain('none (incentives allowed)');
    expect(shown.out).toMatch(/self_excluded -> none .* via cli {2}reason: Scheme confirmed/);
    expect((await p.get(`/api/v1/customers/${c.id}`)).body.data.responsible_gaming.state).toBe(
      'none',
    );
  });

  it('refuses bad input and unknown customers, changing nothing', async () => {
    const p = await partner(h);
    const c = await p.customer();
    for (const argv of [
      ['--state', 'cool_off'], // no --until
      ['--state', 'cool_off', '--until', 'tomorrow'],
      ['--state', 'paused'],
    ]) {
      const res = await admin('rg', 'set', c.id, ...argv);
      expect(res.code, argv.join(' ')).not.toBe(0);
    }
    expect((await admin('rg', 'set', c.id)).code).toBe(2); // --state is required
    expect((await admin('rg', 'show', '01a00000-0000-7000-8000-000000000000')).code).toBe(1);
    expect(await h.db.prisma.rgChange.count({ where: { customerId: c.id } })).toBe(0);
  });
});
