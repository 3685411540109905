// A coin adjustment's Idempotency-Key record keeps the movement's id, not the answer's body: on
// PostgreSQL it is written in the same round trip as the movement and the COMMIT, before the
// server has seen the ledger's result (docs/idempotency.md). What a client sees must not change:
// replays byte for byte from any process, refusals kept, duplicates run once, expired keys free.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../src/domain/tenancy/authenticate-api-key.js';
import { OperationStore } from '../../src/rest/execute-operation.js';
import { recentAnswers } from '../../src/exactly-once/keyed-requests.js';
import { adjustCoins } from '../../src/rest/routes/partner/wallet.js';
import { getSchema } from '../../src/schema/index.js';
import { startHarness, type Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const movements = (customerId: string) => h.db.prisma.coinMovement.count({ where: { customerId } });
const recordOf = (key: string) =>
  h.db.prisma.idempotencyRecord.findFirstOrThrow({
    where: { key },
    select: { statusCode: true, responseBody: true, resultRef: true },
  });
const balanceOf = async (p: Awaited<ReturnType<typeof partner>>, id: string) =>
  (await p.get(`/api/v1/customers/${id}/coins`)).body.data.balance as number;

describe('a coin adjustment recorded by reference to its movement', () => {
  it('keeps the movement id, and replays it from the database byte for byte', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const key = randomUUID();
    const path = `/api/v1/customers/${c.id}/coins`;
    const first = await p.post(path, { delta: 25, reason: 'welcome' }, key);
    expect(first.status).toBe(201);
    expect(await recordOf(key)).toEqual({
      statusCode: 201,
      responseBody: null,
      resultRef: first.body.data.id,
    });
    recentAnswers.clear(); // another process: only the database knows the answer
    const again = await p.post(path, { delta: 25, reason: 'welcome' }, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await movements(c.id)).toBe(1);
    expect(await balanceOf(p, c.id)).toBe(25);
  });

  it('keeps an overdraft refusal under its key: no key left in progress, nothing moved', async () => {
    const p = await partner(h);
    const c = await p.customer();
    await p.credit(c.id, 10);
    const key = randomUUID();
    const path = `/api/v1/customers/${c.id}/coins`;
    const refused = await p.post(path, { delta: -50 }, key);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('insufficient_balance');
    // The record and the COMMIT left with the ledger statement; the refusal replaced the claim.
    expect(await recordOf(key)).toEqual({
      statusCode: 409,
      responseBody: refused.text,
      resultRef: null,
    });
    await p.credit(c.id, 100); // the same debit would pass now: the key must still answer 409
    recentAnswers.clear();
    const again = await p.post(path, { delta: -50 }, key);
    expect(again.status).toBe(409);
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(refused.text);
    expect(await balanceOf(p, c.id)).toBe(110);
    expect(await movements(c.id)).toBe(2);
  });

  it('runs concurrent duplicates once; the others replay its answer', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const key = randomUUID();
    const path = `/api/v1/customers/${c.id}/coins`;
    const replies = await Promise.all(
      Array.from({ length: 12 }, () => p.post(path, { delta: 3 }, key)),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(new Set(replies.map((r) => r.text)).size).toBe(1);
    expect(replies.filter((r) => r.headers.get('idempotent-replay') === 'true')).toHaveLength(11);
    expect(await movements(c.id)).toBe(1);
    expect(await balanceOf(p, c.id)).toBe(3);
  });

  it('runs again under an expired key, and keeps the new movement', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const key = randomUUID();
    const path = `/api/v1/customers/${c.id}/coins`;
    const first = await p.post(path, { delta: 4 }, key);
    await h.db.prisma.idempotencyRecord.updateMany({
      where: { key },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    recentAnswers.clear(); // 24 hours on
    const second = await p.post(path, { delta: 4 }, key);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replay')).toBeNull();
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(await balanceOf(p, c.id)).toBe(8);
    // The key now answers the second execution (kept by reference or, where the first claim
    // found the old row and the request ran the ordinary way, as a body).
    recentAnswers.clear();
    const third = await p.post(path, { delta: 4 }, key);
    expect(third.headers.get('idempotent-replay')).toBe('true');
    expect(third.text).toBe(second.text);
    expect(await balanceOf(p, c.id)).toBe(8);
  });

  it('refuses the same key with another body, whatever the record holds', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const key = randomUUID();
    const path = `/api/v1/customers/${c.id}/coins`;
    await p.post(path, { delta: 5 }, key);
    recentAnswers.clear();
    const other = await p.post(path, { delta: 6 }, key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_conflict');
    expect(await balanceOf(p, c.id)).toBe(5);
  });
});

describe("the establishment's PUT /coins, kept the same way", () => {
  it('replays the movement byte for byte, and keeps an overdraft refusal', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const key = randomUUID();
    const body = { playerId: c.id, amount: 30, reason: 'bonus' };
    const first = await p.put('/coins', body, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(await recordOf(key)).toEqual({
      statusCode: 200,
      responseBody: null,
      resultRef: first.body.movementId,
    });
    recentAnswers.clear();
    const again = await p.put('/coins', body, { 'idempotency-key': key });
    expect(again.headers.get('idempotent-replay')).toBe('true');
    expect(again.text).toBe(first.text);

    const debitKey = randomUUID();
    const debit = { playerId: c.id, amount: -31 };
    const refused = await p.put('/coins', debit, { 'idempotency-key': debitKey });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INSUFFICIENT_BALANCE');
    await p.credit(c.id, 1);
    recentAnswers.clear();
    const refusedAgain = await p.put('/coins', debit, { 'idempotency-key': debitKey });
    expect(refusedAgain.text).toBe(refused.text);
    expect(await balanceOf(p, c.id)).toBe(31);
  });
});

describe('the query that renders a kept movement', () => {
  const operations = new OperationStore(getSchema());
  const render = async (apiKey: string, ref: string) => {
    const found = await authenticateApiKey(h.db.prisma, apiKey);
    if (!('principal' in found)) throw new Error('key refused');
    return operations.run(
      adjustCoins.answerByReference!.operation,
      { ref },
      {
        db: h.db.prisma,
        principal: found.principal,
        requestId: 'req_test',
        baseUrl: 'http://localhost',
        now: () => new Date(),
        engine: { claimTimeoutMs: 1000 },
      },
    );
  };

  it("finds a tenant's own movement, and no other tenant's", async () => {
    const a = await partner(h);
    const b = await partner(h);
    const c = await a.customer();
    const moved = await a.credit(c.id, 9);
    const data = await render(a.key, moved.id);
    expect(data.adjustCustomerCoins).toMatchObject({ id: moved.id, delta: 9, balanceAfter: 9 });
    await expect(render(b.key, moved.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(render(a.key, 'not-a-uuid')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('needs a key that reads customers or moves coins', async () => {
    const p = await partner(h);
    const c = await p.customer();
    const moved = await p.credit(c.id, 2);
    const coinsOnly = await p.otherKey({ scopes: ['customers:coins'] });
    expect((await render(coinsOnly, moved.id)).adjustCustomerCoins).toMatchObject({
      id: moved.id,
    });
    const ordersOnly = await p.otherKey({ scopes: ['orders:read'] });
    await expect(render(ordersOnly, moved.id)).rejects.toMatchObject({ code: 'forbidden' });
  });
});
