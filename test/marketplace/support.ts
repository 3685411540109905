// A player in the marketplace, as the app is one: a store session opened by the partner API, then
// the trusted documents by id with the session as the bearer.
import { randomUUID } from 'node:crypto';
import { createCatalog, createStore } from '../../src/domain/catalog/author-catalog.js';
import {
  TRUSTED_DOCUMENT_IDS as ids,
  TRUSTED_DOCUMENTS,
} from '../../src/graphql/trusted-documents.generated.js';
import { listedProduct } from '../support/catalog.js';
import type { Harness } from '../support/harness.js';
import { partner } from '../support/partner.js';

export type DocumentName = keyof typeof ids;

/** A partner with a store of `prizes` (each a listed product), and players to open it for. */
export async function marketplaceShop(
  h: Harness,
  prizes: Parameters<typeof listedProduct>[2][] = [{ kind: 'digital' }],
) {
  const p = await partner(h);
  const listed = [];
  for (const prize of prizes) listed.push(await listedProduct(h.db.prisma, p.subBrandId, prize));
  const catalog = await createCatalog(h.db.prisma, {
    name: `Shop ${randomUUID().slice(0, 8)}`,
    productIds: listed.map((l) => l.productId),
  });
  const store = await createStore(h.db.prisma, {
    subBrandId: p.subBrandId,
    name: 'Rewards',
    slug: `rewards-${randomUUID().slice(0, 8)}`,
    catalogIds: [catalog.id],
  });
  return {
    ...p,
    prizes: listed,
    store,
    /** A player holding `coins`, with an open store session. */
    async player(coins: number, fields: Record<string, unknown> = {}) {
      const customer = await p.customer(fields);
      if (coins) await p.credit(customer.id, coins);
      const session = await p.post('/api/v1/store-sessions', {
        customer_id: customer.id,
        store_id: store.id,
      });
      if (session.status !== 201) throw new Error(`session: ${session.text}`);
      const token = session.body.data.token as string;
      return {
        id: customer.id as string,
        token,
        url: session.body.data.url as string,
        /** A trusted document by name, as the app sends it. */
        run: (name: DocumentName, variables: Record<string, unknown> = {}, key?: string | null) =>
          h.call('POST', '/graphql', {
            body: { documentId: ids[name], variables },
            headers: {
              authorization: `Bearer ${token}`,
              ...(key === null ? {} : { 'idempotency-key': key ?? randomUUID() }),
            },
          }),
      };
    },
  };
}

export const documentText = (name: DocumentName) => TRUSTED_DOCUMENTS[ids[name]]!;

/** The JSON block a marketplace page hands its app (src/pages/marketplace.ts). */
export function bootOf(html: string): Record<string, any> {
  const match = /<script type="application\/json" id="boot">(.*?)<\/script>/s.exec(html);
  if (!match) throw new Error(`no boot block in:\n${html.slice(0, 500)}`);
  return JSON.parse(match[1]!);
}
