// Test helpers: operations only test keys may use, on their own test data (domain/orders).
import { advanceTestOrder } from '../../domain/orders/advance-test-order.js';
import { builder } from '../builder.js';
import { actorOf, tenantOf } from '../tenant.js';
import { effect } from '../effects.js';

builder.mutationFields((t) => ({
  advanceTestOrder: t.prismaField({
    extensions: effect('changes'),
    type: 'Order',
    authScopes: { scope: 'orders:update' },
    description:
      'Test keys only: moves a test order one fulfilment step (pending → processing → shipped → delivered); ' +
      'shipping sets a test carrier and tracking code on untracked lines.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      await advanceTestOrder(ctx.db, tenantOf(ctx), actorOf(ctx), String(id), ctx.now());
      return ctx.db.order.findUniqueOrThrow({ ...query, where: { id: String(id) } });
    },
  }),
}));
