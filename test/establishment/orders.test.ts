// Establishment orders are the partner order book seen as operations: each transition and each
// refusal, and the partner view of each (and the reverse).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../support/harness.js';
import { ADDRESS, establishmentShop } from './orders-support.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('reservation', () => {
  it('spends the coins and reserves a unit; the partner sees the same order', async () => {
    const s = await establishmentShop(h, { stock: 5 });
    await h.db.prisma.subBrand.update({
      where: { id: s.subBrandId },
      data: {
        imageUrl: 'https://cdn.example.com/a.png',
        thumbnailUrl: 'https://cdn.example.com/t.png',
      },
    });
    const player = await s.player(s.listing.coin_price + 10);
    const res = await s.reserve(player, { email: 'other@example.com' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      operationId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      orderType: 'Reservation',
      orderStatus: 'Pending',
      orderDisplayStatus: 'pending',
      value: s.listing.coin_price,
      reference: expect.stringMatching(/^R-[0-9A-Z]{8}$/),
      playerId: player,
      productId: s.prize.productId,
      establishmentId: s.subBrandId,
      playerEmail: 'other@example.com',
      firstName: 'Ana',
      lastName: 'García',
      address: null,
      city: null,
      trackToken: expect.stringMatching(/^ot_/),
      trackUrl: expect.stringMatching(/\/track\/ot_/),
    });
    expect(res.body.operationId).not.toBe(res.body.transactionId);
    // The answer is built from what the reservation wrote; a read of the order says the same.
    const detail = await s.get(`/players/${player}/orders/${res.body.transactionId}`);
    const { operationId, orderType, orderStatus, date, ...record } = res.body;
    expect(detail.body).toMatchObject({
      ...record,
      establishmentImage: 'https://cdn.example.com/a.png',
      establishmentThumbnailUrl: 'https://cdn.example.com/t.png',
      operations: [{ operationId, orderType, orderStatus, date }],
    });
    const order = await s.partnerOrder(res.body.transactionId);
    expect(order).toMatchObject({
      status: 'pending',
      customer_id: player,
      total_coins: s.listing.coin_price,
    });
    expect(await s.balance(player)).toBe(10);
    expect(await s.units()).toEqual({ available: 4, reserved: 1, consumed: 0 });
  });

  it('a second open reservation of the product by the player is 400; after a cancel it is allowed', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(5 * s.listing.coin_price);
    const first = await s.reserved(player);
    const again = await s.reserve(player);
    expect(again.status, again.text).toBe(400);
    expect(again.body.code).toBe('DUPLICATE_RESERVATION');
    expect(await s.balance(player)).toBe(4 * s.listing.coin_price);
    expect((await s.cancel(player, first.transactionId)).status).toBe(200);
    expect((await s.reserve(player)).status).toBe(200);
  });

  it('the variant route answers 409 PRODUCT_UNAVAILABLE for a duplicate and for no stock', async () => {
    const s = await establishmentShop(h, { stock: 1 });
    const a = await s.player(5 * s.listing.coin_price);
    const b = await s.player(5 * s.listing.coin_price);
    const body = (playerId: string) => ({
      playerId,
      productId: s.prize.productId,
      establishmentId: s.subBrandId,
    });
    const ok = await s.post('/orders/request', body(a), null);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({
      message: expect.any(String),
      transactionId: expect.any(String),
      digital: true,
      trackUrl: expect.stringMatching(/\/track\//),
      orderDetails: { product: { productId: s.prize.productId }, player: { playerId: a } },
    });
    const dup = await s.post('/orders/request', body(a), null);
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ error: 'Conflict', code: 'PRODUCT_UNAVAILABLE' });
    const none = await s.post('/orders/request', body(b), null);
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('PRODUCT_UNAVAILABLE');
    // The main route's answer for the same refusal.
    expect((await s.reserve(b)).body).toMatchObject({ code: 'OUT_OF_STOCK' });
  });

  it('denomination picks the variant; several variants need it', async () => {
    const s = await establishmentShop(h, {
      variants: [{ denomination: '25 EUR' }, { denomination: '50 EUR' }],
    });
    const player = await s.player(100 * s.listing.coin_price);
    const missing = await s.reserve(player);
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([
      { field: 'denomination', code: 'required', message: expect.any(String) },
    ]);
    expect((await s.reserve(player, { denomination: 30 })).status).toBe(400);
    const fifty = await s.reserved(player, { denomination: 50 });
    const order = await s.partnerOrder(fifty.transactionId);
    expect(order.items[0].variant_id).toBe(s.prize.variantIds[1]);
  });

  it('refuses bad input and what is not the caller’s', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(s.listing.coin_price);
    expect((await s.reserve(player, { productId: 'nope' })).body.code).toBe('VALIDATION_ERROR');
    const other = await s.reserve(player, {
      establishmentId: '0190a0a0-0000-7000-8000-000000000000',
    });
    expect(other.status).toBe(404);
    expect(other.body.code).toBe('ESTABLISHMENT_NOT_FOUND');
    const product = await s.reserve(player, { productId: '0190a0a0-0000-7000-8000-000000000000' });
    expect(product.status).toBe(404);
    expect(product.body.code).toBe('PRODUCT_NOT_FOUND');
    const ghost = await s.reserve('0190a0a0-0000-7000-8000-000000000000');
    expect(ghost.body.code).toBe('PLAYER_NOT_FOUND');
    const poor = await s.player(s.listing.coin_price - 1);
    expect((await s.reserve(poor)).body).toMatchObject({ code: 'INSUFFICIENT_BALANCE' });
    expect(await s.units()).toEqual({ available: 100, reserved: 0, consumed: 0 });
  });
});

