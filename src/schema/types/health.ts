import { builder } from '../builder.js';
import { EnvironmentEnum } from './environment.js';

type Health = {
  environment: 'live' | 'test';
  subBrandId: string;
  brandId: string;
  serverTime: Date;
};

const HealthRef = builder.objectRef<Health>('Health').implement({
  description: 'Proof that the key authenticates, and what it is bound to.',
  fields: (t) => ({
    status: t.string({ resolve: () => 'ok' }),
    environment: t.field({ type: EnvironmentEnum, resolve: (h) => h.environment }),
    subBrandId: t.exposeID('subBrandId'),
    brandId: t.exposeID('brandId', {
      description: 'The brand of that sub-brand (additive to the spec).',
    }),
    apiVersion: t.string({ resolve: () => 'v1' }),
    serverTime: t.field({ type: 'DateTime', resolve: (h) => h.serverTime }),
  }),
});

builder.queryField('health', (t) =>
  t.field({
    type: HealthRef,
    authScopes: { scope: 'customers:read' },
    resolve: (_root, _args, ctx) => ({
      environment: ctx.principal.environment,
      subBrandId: ctx.principal.subBrandId,
      brandId: ctx.principal.brandId,
      serverTime: ctx.now(),
    }),
  }),
);
