// Logistics e-mails against a real SMTP server: written with the order change, delivered once,
// retried after a refusal, never twice across dispatchers, failed visibly after the bound, and
// sent again once when staff requeue a failed one.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/notifications/dispatcher.js';
import { newId } from '../../src/domain/ids.js';
import { adminKey, createTenant } from '../support/factories.js';
import { createStaff, signInAs, type StaffClient } from '../support/staff.js';
import { silentLogger, startHarness, type Harness } from '../support/harness.js';
import { establishmentShop } from '../establishment/orders-support.js';
import { smtpServer } from './smtp.js';

let h: Harness;
let smtp: Awaited<ReturnType<typeof smtpServer>>;
beforeAll(async () => {
  // A dispatcher claims every tenant's due messages: other files' orders must not reach it.
  h = await startHarness({ ownDatabase: true });
  smtp = await smtpServer();
});
afterAll(async () => {
  await smtp.close();
  await h.close();
});
beforeEach(async () => {
  // Each test starts from an empty outbox and mailbox.
  await h.db.prisma.notification.updateMany({ data: { status: 'sent' } });
  smtp.received.length = 0;
});

const dispatcher = (o: { now?: () => Date; maxAttempts?: number } = {}) =>
  createDispatcher({
    db: h.db.prisma,
    logger: silentLogger,
    smtpUrl: smtp.url,
    from: 'Rewards <rewards@example.com>',
    baseUrl: 'https://rewards.example.com',
    backoffMs: 1000,
    ...o,
  });

const pending = () => h.db.prisma.notification.findMany({ where: { status: 'pending' } });

describe('the outbox', () => {
  it('a reservation writes its e-mail in its transaction, and it is delivered once', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(s.listing.coin_price, { email: 'ana@example.com' });
    const r = await s.reserved(player);
    const [row] = await h.db.prisma.notification.findMany({
      where: { orderId: r.transactionId },
    });
    expect(row).toMatchObject({
      template: 'reserved',
      recipient: 'ana@example.com',
      status: 'pending',
    });

    const d = dispatcher();
    expect(await d.runOnce()).toBe(1);
    expect(await d.runOnce()).toBe(0);
    await d.stop();
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toBe('ana@example.com');
    expect(mail.messageId).toBe(`<${row!.id}@rewards.example.com>`);
    expect(mail.raw).toContain('https://rewards.example.com/track/ot_');
    expect(await h.db.prisma.notification.findFirst({ where: { id: row!.id } })).toMatchObject({
      status: 'sent',
      attempts: 1,
      sentAt: expect.any(Date),
    });
  });

  it('a refused message is retried after its backoff and then delivered, once', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(s.listing.coin_price);
    await s.reserved(player);
    let clock = new Date();
    const d = dispatcher({ now: () => clock });
    smtp.refuse(451);
    expect(await d.runOnce()).toBe(1);
    const [waiting] = await pending();
    expect(waiting).toMatchObject({ attempts: 1, lastError: expect.stringContaining('451') });
    expect(waiting!.nextAttemptAt.getTime()).toBeGreaterThan(clock.getTime());
    expect(await d.runOnce()).toBe(0); // not before its backoff
    clock = new Date(clock.getTime() + 5000);
    expect(await d.runOnce()).toBe(1);
    await d.stop();
    expect(smtp.received).toHaveLength(1);
    expect(await pending()).toHaveLength(0);
  });

  it('two dispatchers at once send each message exactly once', async () => {
    const s = await establishmentShop(h);
    const players = await Promise.all(
      Array.from({ length: 12 }, () => s.player(s.listing.coin_price)),
    );
    for (const p of players) await s.reserved(p);
    const a = dispatcher();
    const b = dispatcher();
    await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(smtp.received).toHaveLength(12);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(12);
    expect(await pending()).toHaveLength(0);
  });

  it('gives up after the bound (or at once on a permanent refusal), visibly', async () => {
    const s = await establishmentShop(h);
    const a = await s.player(s.listing.coin_price);
    const r = await s.reserved(a);
    let clock = new Date();
    const d = dispatcher({ now: () => clock, maxAttempts: 2 });
    smtp.refuse(421, 421);
    await d.runOnce();
    clock = new Date(clock.getTime() + 60_000);
    await d.runOnce();
    const b = await s.player(s.listing.coin_price);
    await s.reserved(b);
    smtp.refuse(550);
    await d.runOnce();
    await d.stop();
    const failed = await h.db.prisma.notification.findMany({ where: { status: 'failed' } });
    expect(failed.map((f) => f.attempts).sort()).toEqual([1, 2]);
    expect(smtp.received).toHaveLength(0);

    const admin = await adminKey(h.db.prisma);
    const q = await h.call('POST', '/graphql', {
      key: admin.key,
      body: {
        query: `query($s: ID) { notifications(status: failed, subBrandId: $s) { orderId template status attempts lastError } }`,
        variables: { s: s.subBrandId },
      },
    });
    expect(q.body.data.notifications).toContainEqual({
      orderId: r.transactionId,
      template: 'reserved',
      status: 'failed',
      attempts: 2,
      lastError: expect.stringContaining('421'),
    });
    const partner = await h.call('POST', '/graphql', {
      key: s.key,
      body: { query: '{ notifications { id } }' },
    });
    expect(partner.body.errors[0].extensions.code).toBe('forbidden');
  });
});

