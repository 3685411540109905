// The delivery pipeline over HTTP: every outcome, pre-flight errors, rules with a controllable
// clock, exactly-once under concurrency over both channels, crash and reclaim, frozen snapshots.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefinition, updateDefinition } from '../../src/engine/points/author-definition.js';
import { recentAnswers } from '../../src/exactly-once/keyed-requests.js';
import { adminKey } from '../support/factories.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { formHeaders } from '../support/graphql.js';
import { installLedgerCrash } from '../support/ledger-crash.js';

const clock = { now: new Date('2026-06-01T12:00:00.000Z') };
let h: Harness;
let admin: string;

beforeAll(async () => {
  h = await startHarness({
    now: () => clock.now,
    engine: { claimTimeoutMs: 300 },
  });
  admin = (await adminKey(h.db.prisma)).key;
});
afterAll(() => h.close());

async function setup(definition: Record<string, unknown> = {}, balance = 0) {
  const p = await partner(h);
  const c = await p.customer({ external_id: `player-${randomUUID().slice(0, 8)}` });
  if (balance) await p.credit(c.id, balance);
  const def = await createDefinition(h.db.prisma, {
    subBrandId: p.subBrandId,
    code: 'spin',
    points: 10,
    ...definition,
  });
  const event = (body: Record<string, unknown> = {}, key: string | null = randomUUID()) =>
    p.post(
      '/api/v1/engine/events',
      { event_code: def.code, data: { externalUserId: c.external_id }, ...body },
      key,
    );
  return { p, c, def, event };
}

const movements = (customerId: string) =>
  h.db.prisma.coinMovement.findMany({
    where: { customerId, source: 'engine' },
    orderBy: { id: 'asc' },
  });

