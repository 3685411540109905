// Establishment order helpers: a shop (a partner with a listed prize) seen through the
// establishment API, players with coins, and the stock's three columns.
import type { Harness } from '../support/harness.js';
import { shop } from '../orders/support.js';

export async function establishmentShop(h: Harness, options: Parameters<typeof shop>[1] = {}) {
  const s = await shop(h, options);
  const api = {
    ...s,
    /** A player (customer) holding `coins`. */
    player: (coins: number, fields: Record<string, unknown> = {}) =>
      s.buyer(coins, { email: 'player@example.com', ...fields }),
    reserve: (playerId: string, body: Record<string, unknown> = {}, key: string | null = null) =>
      s.post(
        `/orders/${playerId}/reservation`,
        { productId: s.prize.productId, establishmentId: s.subBrandId, ...body },
        key,
      ),
    async reserved(playerId: string, body: Record<string, unknown> = {}) {
      const res = await api.reserve(playerId, body);
      if (res.status !== 200) throw new Error(`reserve: ${res.status} ${res.text}`);
      return res.body as Record<string, any>;
    },
    at: (verb: string, playerId: string, id: string) => `/orders/${playerId}/${verb}/${id}`,
    send: (playerId: string, id: string, body: Record<string, unknown> = {}) =>
      s.post(`/orders/${playerId}/send/${id}`, body, null),
    acquire: (playerId: string, id: string) =>
      s.post(`/orders/${playerId}/acquisition/${id}`, {}, null),
    cancel: (playerId: string, id: string) => s.delete(`/orders/${playerId}/reservation/${id}`),
    reverse: (playerId: string, id: string, refund?: boolean) =>
      h.call('DELETE', `/orders/${playerId}/acquisition/${id}`, {
        key: s.key,
        body: refund === undefined ? {} : { refund },
      }),
    partnerOrder: async (id: string) => (await s.get(`/api/v1/orders/${id}`)).body.data,
    /** The prize's stock row (test environment): available, reserved, consumed. */
    units: async (variantId = s.prize.variantId) => {
      const row = await h.db.prisma.variantStock.findUniqueOrThrow({
        where: { variantId_environment: { variantId, environment: 'test' } },
      });
      return { available: row.available, reserved: row.reserved, consumed: row.consumed };
    },
  };
  return api;
}

export const ADDRESS = {
  firstName: 'Ana',
  lastName: 'García',
  addressLine1: 'Calle Mayor 1',
  city: 'Madrid',
  province: 'Madrid',
  country: 'ES',
  postalCode: '28013',
};
