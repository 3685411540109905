// The marketplace page's first data, run on the server while it serves the page (docs/
// marketplace.md, "Speed"): the app's first documents (Start and the shop's first page), executed
// as the player they are for, through the same schema and resolvers as a request to /graphql,
// and handed to the app in the page's JSON block. Saves the app two round trips before its first
// paint, the difference between ~2.8 s and under 1 s on a phone-speed CPU.
import type { PrismaClient } from '../generated/prisma/client.js';
import type { Principal } from '../domain/tenancy/authenticate-api-key.js';
import { OperationStore } from '../rest/execute-operation.js';
import { getSchema } from '../schema/index.js';
import type { GraphQLContext } from '../schema/context.js';
import { TRUSTED_DOCUMENT_IDS, TRUSTED_DOCUMENTS } from './trusted-documents.generated.js';

let store: OperationStore | undefined;

export type Preload = {
  name: keyof typeof TRUSTED_DOCUMENT_IDS;
  variables: Record<string, unknown>;
};

/**
 * Each document with its data; one that fails is left out (the app runs it itself, and shows
 * what went wrong). One context for all: they share one read of the shelf.
 */
export async function preloadDocuments(
  deps: { prisma: PrismaClient; now: () => Date; engine: GraphQLContext['engine'] },
  call: { principal: Principal; requestId: string; baseUrl: string },
  documents: Preload[],
): Promise<(Preload & { data: unknown })[]> {
  store ??= new OperationStore(getSchema());
  const context: GraphQLContext = { db: deps.prisma, now: deps.now, engine: deps.engine, ...call };
  const text = (d: Preload) => TRUSTED_DOCUMENTS[TRUSTED_DOCUMENT_IDS[d.name]]!;
  const ran = await Promise.all(
    documents.map((d) =>
      store!.run(text(d), d.variables, context).then(
        (data) => ({ ...d, data }),
        () => null,
      ),
    ),
  );
  return ran.filter((r) => r !== null);
}