describe('outcomes', () => {
  it('completed: the grant is applied once, with reason engine:<execution id>, and audited', async () => {
    const { c, event } = await setup({}, 5);
    const res = await event({ correlation_id: 'corr-1' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      event_id: expect.any(String),
      status: 'completed',
      replayed: false,
      correlation_id: 'corr-1',
      customer_id: c.id,
      points_requested: 10,
      points_applied: 10,
      balance_before: 5,
      balance_after: 15,
      error_code: null,
      error_message: null,
    });
    const [movement] = await movements(c.id);
    expect(movement).toMatchObject({
      reason: `engine:${res.body.data.event_id}`,
      delta: 10n,
      balanceAfter: 15n,
    });
    const audit = await h.db.prisma.engineAudit.findMany({
      where: { executionId: res.body.data.event_id },
    });
    expect(audit).toMatchObject([
      { outcome: 'completed', correlationId: 'corr-1', requestId: res.headers.get('x-request-id') },
    ]);
  });

  it('generates a correlation id when none is sent', async () => {
    const { event } = await setup();
    expect((await event()).body.data.correlation_id).toMatch(/^cor_[0-9a-f]{24}$/);
  });

  it.each([
    ['outside_active_window (not started)', { constraints: { starts_at: '2026-07-01T00:00:00Z' } }],
    ['outside_active_window (ended)', { constraints: { ends_at: '2026-06-01T12:00:00Z' } }],
    ['invalid_constraints', { constraints: { max_per_week: 1 } }],
  ])('skipped: %s, no coins move', async (name, definition) => {
    const { c, event } = await setup(definition);
    const res = await event();
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      status: 'skipped',
      error_code: name.split(' ')[0],
      points_applied: 0,
      customer_id: c.id,
    });
    expect(await movements(c.id)).toHaveLength(0);
  });

  it('skipped: max_daily_reached, counted per UTC day across midnight', async () => {
    const { c, event } = await setup({ constraints: { max_daily_per_player: 1 } });
    clock.now = new Date('2026-06-02T23:59:59.000Z');
    expect((await event()).body.data.status).toBe('completed');
    clock.now = new Date('2026-06-02T23:59:59.900Z');
    expect((await event()).body.data).toMatchObject({
      status: 'skipped',
      error_code: 'max_daily_reached',
    });
    clock.now = new Date('2026-06-03T00:00:00.000Z');
    expect((await event()).body.data.status).toBe('completed');
    expect(await movements(c.id)).toHaveLength(2);
    clock.now = new Date('2026-06-01T12:00:00.000Z');
  });

  it('skipped: cooldown_active until the cooldown has passed', async () => {
    const { event } = await setup({ constraints: { cooldown_seconds: 60 } });
    clock.now = new Date('2026-06-04T10:00:00.000Z');
    expect((await event()).body.data.status).toBe('completed');
    clock.now = new Date('2026-06-04T10:00:59.000Z');
    expect((await event()).body.data).toMatchObject({
      status: 'skipped',
      error_code: 'cooldown_active',
    });
    clock.now = new Date('2026-06-04T10:01:00.000Z');
    expect((await event()).body.data.status).toBe('completed');
    clock.now = new Date('2026-06-01T12:00:00.000Z');
  });

  it('failed: player_id_missing and player_not_found are recorded executions', async () => {
    const { p, def } = await setup();
    const missing = await p.post('/api/v1/engine/events', {
      event_code: def.code,
      data: { other: 1 },
    });
    expect(missing.body.data).toMatchObject({
      status: 'failed',
      error_code: 'player_id_missing',
      customer_id: null,
    });
    const unknown = await p.post('/api/v1/engine/events', {
      event_code: def.code,
      data: { externalUserId: 'nobody' },
    });
    expect(unknown.body.data).toMatchObject({ status: 'failed', error_code: 'player_not_found' });
    expect(
      await h.db.prisma.engineExecution.count({
        where: {
          id: { in: [missing.body.data.event_id, unknown.body.data.event_id] },
          status: 'failed',
        },
      }),
    ).toBe(2);
  });

  it('failed: insufficient_balance for a removal the balance cannot cover; the wallet is untouched', async () => {
    const { c, event, p } = await setup({ points: -50 }, 20);
    const res = await event();
    expect(res.body.data).toMatchObject({
      status: 'failed',
      error_code: 'insufficient_balance',
      balance_before: 20,
      balance_after: 20,
      points_applied: 0,
    });
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(20);
  });

  it('points_override where the definition opts in', async () => {
    const { event } = await setup({ allowPointsOverride: true });
    expect((await event({ points_override: 250 })).body.data).toMatchObject({
      status: 'completed',
      points_requested: 250,
      points_applied: 250,
    });
  });
});

describe('pre-flight refusals: error envelope, no execution, an audit row', () => {
  it.each([
    ['unknown code', { event_code: 'nope' }, 404, 'not_found'],
    ['override not allowed', { points_override: 5 }, 400, 'override_not_allowed'],
    ['data not an object', { data: [1] }, 400, 'invalid_request'],
    ['missing data', { data: undefined }, 400, 'invalid_request'],
  ])('%s', async (_name, body, status, code) => {
    const { p, event } = await setup();
    const res = await event(body);
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
    // This tenant's executions only: the run's database is shared with the files beside.
    expect(await h.db.prisma.engineExecution.count({ where: { subBrandId: p.subBrandId } })).toBe(
      0,
    );
  });

  it('invalid_points for an override beyond ±1,000,000 or not whole', async () => {
    const { event } = await setup({ allowPointsOverride: true });
    for (const points_override of [1_000_001, -1_000_001, 2.5]) {
      const res = await event({ points_override });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_points');
    }
  });

  it('an inactive definition is 404', async () => {
    const { event, def } = await setup();
    await updateDefinition(h.db.prisma, def.id, { active: false });
    expect((await event()).status).toBe(404);
  });

  it('missing Idempotency-Key is 400, a body over 16 KB is payload_too_large', async () => {
    const { event } = await setup();
    expect((await event({}, null)).body.error.code).toBe('missing_idempotency_key');
    const big = await event({ data: { externalUserId: 'x', blob: 'x'.repeat(17_000) } });
    expect(big.status).toBe(400);
    expect(big.body.error.code).toBe('payload_too_large');
  });

  it('audits rejections', async () => {
    const { p } = await setup();
    const res = await p.post(
      '/api/v1/engine/events',
      { event_code: 'unknown-code', data: {} },
      'audit-me',
    );
    expect(res.status).toBe(404);
    const rows = await h.db.prisma.engineAudit.findMany({
      where: { subBrandId: p.subBrandId, idempotencyKey: 'audit-me' },
    });
    expect(rows).toMatchObject([{ outcome: 'rejected', errorCode: 'not_found' }]);
  });
});

