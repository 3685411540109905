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
  /** The outbound event feed (docs/webhooks.md). */
  'events:read',
  /** Webhook endpoints: create, change, rotate secrets, read deliveries, replay. */
  'webhooks:manage',
  /** Setting a customer's responsible-gaming state (docs/compliance.md); read with customers:read. */
  'responsible_gaming:write',
  /** Tenant-wide reports: coins per day and source, top earners, orders, campaigns (docs/reports.md). */
  'reports:read',
] as const;

/** Scopes of the establishment API beyond the partner ones it reuses (players are customers). */
export const ESTABLISHMENT_SCOPES = [
  'establishment:read',
  'establishment:update',
  /** Tracking numbers and acquisitions (and their reversal): work a fulfilment partner does. */
  'orders:fulfil',
  'products:write',
  'catalogs:write',
  'campaigns:read',
  'campaigns:write',
  'campaigns:activity',
  'prizes:claim',
  'games:read',
] as const;

/** Every scope a key can hold; `--scopes all` grants these. */
export const KEY_SCOPES = [...PARTNER_SCOPES, ...ESTABLISHMENT_SCOPES] as const;

/** Held only by keys of the platform establishment: brands, sub-brands, keys, the backoffice. */
export const ADMIN_SCOPE = 'admin';

export type KeyScope = (typeof KEY_SCOPES)[number];
export type Scope = KeyScope | typeof ADMIN_SCOPE;

const KNOWN = new Set<string>([...KEY_SCOPES, ADMIN_SCOPE]);
export const isScope = (value: string): value is Scope => KNOWN.has(value);
