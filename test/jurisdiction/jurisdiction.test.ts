// Issue 34, part 3: a jurisdiction per sub-brand (platform admins set it), product verticals on
// campaigns and engine definitions, and the UKGC mixed-product rule: under UKGC a campaign or
// definition spanning more than one vertical is refused at create, update and start (definitions:
// activation), and UKGC itself is refused while such incentives are live.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.js';
import { createDefinition } from '../../src/engine/points/author-definition.js';
import { setJurisdiction } from '../../src/domain/jurisdiction/set-jurisdiction.js';
import { adminKey } from '../support/factories.js';
import { formHeaders } from '../support/graphql.js';
import { TEST_DB } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';
import { campaignBody, campaignWorld } from '../campaigns/support.js';

let w: Awaited<ReturnType<typeof campaignWorld>>;
let admin: string;
let platform: StaffClient;
beforeAll(async () => {
  w = await campaignWorld('2026-11-25T10:00:00Z');
  admin = (await adminKey(w.h.db.prisma)).key;
  platform = await signInAs(w.h.url, (await createStaff(w.h.db.prisma, 'platform_admin')).email);
});
afterAll(() => w.h.close());

const SET = `mutation($s: ID!, $j: Jurisdiction!) {
  setJurisdiction(subBrandId: $s, jurisdiction: $j) {
    subBrandId jurisdiction mixedIncentives { kind id name environment status verticals }
  }
}`;
const gql = (key: string, query: string, variables: Record<string, unknown> = {}) =>
  w.h.call('POST', '/graphql', { key, body: { query, variables }, headers: formHeaders(query) });
const code = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) =>
  res.body.errors?.[0]?.extensions?.code;

/** Sets a jurisdiction with the platform admin key and expects it to pass. */
async function setTo(subBrandId: string, jurisdiction: string) {
  const res = await gql(admin, SET, { s: subBrandId, j: jurisdiction });
  expect(res.body.errors, res.text).toBeUndefined();
  return res.body.data.setJurisdiction;
}

/** A tenant with its own key and campaign routes (the world's clock). */
async function tenant(jurisdiction?: string) {
  const p = await partner(w.h);
  if (jurisdiction) await setTo(p.subBrandId, jurisdiction);
  const base = `/establishments/${p.subBrandId}/campaigns`;
  return {
    p,
    base,
    create: (over: Record<string, unknown>) => p.post(base, campaignBody(over), null),
    update: (id: string, over: Record<string, unknown>) =>
      p.put(`${base}/${id}`, campaignBody(over)),
    status: (id: string, status: string) => p.put(`${base}/${id}/update-status`, { status }),
    get: (id: string) => p.get(`${base}/${id}`),
  };
}

const MIXED = ['casino', 'sports'];

/** The 400 of the rule: names UKGC and the mixed-product rule, and the verticals field. */
function expectMixedRefusal(
  res: { status: number; body: any; text: string },
  spans = 'casino, sports',
) {
  expect(res.status, res.text).toBe(400);
  expect(res.body.code).toBe('VALIDATION_ERROR');
  expect(res.body.message).toMatch(/^UKGC mixed-product rule/);
  expect(res.body.message).toContain(`spans ${spans}`);
  expect(res.body.details).toEqual([
    {
      field: 'verticals',
      code: 'conflict',
      message: expect.stringMatching(/^UKGC: .*mixed-product/),
    },
  ]);
}