describe('delivery details and sending', () => {
  it('PUT details fills the structured columns; the partner sees the derived address', async () => {
    const s = await establishmentShop(h, { kind: 'physical' });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const res = await s.put(s.at('details', player, r.transactionId), {
      address: 'Calle Mayor 1',
      city: 'Madrid',
      postalCode: '28013',
      country: 'ES',
      email: 'ship@example.com',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    expect((await s.partnerOrder(r.transactionId)).shipping_address).toBe(
      'Calle Mayor 1\n28013 Madrid\nES',
    );
    const bad = await s.put(s.at('details', player, r.transactionId), { email: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ email: [expect.any(String)] });
    const unknown = await s.put(
      s.at('details', player, '0190a0a0-0000-7000-8000-000000000000'),
      {},
    );
    expect(unknown.status).toBe(404);
  });

  it('send needs a full address for a physical prize, then consumes the unit once however often it is called', async () => {
    const s = await establishmentShop(h, { kind: 'physical', stock: 3 });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const incomplete = await s.send(player, r.transactionId, { firstName: 'Ana' });
    expect(incomplete.status).toBe(422);
    expect(Object.keys(incomplete.body).sort()).toEqual([
      'addressLine1',
      'city',
      'country',
      'postalCode',
    ]);
    expect(await s.units()).toEqual({ available: 2, reserved: 1, consumed: 0 });

    const sent = await s.send(player, r.transactionId, ADDRESS);
    expect(sent.status, sent.text).toBe(200);
    expect(sent.body).toMatchObject({
      transactionId: r.transactionId,
      operationId: r.operationId,
      orderType: 'Reservation',
      orderStatus: 'Pending',
      playerName: 'Ana García',
      address: { ...ADDRESS, addressLine2: null, email: null },
      // The document's name, and the earlier one (deprecated) with the same value.
      deliveryDetailsCapturedAt: expect.stringMatching(/Z$/),
    });
    expect(sent.body.deliveryCapturedAt).toBe(sent.body.deliveryDetailsCapturedAt);
    const detail = await s.get(`/players/${player}/orders/${r.transactionId}`);
    expect(detail.body.deliveryDetailsCapturedAt).toBe(sent.body.deliveryDetailsCapturedAt);
    expect(detail.body.deliveryCapturedAt).toBe(sent.body.deliveryDetailsCapturedAt);
    expect(await s.units()).toEqual({ available: 2, reserved: 0, consumed: 1 });
    for (let i = 0; i < 3; i++) {
      const again = await s.send(player, r.transactionId, { addressLine2: `Piso ${i}` });
      expect(again.status).toBe(200);
    }
    expect(await s.units()).toEqual({ available: 2, reserved: 0, consumed: 1 });
    const order = await s.partnerOrder(r.transactionId);
    expect(order).toMatchObject({
      status: 'pending',
      recipient_name: 'Ana García',
      shipping_address: 'Calle Mayor 1\nPiso 2\n28013 Madrid\nMadrid\nES',
    });
  });

  it('send answers its fixed { message } texts', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const unknown = await s.send(player, '0190a0a0-0000-7000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: 'Transaction not found.' });
    const otherPlayer = await s.player(0);
    expect((await s.send(otherPlayer, r.transactionId)).body).toEqual({
      message: 'Transaction not found.',
    });
    await s.cancel(player, r.transactionId);
    const late = await s.send(player, r.transactionId);
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ message: 'The reservation is not in a valid state to be sent.' });
  });
});

