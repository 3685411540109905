// Event definitions: authored by platform admin keys (GraphQL) and the admin CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../src/cli/admin.js';
import { adminKey, createTenant } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { formHeaders } from '../support/graphql.js';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await startHarness();
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

const gql = (key: string, query: string, variables: Record<string, unknown> = {}) =>
  h.call('POST', '/graphql', { key, body: { query, variables }, headers: formHeaders(query) });

const FIELDS =
  'id subBrandId code points constraints warnings playerIdField idempotencyKeyField allowPointsOverride active version';
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

describe('GraphQL authoring', () => {
  it('creates with defaults, edits bump the version, deactivation keeps the row', async () => {
    const tenant = await createTenant(h.db.prisma);
    const created = await create({
      subBrandId: tenant.subBrandId,
      code: 'deposit.first',
      points: 500,
    });
    expect(created.body.errors).toBeUndefined();
    const d = created.body.data.createEventDefinition;
    expect(d).toMatchObject({
      code: 'deposit.first',
      points: 500,
      constraints: {},
      warnings: [],
      playerIdField: 'externalUserId',
      idempotencyKeyField: null,
      allowPointsOverride: false,
      active: true,
      version: 1,
    });
    const edited = await update(d.id, {
      points: -50,
      constraints: { max_daily_per_player: 3, cooldown_seconds: 60 },
      allowPointsOverride: true,
    });
    expect(edited.body.data.updateEventDefinition).toMatchObject({
      points: -50,
      version: 2,
      allowPointsOverride: true,
      warnings: [],
    });
    const off = await gql(
      admin,
      `mutation($id: ID!) { deactivateEventDefinition(id: $id) { active version } }`,
      { id: d.id },
    );
    expect(off.body.data.deactivateEventDefinition).toEqual({ active: false, version: 3 });
    const listed = await gql(
      admin,
      `query($s: ID!) { eventDefinitions(subBrandId: $s) { edges { node { code active } } } }`,
      { s: tenant.subBrandId },
    );
    expect(listed.body.data.eventDefinitions.edges).toEqual([
      { node: { code: 'deposit.first', active: false } },
    ]);
  });

  it('keeps unknown constraint keys, and says deliveries would skip', async () => {
    const tenant = await createTenant(h.db.prisma);
    const res = await create({
      subBrandId: tenant.subBrandId,
      code: 'odd',
      points: 1,
      constraints: { max_per_week: 2, starts_at: 'tomorrow' },
    });
    const { warnings, constraints } = res.body.data.createEventDefinition;
    expect(constraints).toEqual({ max_per_week: 2, starts_at: 'tomorrow' });
    // jsonb keeps keys in its own order, so compare as a set.
    expect([...warnings].sort()).toEqual([
      'max_per_week is not a constraint the engine knows (starts_at, ends_at, max_daily_per_player, cooldown_seconds)',
      'starts_at must be an ISO-8601 UTC date-time ending in Z',
    ]);
  });

  it('refuses a duplicate code in one sub-brand with conflict; another sub-brand may use it', async () => {
    const a = await createTenant(h.db.prisma);
    const b = await createTenant(h.db.prisma);
    await create({ subBrandId: a.subBrandId, code: 'spin', points: 1 });
    const dup = await create({ subBrandId: a.subBrandId, code: 'spin', points: 2 });
    expect(dup.body.errors[0].extensions.code).toBe('conflict');
    expect(
      (await create({ subBrandId: b.subBrandId, code: 'spin', points: 2 })).body.errors,
    ).toBeUndefined();
  });

  it.each([
    [{ points: 0 }, 'points: must not be 0'],
    [{ points: 1_000_001 }, 'points: must be at most 1000000'],
    [{ code: 'has space' }, 'code: must be 1-64'],
    [{ code: 'x'.repeat(65) }, 'code: must be 1-64'],
    [{ playerIdField: '1abc' }, 'playerIdField: must be a field name'],
    [{ constraints: [1, 2] }, 'constraints'],
  ])('refuses %j', async (fields, message) => {
    const tenant = await createTenant(h.db.prisma);
    const res = await create({ subBrandId: tenant.subBrandId, code: 'bad', points: 10, ...fields });
    expect(res.body.errors[0].extensions.code).toBe('invalid_request');
    expect(res.body.errors[0].message).toContain(message);
  });

  it('answers not_found for an unknown sub-brand or definition, and forbidden for partner keys', async () => {
    const missing = await create({
      subBrandId: '01a00000-0000-7000-8000-000000000000',
      code: 'x',
      points: 1,
    });
    expect(missing.body.errors[0].extensions.code).toBe('not_found');
    expect(
      (await update('01a00000-0000-7000-8000-000000000000', { points: 1 })).body.errors[0]
        .extensions.code,
    ).toBe('not_found');
    const tenant = await createTenant(h.db.prisma);
    const partnerKey = (await tenant.key()).key;
    const res = await gql(
      partnerKey,
      `mutation($input: CreateEventDefinitionInput!) { createEventDefinition(input: $input) { id } }`,
      {
        input: { subBrandId: tenant.subBrandId, code: 'mine', points: 1 },
      },
    );
    expect(res.body.errors[0].extensions.code).toBe('forbidden');
  });
});