describe('templates', () => {
  it('are in the establishment’s language with the product’s name in it, every value escaped', async () => {
    const s = await establishmentShop(h, { name: 'Mug <b>' });
    await h.db.prisma.subBrand.update({
      where: { id: s.subBrandId },
      data: { locale: 'es-ES', name: 'Casino "<script>alert(1)</script>"' },
    });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const row = await h.db.prisma.notification.findFirstOrThrow({
      where: { orderId: r.transactionId },
    });
    expect(row.subject).toBe(`Tu premio ES Mug <b> está reservado (${r.reference})`);
    expect(row.html).toContain('ES Mug &lt;b&gt;');
    expect(row.html).toContain('Casino &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;');
    expect(row.html).not.toContain('<script>');
    expect(row.html).not.toContain('<b>');
  });
});

// Sending a failed e-mail again from the backoffice (GraphQL requeueNotification): only a failed
// one, only the caller's tenant's, once however many operators press the button, and the
// dispatcher then delivers it once, with the Message-ID of its first attempts. In this file, as
// the other dispatcher tests, since a dispatcher claims every tenant's due messages.
let a: Awaited<ReturnType<typeof createTenant>>;
let b: Awaited<ReturnType<typeof createTenant>>;
let operatorA: StaffClient;
let operatorB: StaffClient;
let supportA: StaffClient;
beforeAll(async () => {
  a = await createTenant(h.db.prisma);
  b = await createTenant(h.db.prisma);
  const sign = async (role: 'establishment_operator' | 'support', subBrandId: string) =>
    signInAs(h.url, (await createStaff(h.db.prisma, role, { subBrandId })).email);
  operatorA = await sign('establishment_operator', a.subBrandId);
  operatorB = await sign('establishment_operator', b.subBrandId);
  supportA = await sign('support', a.subBrandId);
});

const REQUEUE = `mutation($id: ID!) { requeueNotification(id: $id) {
  id status attempts lastError nextAttemptAt } }`;
const code = (res: { body: { errors?: { extensions?: { code?: string } }[] } }) =>
  res.body.errors?.[0]?.extensions?.code;

/** An outbox row of tenant `subBrandId` in the given state (as the dispatcher leaves it). */
async function message(subBrandId: string, status: 'failed' | 'pending' | 'sent') {
  const id = newId();
  await h.db.prisma.notification.create({
    data: {
      id,
      subBrandId,
      environment: 'test',
      orderId: newId(),
      eventId: newId(),
      template: 'reserved',
      recipient: 'ana@example.com',
      subject: 'Your prize',
      html: '<p>Your prize</p>',
      text: 'Your prize',
      status,
      attempts: status === 'pending' ? 0 : 8,
      lastError: status === 'failed' ? '550 mailbox unavailable' : null,
      nextAttemptAt: new Date(Date.now() + 3_600_000),
    },
  });
  return id;
}

