// POST /api/v1/store-sessions: a signed, short-lived pass for one customer into one store.
import { z } from 'zod';
import {
  createStoreSession,
  revokeStoreSession,
} from '../../domain/store-sessions/store-session.js';
import { builder } from '../builder.js';
import { tenantOf } from '../tenant.js';
import { effect } from '../effects.js';

type Session = Awaited<ReturnType<typeof createStoreSession>> & { url: string };

const StoreSessionRef = builder.objectRef<Session>('StoreSession').implement({
  description: 'A signed marketplace session for one player.',
  fields: (t) => ({
    id: t.exposeID('id'),
    token: t.exposeString('token', {
      description: 'Signed; verifiable until expiresAt. Treat it as a secret of the customer.',
    }),
    url: t.exposeString('url', {
      description: 'Open it (or embed it) to browse the store.',
      extensions: { jsonShape: z.url() },
    }),
    storeId: t.exposeID('storeId'),
    customerId: t.exposeID('customerId'),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.mutationField('createStoreSession', (t) =>
  t.field({
    extensions: effect('creates'),
    type: StoreSessionRef,
    authScopes: { scope: 'store_sessions:create' },
    args: {
      customerId: t.arg.id({ required: true }),
      storeId: t.arg.id(),
      ttlSeconds: t.arg.int(),
    },
    resolve: async (_root, args, ctx) => {
      const session = await createStoreSession(
        ctx.db,
        tenantOf(ctx),
        {
          customerId: String(args.customerId),
          storeId: args.storeId ? String(args.storeId) : undefined,
          ttlSeconds: args.ttlSeconds ?? undefined,
        },
        ctx.now(),
      );
      return { ...session, url: `${ctx.baseUrl}${session.path}` };
    },
  }),
);

const RevokedRef = builder
  .objectRef<Awaited<ReturnType<typeof revokeStoreSession>>>('RevokedStoreSession')
  .implement({
    description: 'A revoked marketplace session.',
    fields: (t) => ({
      id: t.exposeID('id'),
      customerId: t.exposeID('customerId'),
      revokedAt: t.expose('revokedAt', { type: 'DateTime' }),
    }),
  });

builder.mutationField('revokeStoreSession', (t) =>
  t.field({
    extensions: effect('removes'),
    type: RevokedRef,
    description: 'Signs a store session out before it expires; its token stops opening the store.',
    authScopes: { scope: 'store_sessions:create' },
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, { token }, ctx) => revokeStoreSession(ctx.db, tenantOf(ctx), token, ctx.now()),
  }),
);
