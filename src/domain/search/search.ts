// The backoffice's one search (GraphQL `search`, the ⌘K palette): customers, orders, products
// and campaigns of the caller's tenant, each kind only when the caller may read it.
import type { Db } from '../db.js';
import type { Tenant } from '../tenant.js';
import { searchCampaigns } from './campaigns.js';
import { searchCustomers } from './customers.js';
import { SEARCH_KINDS, SEARCH_SCOPES, type SearchHit, type SearchKind } from './hit.js';
import { searchOrders } from './orders.js';
import { searchProducts } from './products.js';
import { searchTerm } from './search-term.js';

export type SearchCaller = { tenant: Tenant; scopes: ReadonlySet<string>; platformAdmin: boolean };

export type SearchResults = {
  /** The term searched (trimmed). */
  query: string;
  /** The kinds the caller may read, hence searched; the others are left out, not refused. */
  searched: SearchKind[];
  /** Grouped by kind in SEARCH_KINDS order, at most `first` of each. */
  hits: SearchHit[];
};

export const DEFAULT_PER_KIND = 5;
export const MAX_PER_KIND = 20;
/** The shortest search the trigram indexes serve. */
const TRIGRAM = 3;

export async function search(
  db: Db,
  caller: SearchCaller,
  query: string,
  first = DEFAULT_PER_KIND,
): Promise<SearchResults> {
  const term = searchTerm(query);
  const limit = Math.min(Math.max(1, Math.trunc(first)), MAX_PER_KIND);
  const searched = SEARCH_KINDS.filter((k) => caller.scopes.has(SEARCH_SCOPES[k]));
  const { tenant } = caller;
  // Names, e-mails, phones and product texts are found through trigram indexes, which need three
  // characters: a two-character search reads every customer of the tenant (a sequential scan,
  // 13 ms at 20,000, growing with their number). So two characters find orders (exact) and
  // campaigns (a few hundred a tenant) only.
  const short = term.length < TRIGRAM;
  const find: Record<SearchKind, () => Promise<SearchHit[]>> = {
    customer: async () => (short ? [] : searchCustomers(db, tenant, term, limit)),
    order: () => searchOrders(db, tenant, term, limit),
    product: async () =>
      short ? [] : searchProducts(db, tenant, term, limit, { platformAdmin: caller.platformAdmin }),
    campaign: () => searchCampaigns(db, tenant, term, limit),
  };
  const groups = await Promise.all(searched.map((k) => find[k]()));
  return { query: term, searched, hits: groups.flat() };
}