describe('exactly once', () => {
  it('an HTTP replay returns the original body verbatim with idempotent-replay; another body is 409', async () => {
    const { event } = await setup();
    const key = randomUUID();
    const first = await event({}, key);
    const again = await event({}, key);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.body.data.replayed).toBe(false);
    const audit = await h.db.prisma.engineAudit.findMany({
      where: { idempotencyKey: key },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => [a.outcome, a.executionId, a.requestId])).toEqual([
      ['completed', first.body.data.event_id, first.headers.get('x-request-id')],
      ['replayed', first.body.data.event_id, again.headers.get('x-request-id')],
    ]);
    const other = await event({ data: { externalUserId: 'someone-else' } }, key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
  });

  it('a replay this process has not kept (another process, a restart) answers the stored body, audited once', async () => {
    const { c, event } = await setup();
    const key = randomUUID();
    const first = await event({}, key);
    recentAnswers.clear(); // as a second server process would meet the repeat
    const again = await event({}, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    recentAnswers.clear();
    const other = await event({ data: { externalUserId: 'someone-else' } }, key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    const audit = await h.db.prisma.engineAudit.findMany({
      where: { idempotencyKey: key },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => [a.outcome, a.requestId])).toEqual([
      ['completed', first.headers.get('x-request-id')],
      ['replayed', again.headers.get('x-request-id')],
    ]);
    expect(await movements(c.id)).toHaveLength(1);
  });

  it('20 concurrent deliveries of one key over both channels: one movement, the others replayed', async () => {
    const { p, c, def } = await setup();
    const key = randomUUID();
    const data = { externalUserId: c.external_id, event_id: key };
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? p.post('/api/v1/engine/events', { event_code: def.code, data }, key)
          : h.call('POST', `/api/v1/engine/webhooks/${def.code}`, { key: p.key, body: data }),
      ),
    );
    for (const r of replies) expect(r.status).toBe(200);
    expect(new Set(replies.map((r) => r.body.data.event_id)).size).toBe(1);
    // REST answers are the key's one answer, byte for byte (replays flagged by the header);
    // webhook repeats say replayed: true. So at most one answer of each channel is unflagged.
    const rest = replies.filter((_, i) => i % 2 === 0);
    const webhooks = replies.filter((_, i) => i % 2 === 1);
    expect(new Set(rest.map((r) => r.text)).size).toBe(1);
    expect(rest.filter((r) => r.headers.get('idempotent-replay') === null)).toHaveLength(1);
    expect(webhooks.filter((r) => r.body.data.replayed === false).length).toBeLessThanOrEqual(1);
    expect(await movements(c.id)).toHaveLength(1);
    expect((await p.get(`/api/v1/customers/${c.id}/coins`)).body.data.balance).toBe(10);
  });

  it('20 concurrent REST deliveries of one key answer one body byte for byte (issue 13, item 10)', async () => {
    const { c, event } = await setup();
    const key = randomUUID();
    const replies = await Promise.all(Array.from({ length: 20 }, () => event({}, key)));
    for (const r of replies) expect(r.status).toBe(200);
    expect(new Set(replies.map((r) => r.text)).size).toBe(1);
    expect(replies[0]!.body.data).toMatchObject({ status: 'completed', replayed: false });
    expect(replies.filter((r) => r.headers.get('idempotent-replay') === null)).toHaveLength(1);
    expect(await movements(c.id)).toHaveLength(1);
    // One audit row per delivery: a repeat the engine saw is not audited again as a stored replay.
    const audit = await h.db.prisma.engineAudit.findMany({ where: { idempotencyKey: key } });
    expect(audit.filter((a) => a.outcome === 'completed')).toHaveLength(1);
    expect(audit.filter((a) => a.outcome === 'replayed')).toHaveLength(19);
  });

  it('a crash between claim and completion answers 500; a retry after the time-out completes once', async () => {
    const { c, event } = await setup();
    const key = randomUUID();
    const ledger = await installLedgerCrash(h.db.prisma);
    try {
      // The ledger's insert raises after the claim committed and inside the execution's
      // transaction: the claim stays `processing` and the rest of the transaction rolls back.
      await ledger.crash(c.id);
      const crashed = await event({}, key);
      expect(crashed.status).toBe(500);
      expect(crashed.body.error.code).toBe('internal_error');
      expect(await movements(c.id)).toHaveLength(0);
      await ledger.heal(c.id);
      const retried = await event({}, key); // waits out the 300 ms claim, then reclaims it
      expect(retried.status).toBe(200);
      expect(retried.body.data).toMatchObject({ status: 'completed', replayed: false });
      expect(await movements(c.id)).toHaveLength(1);
    } finally {
      await ledger.remove();
    }
    const audit = await h.db.prisma.engineAudit.findMany({
      where: { idempotencyKey: key },
      orderBy: { id: 'asc' },
    });
    expect(audit.map((a) => [a.outcome, a.errorCode])).toEqual([
      ['failed', 'internal_error'],
      ['completed', null],
    ]);
  });

  it('editing a definition leaves past executions and their replays unchanged', async () => {
    const { event, def } = await setup();
    const key = randomUUID();
    const first = await event({}, key);
    await updateDefinition(h.db.prisma, def.id, { points: 99 });
    const execution = await h.db.prisma.engineExecution.findUniqueOrThrow({
      where: { id: first.body.data.event_id },
    });
    expect(execution.definitionSnapshot).toMatchObject({ points: 10, version: 1 });
    expect((await event({}, key)).body.data.points_applied).toBe(10);
    expect((await event()).body.data.points_applied).toBe(99);
  });
});