describe('tracking, acquisition, cancellation and reversal', () => {
  it('track sets the tracking number on the partner order; it needs orders:fulfil', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const res = await s.post(
      s.at('track', player, r.transactionId),
      { trackingNumber: 'TRK-1' },
      null,
    );
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ trackingNumber: 'TRK-1', orderStatus: 'Pending' });
    expect((await s.partnerOrder(r.transactionId)).items[0].tracking_code).toBe('TRK-1');
    const narrow = await s.otherKey({ scopes: ['orders:read', 'orders:create', 'orders:update'] });
    const refused = await h.call('POST', s.at('track', player, r.transactionId), {
      key: narrow,
      body: { trackingNumber: 'X' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('FORBIDDEN');
  });

  it('acquisition walks the order to delivered, one event per step; a second is 400', async () => {
    const s = await establishmentShop(h, { stock: 2 });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const res = await s.acquire(player, r.transactionId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      orderType: 'Acquisition',
      orderStatus: 'Completed',
      orderDisplayStatus: 'delivered',
      transactionId: r.transactionId,
    });
    const order = await s.partnerOrder(r.transactionId);
    expect(order.history.map((e: { to_status: string }) => e.to_status)).toEqual([
      'pending',
      'processing',
      'shipped',
      'delivered',
    ]);
    expect(await s.units()).toEqual({ available: 1, reserved: 0, consumed: 1 });
    const again = await s.acquire(player, r.transactionId);
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('INVALID_TRANSITION');
    // Acquired: no longer open, so a new reservation is refused only for want of coins.
    expect((await s.reserve(player)).body.code).toBe('INSUFFICIENT_BALANCE');
  });

  it('a physical prize is not acquired before its delivery details', async () => {
    const s = await establishmentShop(h, { kind: 'physical' });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const res = await s.acquire(player, r.transactionId);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_TRANSITION');
    expect((await s.partnerOrder(r.transactionId)).status).toBe('pending');
    await s.send(player, r.transactionId, ADDRESS);
    expect((await s.acquire(player, r.transactionId)).status).toBe(200);
    expect(await s.units()).toEqual({ available: 99, reserved: 0, consumed: 1 });
  });

  it('cancelling refunds once and frees the unit; a repeat answers the same cancellation', async () => {
    const s = await establishmentShop(h, { stock: 4 });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    const first = await s.cancel(player, r.transactionId);
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      orderType: 'Cancellation',
      orderStatus: 'Cancelled',
      orderDisplayStatus: 'cancelled',
    });
    const again = await s.cancel(player, r.transactionId);
    expect(again.body.operationId).toBe(first.body.operationId);
    const partnerView = await s.partnerOrder(r.transactionId);
    expect(partnerView.status).toBe('cancelled');
    expect(partnerView.history.at(-1)).toMatchObject({
      from_status: 'pending',
      to_status: 'cancelled',
    });
    expect(await s.balance(player)).toBe(s.listing.coin_price);
    expect(await s.units()).toEqual({ available: 4, reserved: 0, consumed: 0 });
    const acquired = await s.reserved(player);
    await s.acquire(player, acquired.transactionId);
    const late = await s.cancel(player, acquired.transactionId);
    expect(late.status).toBe(400);
    expect(late.body.code).toBe('ORDER_NOT_CANCELLABLE');
  });

  it('a sent reservation, cancelled, gives its consumed unit back', async () => {
    const s = await establishmentShop(h, { stock: 2 });
    const player = await s.player(s.listing.coin_price);
    const r = await s.reserved(player);
    await s.send(player, r.transactionId, ADDRESS);
    expect(await s.units()).toEqual({ available: 1, reserved: 0, consumed: 1 });
    await s.cancel(player, r.transactionId);
    expect(await s.units()).toEqual({ available: 2, reserved: 0, consumed: 0 });
  });

  it('reversing an acquisition cancels it, refunds only when asked, and only once', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(2 * s.listing.coin_price);
    const a = await s.reserved(player);
    const notYet = await s.reverse(player, a.transactionId, true);
    expect(notYet.status).toBe(400);
    expect(notYet.body.code).toBe('INVALID_TRANSITION');
    await s.acquire(player, a.transactionId);
    const reversed = await s.reverse(player, a.transactionId, true);
    expect(reversed.status, reversed.text).toBe(200);
    expect(reversed.body).toMatchObject({ orderType: 'Cancellation', orderStatus: 'Cancelled' });
    expect((await s.reverse(player, a.transactionId, true)).status).toBe(200);
    expect((await s.partnerOrder(a.transactionId)).status).toBe('cancelled');
    expect(await s.balance(player)).toBe(2 * s.listing.coin_price);
    expect(await s.units()).toEqual({ available: 99, reserved: 0, consumed: 1 });

    const b = await s.reserved(player);
    await s.acquire(player, b.transactionId);
    await s.reverse(player, b.transactionId);
    expect(await s.balance(player)).toBe(s.listing.coin_price);
    const detail = await s.get(`/players/${player}/orders/${b.transactionId}`);
    expect(detail.status, detail.text).toBe(200);
    expect(detail.body.operations.map((o: any) => `${o.orderType}:${o.orderStatus}`)).toEqual([
      'Reservation:Completed',
      'Acquisition:Cancelled',
      'Cancellation:Cancelled',
    ]);
  });
});

