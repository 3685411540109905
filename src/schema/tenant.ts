import type { Actor, Tenant } from '../domain/tenant.js';
import type { GraphQLContext } from './context.js';

/** The caller's tenant: every partner query and mutation is confined to it. */
export const tenantOf = (ctx: GraphQLContext): Tenant => ({
  subBrandId: ctx.principal.subBrandId,
  environment: ctx.principal.environment,
});

export const actorOf = (ctx: GraphQLContext): Actor => ({
  apiKeyId: ctx.principal.keyId,
  requestId: ctx.requestId,
});
