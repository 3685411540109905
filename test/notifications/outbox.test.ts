// Logistics e-mails against a real SMTP server: written with the order change, delivered once,
// retried after a refusal, never twice across dispatchers, failed visibly after the bound.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDispatcher } from '../../src/notifications/dispatcher.js';
import { adminKey } from '../support/factories.js';
import { silentLogger, startHarness, type Harness } from '../support/harness.js';
import { establishmentShop } from '../establishment/orders-support.js';
import { smtpServer } from './smtp.js';

let h: Harness;
let smtp: Awaited<ReturnType<typeof smtpServer>>;
beforeAll(async () => {
  h = await startHarness();
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
