import type { Actor, Tenant } from '../domain/tenant.js';
import type { GraphQLContext } from './context.js';

/** The caller's tenant: every partner query and mutation is confined to it. */
export const tenantOf = (ctx: GraphQLContext): Tenant => ({
  subBrandId: ctx.principal.subBrandId,
  environment: ctx.principal.environment,
});

export const actorOf = (ctx: GraphQLContext): Actor => ({
  // A staff member's or a player's principal names no api_keys row (a staff member's own id
  // goes on what it writes).
  apiKeyId: ctx.principal.staff || ctx.principal.player ? null : ctx.principal.keyId,
  staffUserId: ctx.principal.staff?.userId ?? null,
  requestId: ctx.requestId,
});
