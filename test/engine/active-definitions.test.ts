// A partner can find the event codes it may send: the active definitions of its sub-brand, and an
// unknown code's error names them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefinition, updateDefinition } from '../../src/engine/points/author-definition.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('GET /api/v1/engine/definitions', () => {
  it("lists the sub-brand's active definitions, and an unknown code names them", async () => {
    const p = await partner(h);
    const other = await partner(h);
    await createDefinition(h.db.prisma, {
      subBrandId: p.subBrandId,
      code: 'spin',
      points: 2,
      constraints: { cooldown_seconds: 5 },
      allowPointsOverride: true,
    });
    await createDefinition(h.db.prisma, {
      subBrandId: p.subBrandId,
      code: 'login.daily',
      points: 10,
    });
    const retired = await createDefinition(h.db.prisma, {
      subBrandId: p.subBrandId,
      code: 'old',
      points: 1,
    });
    await updateDefinition(h.db.prisma, retired.id, { active: false });
    await createDefinition(h.db.prisma, {
      subBrandId: other.subBrandId,
      code: 'theirs',
      points: 1,
    });

    const res = await p.get('/api/v1/engine/definitions');
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toEqual([
      {
        code: 'login.daily',
        points: 10,
        player_id_field: 'externalUserId',
        idempotency_key_field: null,
        allow_points_override: false,
        constraints: {},
        version: 1,
        verticals: [],
      },
      expect.objectContaining({
        code: 'spin',
        allow_points_override: true,
        constraints: { cooldown_seconds: 5 },
      }),
    ]);

    const unknown = await p.post(
      '/api/v1/engine/events',
      {
        event_code: 'spinn',
        data: { externalUserId: 'x' },
      },
      randomUUID(),
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe(
      'No active event definition has the code sent. Active codes: login.daily, spin.',
    );
  });

  it('needs the engine:events scope', async () => {
    const p = await partner(h);
    const key = await p.otherKey({ scopes: ['customers:read'] });
    expect((await h.call('GET', '/api/v1/engine/definitions', { key })).status).toBe(403);
  });
});
