// Issue 29, G7: GraphQL mutations keep exactly-once as the REST routes do. The schema declares
// each mutation's effect; those that move coins or create records need an Idempotency-Key header,
// and a request sent again with its key, in sequence or at once, applies once and answers the
// same bytes.
import { randomUUID } from 'node:crypto';
import {
  getNamedType,
  isInputObjectType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extensionsOf, needsIdempotencyKey } from '../../src/schema/effects.js';
import { getSchema } from '../../src/schema/index.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
let p: Awaited<ReturnType<typeof partner>>;
let staff: StaffClient;
beforeAll(async () => {
  h = await startHarness();
  p = await partner(h);
  const admin = await createStaff(h.db.prisma, 'platform_admin');
  staff = await signInAs(h.url, admin.email);
});
afterAll(() => h.close());

const MUTATIONS = Object.values(getSchema().getMutationType()!.getFields());

/** A staff request exactly as the backoffice sends it, with the key given (or none). */
const send = (query: string, variables: Record<string, unknown>, key: string | null) =>
  h.call('POST', '/graphql', {
    body: { query, variables },
    headers: {
      cookie: staff.cookie,
      'x-csrf-token': staff.csrf,
      'x-environment': 'test',
      'x-sub-brand-id': p.subBrandId,
      ...(key === null ? {} : { 'idempotency-key': key }),
    },
  });

const ADJUST =
  'mutation($id: ID!, $delta: SafeInt!) { adjustCustomerCoins(customerId: $id, delta: $delta, reason: "goodwill") { id delta balanceAfter } }';
const movements = (customerId: string) => h.db.prisma.coinMovement.count({ where: { customerId } });