describe('campaigns under UKGC', () => {
  it('refuses a mixed-vertical campaign at create; one vertical and none pass', async () => {
    const t = await tenant('UKGC');
    expectMixedRefusal(await t.create({ verticals: MIXED }));
    expectMixedRefusal(
      await t.create({ verticals: ['lottery', 'bingo', 'poker'] }),
      'poker, bingo, lottery',
    );
    const one = await t.create({ verticals: ['sports'] });
    expect(one.status, one.text).toBe(200);
    const none = await t.create({});
    expect(none.status, none.text).toBe(200);
    const read = await t.get(one.body[0].campaignId);
    expect(read.body.verticals).toEqual(['sports']);
    expect((await t.get(none.body[0].campaignId)).body.verticals).toEqual([]);
    const count = await w.h.db.prisma.campaign.count({ where: { subBrandId: t.p.subBrandId } });
    expect(count).toBe(2); // the refused ones left nothing
  });

  it('refuses an update whose result spans more than one vertical', async () => {
    const t = await tenant('UKGC');
    const id = (await t.create({ verticals: ['casino'] })).body[0].campaignId;
    expectMixedRefusal(await t.update(id, { verticals: MIXED }));
    expect((await t.get(id)).body.verticals).toEqual(['casino']);
    const narrowed = await t.update(id, { verticals: ['sports'], title: 'Sports only' });
    expect(narrowed.status, narrowed.text).toBe(200);
    expect(narrowed.body).toMatchObject({ title: 'Sports only', verticals: ['sports'] });
  });

  it('refuses starting, resuming and cloning a mixed campaign written before UKGC', async () => {
    const t = await tenant();
    const draft = (await t.create({ verticals: MIXED })).body[0].campaignId;
    const template = (await t.create({ verticals: MIXED, isTemplate: true })).body[0].campaignId;
    // Drafts and templates do not run: they do not keep UKGC from being set.
    expect((await setTo(t.p.subBrandId, 'UKGC')).mixedIncentives).toEqual([]);
    expectMixedRefusal(await t.status(draft, 'in_progress'));
    expect((await t.get(draft)).body.status).toBe('draft');
    expectMixedRefusal(await t.p.post(`${t.base}/${template}/clone`, {}, null));
    // Narrowed to one vertical, it starts; cancelling a mixed one is always allowed.
    const fixed = await t.update(draft, { verticals: ['casino'] });
    expect(fixed.status, fixed.text).toBe(200);
    expect((await t.status(draft, 'in_progress')).status).toBe(200);
    const other = await tenant();
    const mixed = (await other.create({ verticals: MIXED })).body[0].campaignId;
    expect((await other.status(mixed, 'in_progress')).status).toBe(200);
    expect((await other.status(mixed, 'paused')).status).toBe(200);
    // A paused mixed campaign is still live: UKGC waits for it (below); under none it resumes.
    expect((await other.status(mixed, 'in_progress')).status).toBe(200);
    // The API refuses UKGC while it is live (below); written directly, to test the resume check.
    await w.h.db.prisma.subBrand.update({
      where: { id: other.p.subBrandId },
      data: { jurisdiction: 'UKGC' },
    });
    expect((await other.status(mixed, 'paused')).status).toBe(200);
    expectMixedRefusal(await other.status(mixed, 'in_progress'));
    expect((await other.status(mixed, 'cancelled')).status).toBe(200);
  });

  it.each(['none', 'MGA'])(
    '%s has no vertical rule: mixed campaigns are made and run',
    async (j) => {
      const t = await tenant(j);
      const res = await t.create({ verticals: ['casino', 'sports', 'poker', 'bingo', 'lottery'] });
      expect(res.status, res.text).toBe(200);
      const id = res.body[0].campaignId;
      const started = await t.status(id, 'in_progress');
      expect(started.status, started.text).toBe(200);
      expect(started.body.verticals).toEqual(['casino', 'sports', 'poker', 'bingo', 'lottery']);
    },
  );

  it('refuses verticals that are not a list of distinct known verticals', async () => {
    const t = await tenant();
    for (const [verticals, field, message] of [
      [['slots'], 'verticals.0', /casino/],
      [['casino', 'casino'], 'verticals', /twice/],
      ['casino', 'verticals', /array/],
      [[1], 'verticals.0', /casino/],
      [['casino', 'sports', 'poker', 'bingo', 'lottery', 'casino'], 'verticals', /at most 5/],
    ] as const) {
      const res = await t.create({ verticals });
      expect(res.status, `${JSON.stringify(verticals)}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      const detail = res.body.details.find((d: any) => d.field === field);
      expect(detail, `${field} in ${res.text}`).toBeDefined();
      expect(detail.message).toMatch(message);
    }
    // Stored in one order, so re-sending them in another is no change to a running campaign.
    const id = (await t.create({ verticals: ['sports', 'casino'] })).body[0].campaignId;
    expect((await t.get(id)).body.verticals).toEqual(['casino', 'sports']);
    await t.status(id, 'in_progress');
    const resent = await t.update(id, { verticals: ['sports', 'casino'], title: 'Renamed' });
    expect(resent.status, resent.text).toBe(200);
    const changed = await t.update(id, { verticals: ['casino'] });
    expect(changed.status).toBe(400);
    expect(changed.body).toMatchObject({ code: 'INVALID_TRANSITION' });
    expect(changed.body.message).toContain('verticals');
  });

  it('GraphQL takes and shows verticals as the establishment API does', async () => {
    const t = await tenant('UKGC');
    const staff = await signInAs(
      w.h.url,
      (await createStaff(w.h.db.prisma, 'establishment_operator', { subBrandId: t.p.subBrandId }))
        .email,
    );
    const CREATE = `mutation($input: JSON!) { createCampaign(input: $input) { id verticals } }`;
    const refused = await staff.gql(
      CREATE,
      { input: campaignBody({ verticals: MIXED }) },
      { subBrandId: t.p.subBrandId },
    );
    expect(code(refused)).toBe('invalid_request');
    expect(refused.body.errors[0].message).toMatch(/UKGC mixed-product rule/);
    expect(refused.body.errors[0].extensions.issues[0]).toMatchObject({ field: 'verticals' });
    const made = await staff.gql(
      CREATE,
      { input: campaignBody({ verticals: ['poker'] }) },
      { subBrandId: t.p.subBrandId },
    );
    expect(made.body.data.createCampaign.verticals).toEqual(['poker']);
  });
});

describe('engine definitions under UKGC', () => {
  const FIELDS = 'id code active version verticals';
  const create = (input: Record<string, unknown>) =>
    gql(
      admin,
      `mutation($input: CreateEventDefinitionInput!) { createEventDefinition(input: $input) { ${FIELDS} } }`,
      { input },
    );
  const update = (id: string, input: Record<string, unknown>) =>
    gql(
      admin,
      `mutation($id: ID!, $input: UpdateEventDefinitionInput!) { updateEventDefinition(id: $id, input: $input) { ${FIELDS} } }`,
      { id, input },
    );
  const refusal = (res: { body: any; text: string }) => {
    expect(code(res), res.text).toBe('invalid_request');
    expect(res.body.errors[0].message).toMatch(/^UKGC mixed-product rule/);
    expect(res.body.errors[0].extensions.issues).toEqual([
      expect.objectContaining({ field: 'verticals', code: 'conflict' }),
    ]);
  };

  it('refuses a mixed definition at create, update and activation; one or none pass', async () => {
    const t = await tenant('UKGC');
    const s = t.p.subBrandId;
    refusal(await create({ subBrandId: s, code: 'bet.spin', points: 5, verticals: MIXED }));
    refusal(
      await create({ subBrandId: s, code: 'bet.off', points: 5, verticals: MIXED, active: false }),
    );
    const one = await create({
      subBrandId: s,
      code: 'bet.placed',
      points: 5,
      verticals: ['sports'],
    });
    expect(one.body.data.createEventDefinition).toMatchObject({
      verticals: ['sports'],
      version: 1,
    });
    const none = await create({ subBrandId: s, code: 'login', points: 1 });
    expect(none.body.data.createEventDefinition.verticals).toEqual([]);
    const id = one.body.data.createEventDefinition.id;
    refusal(await update(id, { verticals: ['sports', 'casino'] }));
    // An inactive mixed definition written before UKGC: activating it is refused, editing it
    // too; deactivating is never refused.
    const old = await createDefinition(w.h.db.prisma, {
      subBrandId: (await tenant()).p.subBrandId,
      code: 'old.mixed',
      points: 3,
      verticals: ['bingo', 'casino'],
      active: false,
    });
    await w.h.db.prisma.subBrand.update({
      where: { id: old.subBrandId },
      data: { jurisdiction: 'UKGC' },
    });
    refusal(await update(old.id, { active: true }));
    refusal(await update(old.id, { points: 4 }));
    const off = await gql(
      admin,
      `mutation($id: ID!) { deactivateEventDefinition(id: $id) { ${FIELDS} } }`,
      { id: old.id },
    );
    expect(off.body.errors, off.text).toBeUndefined();
    const fixed = await update(old.id, { verticals: ['casino'], active: true });
    expect(fixed.body.data.updateEventDefinition).toMatchObject({
      verticals: ['casino'],
      active: true,
    });
    // Partners read the verticals with the active codes.
    const list = await t.p.get('/api/v1/engine/definitions');
    expect(list.body.data.map((d: any) => [d.code, d.verticals])).toEqual([
      ['bet.placed', ['sports']],
      ['login', []],
    ]);
  });

  it('refuses bad verticals, and allows mixed ones under none and MGA', async () => {
    const t = await tenant('MGA');
    const s = t.p.subBrandId;
    const unknown = await create({ subBrandId: s, code: 'a', points: 1, verticals: ['slots'] });
    expect(unknown.body.errors?.[0]).toBeDefined(); // not a ProductVertical: GraphQL refuses it
    const twice = await create({
      subBrandId: s,
      code: 'a',
      points: 1,
      verticals: ['poker', 'poker'],
    });
    expect(code(twice)).toBe('invalid_request');
    expect(twice.body.errors[0].extensions.issues[0]).toMatchObject({ field: 'verticals' });
    const mixed = await create({ subBrandId: s, code: 'a', points: 1, verticals: MIXED });
    expect(mixed.body.data.createEventDefinition.verticals).toEqual(MIXED);
  });

  it('the CLI takes --verticals and says the rule', async () => {
    const t = await tenant('UKGC');
    const cli = (...argv: string[]) => runAdmin([...argv, '--json'], w.h.db.prisma);
    const refused = await cli(
      'definition',
      'create',
      '--sub-brand',
      t.p.subBrandId,
      '--code',
      'x',
      '--points',
      '5',
      '--verticals',
      'casino,sports',
    );
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.out).error.message).toMatch(/--verticals: UKGC: .*mixed-product/);
    const made = await cli(
      'definition',
      'create',
      '--sub-brand',
      t.p.subBrandId,
      '--code',
      'x',
      '--points',
      '5',
      '--verticals',
      'casino',
    );
    expect(made.code, made.out).toBe(0);
    const id = JSON.parse(made.out).id;
    const cleared = await cli('definition', 'update', id, '--verticals', '');
    expect(cleared.code, cleared.out).toBe(0);
    expect(JSON.parse((await cli('definition', 'show', id)).out).verticals).toEqual([]);
  });
});

describe('setting the jurisdiction', () => {
  it('platform admins alone set it; brand admins, operators, support and partner keys cannot', async () => {
    const t = await tenant();
    const sign = async (...args: Parameters<typeof createStaff>) =>
      signInAs(w.h.url, (await createStaff(...args)).email);
    const brandAdmin = await sign(w.h.db.prisma, 'brand_admin', { brandId: t.p.brandId });
    const operator = await sign(w.h.db.prisma, 'establishment_operator', {
      subBrandId: t.p.subBrandId,
    });
    const support = await sign(w.h.db.prisma, 'support', { subBrandId: t.p.subBrandId });
    for (const who of [brandAdmin, operator, support])
      expect(code(await who.gql(SET, { s: t.p.subBrandId, j: 'UKGC' }))).toBe('forbidden');
    expect(code(await gql(t.p.key, SET, { s: t.p.subBrandId, j: 'UKGC' }))).toBe('forbidden');
    const row = await w.h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: t.p.subBrandId } });
    expect(row.jurisdiction).toBe('none');

    const set = await platform.gql(SET, { s: t.p.subBrandId, j: 'UKGC' });
    expect(set.body.data.setJurisdiction).toEqual({
      subBrandId: t.p.subBrandId,
      jurisdiction: 'UKGC',
      mixedIncentives: [],
    });
    // Audited with the record before and after.
    const audit = await w.h.db.prisma.staffAuditEntry.findFirstOrThrow({
      where: { action: 'setJurisdiction' },
      orderBy: { id: 'desc' },
    });
    expect(audit.before).toEqual({ id: t.p.subBrandId, jurisdiction: 'none' });
    expect(audit.after).toEqual({ id: t.p.subBrandId, jurisdiction: 'UKGC' });

    // Read back by the partner (its sub-brand), the establishment API and the backoffice.
    const sub = await t.p.get(`/api/v1/brands/${t.p.brandId}/sub-brands/${t.p.subBrandId}`);
    expect(sub.body.data.jurisdiction).toBe('UKGC');
    const est = await t.p.get(`/establishments/${t.p.subBrandId}`);
    expect(est.body.jurisdiction).toBe('UKGC');
    const page = await platform.gql(`query($id: ID!) { subBrand(id: $id) { jurisdiction } }`, {
      id: t.p.subBrandId,
    });
    expect(page.body.data.subBrand.jurisdiction).toBe('UKGC');
  });

  it('refuses what is not a jurisdiction or not a sub-brand', async () => {
    const bad = await gql(admin, SET, { s: w.p.subBrandId, j: 'FCA' });
    expect(bad.body.errors?.[0]).toBeDefined();
    expect(
      code(await gql(admin, SET, { s: '01a00000-0000-7000-8000-000000000000', j: 'MGA' })),
    ).toBe('not_found');
    expect(code(await gql(admin, SET, { s: 'nope', j: 'MGA' }))).toBe('not_found');
  });

  it('refuses UKGC while mixed incentives are live, listing them; accepts it once they end', async () => {
    const t = await tenant();
    const running = (await t.create({ verticals: MIXED, title: 'Bet and spin' })).body[0]
      .campaignId;
    await t.status(running, 'in_progress');
    const paused = (await t.create({ verticals: ['poker', 'bingo'] })).body[0].campaignId;
    await t.status(paused, 'in_progress');
    await t.status(paused, 'paused');
    await t.create({ verticals: MIXED }); // a draft: not live
    const def = await createDefinition(w.h.db.prisma, {
      subBrandId: t.p.subBrandId,
      code: 'deposit.mixed',
      points: 10,
      verticals: ['lottery', 'casino'],
    });

    const refused = await gql(admin, SET, { s: t.p.subBrandId, j: 'UKGC' });
    expect(code(refused)).toBe('conflict');
    const message: string = refused.body.errors[0].message;
    expect(message).toMatch(/^UKGC mixed-product rule/);
    expect(message).toContain(
      `campaign ${running} "Bet and spin" (test, in_progress): casino, sports`,
    );
    expect(message).toContain(`(test, paused): poker, bingo`);
    expect(message).toContain('event definition deposit.mixed');
    expect(refused.body.errors[0].extensions.issues).toHaveLength(3);
    expect(
      (await w.h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: t.p.subBrandId } }))
        .jurisdiction,
    ).toBe('none');

    // MGA is accepted and answers what UKGC would refuse; so does the CLI.
    const mga = await setTo(t.p.subBrandId, 'MGA');
    expect(mga.mixedIncentives.map((m: any) => [m.kind, m.id])).toEqual([
      ['campaign', running],
      ['campaign', paused],
      ['definition', def.id],
    ]);
    const shown = await runAdmin(['jurisdiction', 'show', t.p.subBrandId], w.h.db.prisma);
    expect(shown.out).toContain('MGA');
    expect(shown.out).toContain('UKGC would refuse it');
    const cliRefused = await runAdmin(
      ['jurisdiction', 'set', t.p.subBrandId, '--jurisdiction', 'UKGC', '--json'],
      w.h.db.prisma,
    );
    expect(cliRefused.code).toBe(1);
    expect(JSON.parse(cliRefused.out).error).toMatchObject({ code: 'conflict' });

    await t.status(running, 'cancelled');
    await t.status(paused, 'cancelled');
    await createDefinition(w.h.db.prisma, {
      subBrandId: t.p.subBrandId,
      code: 'other',
      points: 1,
      verticals: ['casino'],
    });
    const off = await runAdmin(
      ['definition', 'update', def.id, '--inactive', '--json'],
      w.h.db.prisma,
    );
    expect(off.code, off.out).toBe(0);
    const cli = await runAdmin(
      ['jurisdiction', 'set', t.p.subBrandId, '--jurisdiction', 'UKGC', '--json'],
      w.h.db.prisma,
    );
    expect(cli.code, cli.out).toBe(0);
    expect(JSON.parse(cli.out)).toEqual({
      sub_brand_id: t.p.subBrandId,
      jurisdiction: 'UKGC',
      mixed_incentives: [],
    });
    expect((await runAdmin(['jurisdiction', 'set', t.p.subBrandId], w.h.db.prisma)).code).toBe(2);
  });

  it("is one sub-brand's: another tenant keeps its own and sees nothing of it", async () => {
    const a = await tenant('UKGC');
    const b = await tenant();
    expect((await b.create({ verticals: MIXED })).status).toBe(200);
    expectMixedRefusal(await a.create({ verticals: MIXED }));
    // A's key cannot reach B's campaigns, whatever the jurisdiction.
    const theirs = (await b.create({ verticals: ['casino'] })).body[0].campaignId;
    expect(
      (await a.p.get(`${a.base.replace(a.p.subBrandId, b.p.subBrandId)}/${theirs}`)).status,
    ).toBe(404);
    expect((await a.p.get(`${a.base}/${theirs}`)).status).toBe(404);
  });

  it('never leaves a mixed active definition under UKGC, whatever the race', async () => {
    for (let round = 0; round < (TEST_DB === 'postgres' ? 8 : 2); round++) {
      const t = await tenant();
      const results = await Promise.allSettled([
        setJurisdiction(w.h.db.prisma, t.p.subBrandId, { jurisdiction: 'UKGC' }, new Date()),
        createDefinition(w.h.db.prisma, {
          subBrandId: t.p.subBrandId,
          code: `race.${round}`,
          points: 1,
          verticals: MIXED as never,
        }),
      ]);
      // One of the two wins; the other is refused (409 conflict or the 400 of the rule).
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const sub = await w.h.db.prisma.subBrand.findUniqueOrThrow({ where: { id: t.p.subBrandId } });
      const defs = await w.h.db.prisma.eventDefinition.count({
        where: { subBrandId: t.p.subBrandId },
      });
      expect([sub.jurisdiction, defs]).toEqual(
        sub.jurisdiction === 'UKGC' ? ['UKGC', 0] : ['none', 1],
      );
    }
  });
});
