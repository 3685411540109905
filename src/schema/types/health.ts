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
    status: t.string({ description: 'Always ok.', resolve: () => 'ok' }),
    environment: t.field({
      type: EnvironmentEnum,
      description: 'The environment the key belongs to.',
      resolve: (h) => h.environment,
    }),
    subBrandId: t.exposeID('subBrandId', { description: 'The sub-brand the key is scoped to.' }),
    brandId: t.exposeID('brandId', {
      description: 'Its brand: with subBrandId, the path of the brand sub-brand read.',
    }),
    apiVersion: t.string({ description: 'Always v1.', resolve: () => 'v1' }),
    serverTime: t.field({
      type: 'DateTime',
      description: 'Current server time, UTC.',
      resolve: (h) => h.serverTime,
    }),
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