/** The mutation with every required argument as a variable, none of them sent. */
function documentOf(field: GraphQLField<unknown, unknown>): string {
  const required = field.args.filter((a) => isNonNullType(a.type));
  const declared = required.map((a) => `$${a.name}: ${a.type.toString()}`).join(', ');
  const passed = required.map((a) => `${a.name}: $${a.name}`).join(', ');
  const type = getNamedType(field.type);
  const selection = isObjectType(type) ? ' { __typename }' : '';
  return `mutation${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
}

describe('the schema says what each mutation does', () => {
  it.each(MUTATIONS.map((f) => [f.name, f] as const))('%s declares its effect', (_name, field) => {
    const { effect } = extensionsOf(field);
    expect(['moves_coins', 'creates', 'changes', 'removes', 'mints_secret']).toContain(effect);
    // A mutation that keeps exactly-once in the domain (an `idempotencyKey` argument) moves
    // coins or creates, so it cannot run without a key.
    if (field.args.some((a) => a.name === 'idempotencyKey'))
      expect(needsIdempotencyKey(effect)).toBe(true);
    // Its input types are not where a key hides instead.
    for (const arg of field.args) {
      const input = getNamedType(arg.type);
      if (isInputObjectType(input))
        expect(Object.keys(input.getFields())).not.toContain('idempotencyKey');
    }
  });

  it('money-moving mutations are among those that need a key', () => {
    const named = (n: string) => MUTATIONS.find((f) => f.name === n)!;
    for (const name of [
      'adjustCustomerCoins',
      'bulkAdjustCustomerCoins',
      'reserveOrder',
      'cancelOrder',
      'topUpPrepaidBalance',
      'claimCampaignAward',
      'playCampaignGame',
      'deliverEngineEvent',
    ])
      expect(extensionsOf(named(name)).effect, name).toBe('moves_coins');
  });

  const keyed = MUTATIONS.filter((f) => needsIdempotencyKey(extensionsOf(f).effect));
  it.each(keyed.map((f) => [f.name, f] as const))(
    '%s without an Idempotency-Key is 400 before it runs',
    async (_name, field) => {
      const res = await send(documentOf(field), {}, null);
      expect(res.status, res.text).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe('missing_idempotency_key');
      expect(res.body.errors[0].message).toContain(field.name);
    },
  );
});

describe('a mutation sent again with its Idempotency-Key', () => {
  it('applies once and answers the same bytes, marked as a replay', async () => {
    const c = await p.customer({ external_id: `g7-${randomUUID()}` });
    const key = randomUUID();
    const first = await send(ADJUST, { id: c.id, delta: 250 }, key);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data.adjustCustomerCoins).toMatchObject({ delta: 250, balanceAfter: 250 });
    const again = await send(ADJUST, { id: c.id, delta: 250 }, key);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(await movements(c.id)).toBe(1);
    // The staff member's audit trail holds the one change, not the replay.
    expect(
      await h.db.prisma.staffAuditEntry.count({
        where: { action: 'adjustCustomerCoins', targetId: c.id },
      }),
    ).toBe(1);
    // Another key is another adjustment.
    expect((await send(ADJUST, { id: c.id, delta: 250 }, randomUUID())).body.data).toBeTruthy();
    expect(await movements(c.id)).toBe(2);
  });

  it('ten at once apply once, and all ten answer the same', async () => {
    const c = await p.customer({ external_id: `g7-${randomUUID()}` });
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => send(ADJUST, { id: c.id, delta: 100 }, key)),
    );
    for (const a of answers) expect(a.status, a.text).toBe(200);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replay') === 'true')).toHaveLength(9);
    expect(await movements(c.id)).toBe(1);
  });

  it('a refusal is kept for its key; the key with another request is a conflict', async () => {
    const c = await p.customer({ external_id: `g7-${randomUUID()}` });
    const key = randomUUID();
    const refused = await send(ADJUST, { id: c.id, delta: -5 }, key);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({
      data: null,
      errors: [{ extensions: { code: 'insufficient_balance' } }],
    });
    await p.credit(c.id, 10);
    // The stored refusal, not a debit now that the balance would allow it.
    const replay = await send(ADJUST, { id: c.id, delta: -5 }, key);
    expect(replay.text).toBe(refused.text);
    expect(await movements(c.id)).toBe(1);
    const other = await send(ADJUST, { id: c.id, delta: -6 }, key);
    expect(other.status).toBe(409);
    expect(other.body.errors[0].extensions.code).toBe('idempotency_conflict');
  });

  it('a document whose second field fails applies neither', async () => {
    const c = await p.customer({ external_id: `g7-${randomUUID()}` });
    const res = await send(
      `mutation($id: ID!) {
        a: adjustCustomerCoins(customerId: $id, delta: 50) { id }
        b: adjustCustomerCoins(customerId: $id, delta: -500) { id }
      }`,
      { id: c.id },
      randomUUID(),
    );
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('insufficient_balance');
    expect(await movements(c.id)).toBe(0);
  });

  it('a bulk adjustment takes the header as its key, and runs alone', async () => {
    const q = `g7-bulk-${randomUUID()}`;
    const c = await p.customer({ external_id: q });
    const bulk = `mutation($q: String) { bulkAdjustCustomerCoins(input: { delta: 7, filter: { q: $q } }) { id matched applied } }`;
    const key = randomUUID();
    const first = await send(bulk, { q }, key);
    expect(first.body.data.bulkAdjustCustomerCoins).toMatchObject({ matched: 1, applied: 1 });
    const again = await send(bulk, { q }, key);
    expect(again.text).toBe(first.text);
    expect(await movements(c.id)).toBe(1);
    const mixed = await send(
      `mutation($q: String, $id: ID!) {
        bulkAdjustCustomerCoins(input: { delta: 7, filter: { q: $q } }) { id }
        adjustCustomerCoins(customerId: $id, delta: 1) { id }
      }`,
      { q, id: c.id },
      randomUUID(),
    );
    expect(mixed.status).toBe(400);
    expect(mixed.body.errors[0].message).toMatch(/bulkAdjustCustomerCoins commits in steps/);
    expect(await movements(c.id)).toBe(1);
  });

  it('a key minted in GraphQL is never stored, so it refuses an Idempotency-Key', async () => {
    const mint = `mutation($s: ID!) { createApiKey(input: { subBrandId: $s, environment: test, scopes: [CUSTOMERS_READ] }) { key } }`;
    const keyed = await send(mint, { s: p.subBrandId }, randomUUID());
    expect(keyed.status).toBe(400);
    expect(keyed.body.errors[0].message).toMatch(/secret shown once/);
    const plain = await send(mint, { s: p.subBrandId }, null);
    expect(plain.body.data.createApiKey.key).toMatch(/^svc_test_/);
    const stored = await h.db.prisma.idempotencyRecord.findMany({
      where: { responseBody: { contains: plain.body.data.createApiKey.key } },
    });
    expect(stored).toEqual([]);
  });

  it('a malformed key is refused', async () => {
    const c = await p.customer({ external_id: `g7-${randomUUID()}` });
    const res = await send(ADJUST, { id: c.id, delta: 1 }, 'é'.repeat(3));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('invalid_idempotency_key');
    expect(await movements(c.id)).toBe(0);
  });
});

describe('reserveOrder names what it reserves one way', () => {
  const RESERVE = 'mutation($input: ReserveOrderInput!) { reserveOrder(input: $input) { id } }';
  it('a product and listings at once are refused, naming productId; nothing is ordered', async () => {
    const c = await p.customer({ external_id: `g7-${randomUUID()}` });
    const input = { customerId: c.id, productId: randomUUID(), listingMarketId: randomUUID() };
    const res = await send(RESERVE, { input }, randomUUID());
    expect(res.body.errors[0].extensions.code, res.text).toBe('invalid_request');
    expect(JSON.stringify(res.body.errors[0].extensions)).toContain('productId');
    expect(await h.db.prisma.order.count({ where: { customerId: c.id } })).toBe(0);
  });
  it('a product with another establishment’s id is not found', async () => {
    const c = await p.customer({ external_id: `g7-${randomUUID()}` });
    const input = { customerId: c.id, productId: randomUUID(), establishmentId: randomUUID() };
    const res = await send(RESERVE, { input }, randomUUID());
    expect(res.body.errors[0].extensions.code, res.text).toBe('not_found');
    expect(res.body.errors[0].message).toMatch(/^Sub-brand not found/);
  });
});
