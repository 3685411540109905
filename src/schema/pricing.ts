// Prices are derived when read (domain/catalog/pricing.ts). A request reads each sub-brand's
// margins and coin ratio once, however many listings it prices.
import { loadPricing, type Pricing } from '../domain/catalog/pricing.js';
import type { GraphQLContext } from './context.js';

const cache = new WeakMap<GraphQLContext, Map<string, Promise<Pricing>>>();

export function pricingFor(ctx: GraphQLContext, subBrandId: string): Promise<Pricing> {
  let perRequest = cache.get(ctx);
  if (!perRequest) cache.set(ctx, (perRequest = new Map()));
  let pricing = perRequest.get(subBrandId);
  if (!pricing) perRequest.set(subBrandId, (pricing = loadPricing(ctx.db, subBrandId)));
  return pricing;
}
