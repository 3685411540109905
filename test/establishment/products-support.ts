// Establishment product helpers: an establishment with a key, and products made through the API.
import { expect } from 'vitest';
import { adminKey } from '../support/factories.js';
import type { Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

export async function establishment(h: Harness) {
  const p = await partner(h);
  return {
    ...p,
    async product(fields: Record<string, unknown> = {}) {
      const res = await p.post(
        '/products',
        {
          establishmentId: p.subBrandId,
          stock: 5,
          valueInEuros: 10,
          translations: { en: { name: 'Signed jersey', description: 'A prize' } },
          ...fields,
        },
        null,
      );
      expect(res.status, res.text).toBe(200);
      return res.body.productId as string;
    },
  };
}

/** A platform admin's calls (its own establishment is the platform's). */
export async function admin(h: Harness) {
  const created = await adminKey(h.db.prisma);
  await h.db.prisma.apiKey.update({
    where: { id: created.id },
    data: { readLimit: 1_000_000, writeLimit: 1_000_000 },
  });
  const key = created.key;
  return {
    key,
    /** The platform establishment's id. */
    subBrandId: created.subBrandId,
    get: (path: string) => h.call('GET', path, { key }),
    post: (path: string, body: unknown) => h.call('POST', path, { key, body }),
    put: (path: string, body: unknown) => h.call('PUT', path, { key, body }),
    delete: (path: string) => h.call('DELETE', path, { key }),
  };
}