describe('npm run admin -- definition …', () => {
  const cli = async (...argv: string[]) => {
    const result = await runAdmin([...argv, '--json'], h.db.prisma);
    return { ...result, json: JSON.parse(result.out) };
  };

  it('create → update → deactivate, with the documented JSON shapes', async () => {
    const tenant = await createTenant(h.db.prisma);
    const created = await cli(
      'definition',
      'create',
      '--sub-brand',
      tenant.subBrandId,
      '--code',
      'login.daily',
      '--points',
      '25',
      '--constraints',
      '{"max_daily_per_player":1}',
      '--player-id-field',
      'player.id',
      '--idempotency-key-field',
      'uuid',
      '--allow-points-override',
      '--inactive',
    );
    expect(created.json).toEqual({ id: expect.any(String), code: 'login.daily' });
    const row = await h.db.prisma.eventDefinition.findUniqueOrThrow({
      where: { id: created.json.id },
    });
    expect(row).toMatchObject({
      points: 25,
      constraints: { max_daily_per_player: 1 },
      playerIdField: 'player.id',
      idempotencyKeyField: 'uuid',
      allowPointsOverride: true,
      active: false,
    });
    const updated = await cli(
      'definition',
      'update',
      created.json.id,
      '--points=-5',
      '--active',
      '--no-points-override',
    );
    expect(updated.json).toEqual({
      id: created.json.id,
      code: 'login.daily',
      version: 2,
      active: true,
    });
    expect(
      (await h.db.prisma.eventDefinition.findUniqueOrThrow({ where: { id: created.json.id } }))
        .allowPointsOverride,
    ).toBe(false);
    const off = await cli('definition', 'deactivate', created.json.id);
    expect(off.json).toEqual({ id: created.json.id, code: 'login.daily', active: false });
  });

  it.each([
    [['definition', 'create', '--code', 'x', '--points', '1'], 2, 'usage'],
    [
      [
        'definition',
        'create',
        '--sub-brand',
        '01a00000-0000-7000-8000-000000000000',
        '--code',
        'x',
        '--points',
        'ten',
      ],
      2,
      'usage',
    ],
    [
      [
        'definition',
        'create',
        '--sub-brand',
        '01a00000-0000-7000-8000-000000000000',
        '--code',
        'x',
        '--points',
        '1',
        '--constraints',
        '[1]',
      ],
      2,
      'usage',
    ],
    [
      [
        'definition',
        'create',
        '--sub-brand',
        '01a00000-0000-7000-8000-000000000000',
        '--code',
        'x',
        '--points',
        '1',
      ],
      1,
      'not_found',
    ],
    [['definition', 'update', 'nope', '--points', '1'], 1, 'not_found'],
  ])('%j fails with exit %i and one JSON error', async (argv, code, errorCode) => {
    const result = await cli(...(argv as string[]));
    expect(result.code).toBe(code);
    expect(result.json.error.code).toBe(errorCode);
  });

  it('names flags in validation messages', async () => {
    const tenant = await createTenant(h.db.prisma);
    const result = await cli(
      'definition',
      'create',
      '--sub-brand',
      tenant.subBrandId,
      '--code',
      'x',
      '--points',
      '0',
      '--player-id-field',
      '9',
    );
    expect(result.json.error.message).toMatch(/--points: must not be 0/);
    expect(result.json.error.message).toMatch(/--player-id-field: must be a field name/);
  });
});
