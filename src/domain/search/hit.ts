// What the backoffice's one search box (⌘K) finds: a hit names its kind, the record, two lines
// to show and the backoffice path that opens it.

export const SEARCH_KINDS = ['customer', 'order', 'product', 'campaign'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];

export type SearchHit = {
  kind: SearchKind;
  id: string;
  title: string;
  subtitle: string;
  /** The backoffice path (under /admin) that opens it; null when no screen shows it to the caller. */
  url: string | null;
};

/** The read scope each kind needs; a caller without it is not searched for that kind. */
export const SEARCH_SCOPES: Record<SearchKind, string> = {
  customer: 'customers:read',
  order: 'orders:read',
  product: 'products:read',
  campaign: 'campaigns:read',
};