describe('requeueNotification', () => {
  it('puts a failed e-mail back: pending, due now, attempts reset, the reason kept', async () => {
    const id = await message(a.subBrandId, 'failed');
    const before = Date.now();
    const res = await operatorA.gql(REQUEUE, { id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.requeueNotification).toMatchObject({
      id,
      status: 'pending',
      attempts: 0,
      lastError: '550 mailbox unavailable',
    });
    const due = new Date(res.body.data.requeueNotification.nextAttemptAt).getTime();
    expect(due).toBeGreaterThanOrEqual(before - 1000);
    expect(due).toBeLessThanOrEqual(Date.now() + 1000);
    // The staff audit trail names it.
    const audit = await h.db.prisma.staffAuditEntry.findFirst({
      where: { action: 'requeueNotification', targetId: id },
    });
    expect(audit).not.toBeNull();
  });

  it('refuses another tenant’s message as not found, and a message that is not failed', async () => {
    const theirs = await message(b.subBrandId, 'failed');
    expect(code(await operatorA.gql(REQUEUE, { id: theirs }))).toBe('not_found');
    expect(code(await operatorA.gql(REQUEUE, { id: newId() }))).toBe('not_found');
    expect(code(await operatorA.gql(REQUEUE, { id: 'not-an-id' }))).toBe('not_found');
    expect((await h.db.prisma.notification.findFirst({ where: { id: theirs } }))!.status).toBe(
      'failed',
    );
    for (const status of ['pending', 'sent'] as const) {
      const id = await message(a.subBrandId, status);
      const res = await operatorA.gql(REQUEUE, { id });
      expect(code(res)).toBe('invalid_transition');
      expect(res.body.errors[0].message).toContain(`this one is ${status}`);
      expect((await h.db.prisma.notification.findFirst({ where: { id } }))!.status).toBe(status);
    }
    // Its own tenant's operator may.
    expect(
      (await operatorB.gql(REQUEUE, { id: theirs })).body.data.requeueNotification.status,
    ).toBe('pending');
  });

  it('is for staff who may change orders and for platform admins, not read-only support or keys', async () => {
    const id = await message(a.subBrandId, 'failed');
    expect(code(await supportA.gql(REQUEUE, { id }))).toBe('forbidden');
    const establishmentKey = (await a.key()).key;
    const byKey = await h.call('POST', '/graphql', {
      key: establishmentKey,
      body: { query: REQUEUE, variables: { id } },
    });
    expect(code(byKey)).toBe('forbidden');
    expect((await h.db.prisma.notification.findFirst({ where: { id } }))!.status).toBe('failed');
    const admin = await adminKey(h.db.prisma);
    const byAdmin = await h.call('POST', '/graphql', {
      key: admin.key,
      body: { query: REQUEUE, variables: { id } },
    });
    expect(byAdmin.body.data.requeueNotification.status).toBe('pending');
  });

  it('twice, or by two operators at once: one requeue, the other refused', async () => {
    const id = await message(a.subBrandId, 'failed');
    const first = await operatorA.gql(REQUEUE, { id });
    expect(first.body.errors, first.text).toBeUndefined();
    expect(first.body.data.requeueNotification.status).toBe('pending');
    expect(code(await operatorA.gql(REQUEUE, { id }))).toBe('invalid_transition');

    const other = await signInAs(
      h.url,
      (await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: a.subBrandId }))
        .email,
    );
    const raced = await message(a.subBrandId, 'failed');
    const results = await Promise.all([
      operatorA.gql(REQUEUE, { id: raced }),
      other.gql(REQUEUE, { id: raced }),
      operatorA.gql(REQUEUE, { id: raced }),
    ]);
    expect(results.filter((r) => r.body.data?.requeueNotification).length).toBe(1);
    expect(results.map(code).filter(Boolean)).toEqual(['invalid_transition', 'invalid_transition']);
    const audits = await h.db.prisma.staffAuditEntry.count({
      where: { action: 'requeueNotification', targetId: raced },
    });
    expect(audits).toBe(1);
  });
});

describe('a requeued e-mail over SMTP', () => {
  it('is delivered once, with the Message-ID of its first attempts', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(s.listing.coin_price, { email: 'late@example.com' });
    const r = await s.reserved(player);
    const d = dispatcher();
    smtp.refuse(550); // refused for good: failed at once
    await d.runOnce();
    const [row] = await h.db.prisma.notification.findMany({ where: { orderId: r.transactionId } });
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(smtp.received).toHaveLength(0);
    expect(await d.runOnce()).toBe(0); // a failed message is not retried by itself

    const operator = await signInAs(
      h.url,
      (await createStaff(h.db.prisma, 'establishment_operator', { subBrandId: s.subBrandId }))
        .email,
    );
    const res = await operator.gql(REQUEUE, { id: row!.id });
    expect(res.body.data.requeueNotification.status).toBe('pending');
    // Two dispatchers find it due: it goes out once.
    const d2 = dispatcher();
    await Promise.all([d.runOnce(), d2.runOnce()]);
    expect(await d.runOnce()).toBe(0);
    await Promise.all([d.stop(), d2.stop()]);
    const mine = smtp.received.filter((m) => m.to === 'late@example.com');
    expect(mine).toHaveLength(1);
    expect(mine[0]!.messageId).toBe(`<${row!.id}@rewards.example.com>`);
    expect(await h.db.prisma.notification.findFirst({ where: { id: row!.id } })).toMatchObject({
      status: 'sent',
      attempts: 1,
      lastError: null,
    });
  });
});
