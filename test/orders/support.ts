// Order-test helpers: a partner with a listed prize, customers with coins, and the backoffice.
import { listedProduct } from '../support/catalog.js';
import { adminKey } from '../support/factories.js';
import type { Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';
import { formHeaders } from '../support/graphql.js';

export async function shop(
  h: Harness,
  options: Parameters<typeof listedProduct>[2] & { prepaid?: boolean } = {},
) {
  const p = await partner(h);
  if (options.prepaid) {
    await h.db.prisma.subBrand.update({ where: { id: p.subBrandId }, data: { prepaid: true } });
  }
  const prize = await listedProduct(h.db.prisma, p.subBrandId, options);
  const product = await p.get(`/api/v1/products/${prize.productId}`);
  if (product.status !== 200) throw new Error(`product: ${product.status} ${product.text}`);
  const listing = product.body.data.variants[0].listings[0] as {
    listing_market_id: string;
    coin_price: number;
    sell_price: number;
  };
  return {
    ...p,
    prize,
    listing,
    /** A customer holding `coins`. */
    async buyer(coins: number, fields: Record<string, unknown> = {}) {
      const c = await p.customer(fields);
      if (coins > 0) await p.credit(c.id, coins);
      return c.id as string;
    },
    order: (body: Record<string, unknown>, key?: string | null) =>
      p.post('/api/v1/orders', body, key),
    balance: async (customerId: string) =>
      (await p.get(`/api/v1/customers/${customerId}/coins`)).body.data.balance as number,
    stock: async (environment: 'live' | 'test' = 'test') =>
      (
        await h.db.prisma.variantStock.findUniqueOrThrow({
          where: { variantId_environment: { variantId: prize.variantId, environment } },
        })
      ).available,
  };
}

export async function backoffice(h: Harness) {
  const created = await adminKey(h.db.prisma);
  // Fulfilment tests make many writes quickly; rate limiting has tests of its own.
  await h.db.prisma.apiKey.update({
    where: { id: created.id },
    data: { readLimit: 1_000_000, writeLimit: 1_000_000 },
  });
  const key = created.key;
  const gql = (query: string, variables: Record<string, unknown> = {}) =>
    h.call('POST', '/graphql', { key, body: { query, variables }, headers: formHeaders(query) });
  return {
    gql,
    move: (id: string, to: string) =>
      gql(
        'mutation($id: ID!, $to: OrderStatus!) { moveOrder(id: $id, to: $to) { status billingStatus } }',
        {
          id,
          to,
        },
      ),
    track: (itemId: string, carrier: string, trackingCode: string) =>
      gql(
        'mutation($i: ID!, $c: String!, $t: String!) { setOrderItemTracking(itemId: $i, carrier: $c, trackingCode: $t) { id } }',
        { i: itemId, c: carrier, t: trackingCode },
      ),
    topUp: (brandId: string, amount: number, environment = 'test', currency = 'EUR') =>
      gql(
        'mutation($b: ID!, $e: Environment!, $c: String!, $a: SafeInt!) { topUpPrepaidBalance(brandId: $b, environment: $e, currency: $c, amount: $a) }',
        { b: brandId, e: environment, c: currency, a: amount },
      ),
  };
}
