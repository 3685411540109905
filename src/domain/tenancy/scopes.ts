/** The partner API's scopes (spec: Authentication, item 5). */
export const PARTNER_SCOPES = [
  'customers:read',
  'customers:create',
  'customers:update',
  'customers:delete',
  'customers:coins',
  'orders:read',
  'orders:create',
  'orders:update',
  'orders:delete',
  'products:read',
  'stores:read',
  'catalogs:read',
  'categories:read',
  'brands:read',
  'store_sessions:create',
  'engine:events',
] as const;

/** Held only by keys of the platform establishment: brands, sub-brands, keys, the backoffice. */
export const ADMIN_SCOPE = 'admin';

export type Scope = (typeof PARTNER_SCOPES)[number] | typeof ADMIN_SCOPE;

const KNOWN = new Set<string>([...PARTNER_SCOPES, ADMIN_SCOPE]);
export const isScope = (value: string): value is Scope => KNOWN.has(value);
