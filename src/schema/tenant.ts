import type { Actor, Tenant } from '../domain/tenant.js';
import type { GraphQLContext } from './context.js';

/** The caller's tenant: every partner query and mutation is confined to it. */
export const tenantOf = (ctx: GraphQLContext): Tenant => ({
  subBrandId: ctx.principal.subBrandId,
  environment: ctx.principal.environment,
});

export const actorOf = (ctx: GraphQLContext): Actor => ({
  // A staff member's principal names no api_keys row; its own id goes on what it writes.
  apiKeyId: ctx.principal.staff ? null : ctx.principal.keyId,
  staffUserId: ctx.principal.staff?.userId ?? null,
  requestId: ctx.requestId,
});