describe('records', () => {
  it('one record per operation; a partner cancel shows as Cancelled here', async () => {
    const s = await establishmentShop(h);
    const player = await s.player(10 * s.listing.coin_price);
    const open = await s.reserved(player);
    const partner = await s.order({
      customer_id: player,
      listing_market_id: s.listing.listing_market_id,
    });
    expect(partner.status, partner.text).toBe(201);
    expect((await s.delete(`/api/v1/orders/${partner.body.data.id}`)).status).toBe(200);
    const list = await s.get(`/players/${player}/orders`);
    expect(list.status, list.text).toBe(200);
    const byOrder = (id: string) =>
      list.body.items
        .filter((i: any) => i.transactionId === id)
        .map((i: any) => `${i.orderType}:${i.orderStatus}:${i.orderDisplayStatus}`);
    expect(byOrder(partner.body.data.id).sort()).toEqual([
      'Cancellation:Cancelled:cancelled',
      'Reservation:Cancelled:cancelled',
    ]);
    expect(byOrder(open.transactionId)).toEqual(['Reservation:Pending:pending']);
    expect(list.body.pagination).toMatchObject({ total: 3, page: 1, hasMore: false });

    const all = await s.post('/orders/list', { filters: { status: ['Cancelled'] } }, null);
    expect(all.status, all.text).toBe(200);
    expect(all.body.envelope).toEqual({ type: 'list', dataPath: 'items' });
    expect(all.body.meta.pagination.total).toBe(2);
    const found = await s.post('/orders/list', { search: open.transactionId }, null);
    expect(found.body.items.map((i: any) => i.operationId)).toEqual([open.operationId]);
    const byName = await s.post('/orders/list', { search: 'gift' }, null);
    expect(byName.body.meta.pagination.total).toBe(3);
    const byRef = await s.post('/orders/list', { search: open.reference.toLowerCase() }, null);
    expect(byRef.body.items).toHaveLength(1);
    const page = await s.post('/orders/list', { pagination: { page: 2, limit: 2 } }, null);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.meta.pagination).toEqual({ total: 3, page: 2, limit: 2, hasMore: false });
  });
});