describe('webhooks', () => {
  const webhook = (
    p: Awaited<ReturnType<typeof partner>>,
    code: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) => h.call('POST', `/api/v1/engine/webhooks/${code}`, { key: p.key, body, headers });

  it('takes the key from event_id, then id; a repeat replays with replayed: true', async () => {
    const { p, c, def } = await setup();
    const first = await webhook(p, def.code, { externalUserId: c.external_id, id: 'wh-1' });
    expect(first.body.data).toMatchObject({ status: 'completed', replayed: false });
    const again = await webhook(p, def.code, { externalUserId: c.external_id, id: 'wh-1' });
    expect(again.body.data).toMatchObject({ event_id: first.body.data.event_id, replayed: true });
    const byEventId = await webhook(p, def.code, {
      externalUserId: c.external_id,
      event_id: 'e-1',
      id: 'wh-1',
    });
    expect(byEventId.body.data.event_id).not.toBe(first.body.data.event_id);
  });

  it("uses the definition's idempotencyKeyField, hashes long ids, and falls back to the header", async () => {
    const { p, c } = await setup();
    await createDefinition(h.db.prisma, {
      subBrandId: p.subBrandId,
      code: 'bet',
      points: 1,
      idempotencyKeyField: 'txn',
    });
    const long = 'x'.repeat(100);
    const a = await webhook(p, 'bet', { externalUserId: c.external_id, txn: long });
    const b = await webhook(p, 'bet', { externalUserId: c.external_id, txn: long });
    expect(b.body.data.replayed).toBe(true);
    const execution = await h.db.prisma.engineExecution.findUniqueOrThrow({
      where: { id: a.body.data.event_id },
    });
    expect(execution.idempotencyKey).toMatch(/^[0-9a-f]{64}$/);
    const viaHeader = await webhook(
      p,
      'bet',
      { externalUserId: c.external_id },
      { 'idempotency-key': 'hdr-1' },
    );
    expect(viaHeader.body.data.status).toBe('completed');
  });

  it('without any usable id: 400 missing_idempotency_key and nothing executed', async () => {
    const { p, c, def } = await setup();
    const res = await webhook(p, def.code, { externalUserId: c.external_id });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('missing_idempotency_key');
    expect(await movements(c.id)).toHaveLength(0);
  });
});

