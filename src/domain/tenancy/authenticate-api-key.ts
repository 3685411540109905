import type { Environment } from '../../generated/prisma/enums.js';
import { sqlFor, type Sql } from '../../db/sql.js';
import type { Db } from '../db.js';
import { hashKey, parseKey } from './api-key-format.js';
import type { StaffIdentity } from '../staff/roles.js';
import { ADMIN_SCOPE } from './scopes.js';

/**
 * Who is calling: the key's tenant, environment and rights. A signed-in staff member gets one too
 * (staff/staff-principal.ts), for the sub-brand it chose; then `staff` says who, and `keyId` is
 * `staff:<user id>` (it names the rate bucket and the log line, never an api_keys row).
 */
export type Principal = {
  keyId: string;
  subBrandId: string;
  brandId: string;
  environment: Environment;
  scopes: ReadonlySet<string>;
  allowedCidrs: string[];
  readLimit: number | null;
  writeLimit: number | null;
  isPlatformAdmin: boolean;
  /** The market the sub-brand serves (country + currency): the only listings its keys see. */
  market: { country: string; currency: string } | null;
  /** Set when a staff member, not an API key, is calling. */
  staff?: StaffIdentity | undefined;
  /** Set when a player is calling, with a store session (the marketplace; docs/marketplace.md). */
  player?: PlayerIdentity | undefined;
};

/** A player in the marketplace: one customer of one sub-brand, through one store session. */
export type PlayerIdentity = {
  customerId: string;
  storeId: string;
  sessionId: string;
  expiresAt: Date;
};

export type AuthFailure = 'malformed' | 'unknown' | 'revoked';

const KEY_LOOKUP = `
  SELECT k.id, k.sub_brand_id, k.environment::text AS environment, k.scopes, k.allowed_cidrs,
         k.read_limit, k.write_limit, k.revoked_at, s.brand_id, s.is_platform,
         s.country, s.currency
  FROM api_keys k JOIN sub_brands s ON s.id = k.sub_brand_id
  WHERE k.key_hash = $1`;

type KeyRow = {
  id: string;
  sub_brand_id: string;
  environment: Environment;
  scopes: string[] | null;
  allowed_cidrs: string[] | null;
  read_limit: number | null;
  write_limit: number | null;
  revoked_at: Date | null;
  brand_id: string;
  is_platform: boolean;
  country: string | null;
  currency: string;
};

export async function authenticateApiKey(
  db: Db | Sql,
  key: string,
): Promise<{ principal: Principal } | { failure: AuthFailure }> {
  const environment = parseKey(key);
  if (!environment) return { failure: 'malformed' };
  // One statement (every request runs it): the key and its sub-brand together.
  // Sent on the driver itself where the caller has it (the auth middleware): every request runs it.
  const sql = typeof (db as Sql).kind === 'string' ? (db as Sql) : sqlFor(db as Db);
  const {
    rows: [row],
  } = await sql.query<KeyRow>(KEY_LOOKUP, [hashKey(key)]);
  if (!row) return { failure: 'unknown' };
  if (row.revoked_at) return { failure: 'revoked' };
  const scopes = row.scopes ?? [];
  return {
    principal: {
      keyId: row.id,
      subBrandId: row.sub_brand_id,
      brandId: row.brand_id,
      environment: row.environment,
      scopes: new Set(scopes),
      allowedCidrs: row.allowed_cidrs ?? [],
      readLimit: row.read_limit,
      writeLimit: row.write_limit,
      isPlatformAdmin: row.is_platform && scopes.includes(ADMIN_SCOPE),
      market: row.country ? { country: row.country, currency: row.currency } : null,
    },
  };
}