describe('backoffice', () => {
  const gql = (query: string, variables: Record<string, unknown>) =>
    h.call('POST', '/graphql', {
      key: admin,
      body: { query, variables },
      headers: formHeaders(query),
    });

  it('reads executions and audit with filters, and simulates without writing', async () => {
    const { p, c, def, event } = await setup({ constraints: { max_daily_per_player: 1 } });
    clock.now = new Date('2026-06-05T08:00:00.000Z');
    await event();
    await event();
    const executions = await gql(
      `query($s: ID!, $f: EngineFilter!) { engineExecutions(subBrandId: $s, filter: $f) { edges { node { status errorCode customerId definitionSnapshot } } } }`,
      { s: p.subBrandId, f: { environment: 'test', definitionId: def.id, status: 'skipped' } },
    );
    expect(executions.body.data.engineExecutions.edges).toMatchObject([
      { node: { status: 'skipped', errorCode: 'max_daily_reached', customerId: c.id } },
    ]);
    const audit = await gql(
      `query($s: ID!, $f: EngineFilter!) { engineAudit(subBrandId: $s, filter: $f) { edges { node { outcome } } } }`,
      { s: p.subBrandId, f: { environment: 'test' } },
    );
    expect(audit.body.data.engineAudit.edges.map((e: any) => e.node.outcome)).toEqual([
      'skipped',
      'completed',
    ]);
    const ownExecutions = () =>
      h.db.prisma.engineExecution.count({ where: { subBrandId: p.subBrandId } });
    const before = await ownExecutions();
    const simulated = await gql(
      `query($s: ID!, $data: JSON!, $at: DateTime) { simulateEngineEvent(subBrandId: $s, environment: test, eventCode: "spin", data: $data, at: $at) { status errorCode explanation balanceAfter } }`,
      { s: p.subBrandId, data: { externalUserId: c.external_id }, at: '2026-06-05T09:00:00.000Z' },
    );
    expect(simulated.body.data.simulateEngineEvent).toMatchObject({
      status: 'skipped',
      errorCode: 'max_daily_reached',
      explanation: expect.stringContaining('1 of 1'),
    });
    const tomorrow = await gql(
      `query($s: ID!, $data: JSON!, $at: DateTime) { simulateEngineEvent(subBrandId: $s, environment: test, eventCode: "spin", data: $data, at: $at) { status balanceAfter } }`,
      { s: p.subBrandId, data: { externalUserId: c.external_id }, at: '2026-06-06T09:00:00.000Z' },
    );
    expect(tomorrow.body.data.simulateEngineEvent).toEqual({
      status: 'completed',
      balanceAfter: 20,
    });
    expect(await ownExecutions()).toBe(before);
    clock.now = new Date('2026-06-01T12:00:00.000Z');
  });

  it('the audit log does not change: updates are refused by a database rule', async () => {
    const { event } = await setup();
    const res = await event();
    const where = { executionId: res.body.data.event_id };
    const { count } = await h.db.prisma.engineAudit.updateMany({
      where,
      data: { outcome: 'tampered' },
    });
    expect(count).toBe(0);
    expect((await h.db.prisma.engineAudit.findFirstOrThrow({ where })).outcome).toBe('completed');
  });
});
