import type { Environment } from '../../generated/prisma/enums.js';
import type { Db } from '../db.js';
import { hashKey, parseKey } from './api-key-format.js';
import { ADMIN_SCOPE } from './scopes.js';

/** Who is calling: the key's tenant, environment and rights. */
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
};

export type AuthFailure = 'malformed' | 'unknown' | 'revoked';

export async function authenticateApiKey(
  db: Db,
  key: string,
): Promise<{ principal: Principal } | { failure: AuthFailure }> {
  const environment = parseKey(key);
  if (!environment) return { failure: 'malformed' };
  const row = await db.apiKey.findUnique({
    where: { keyHash: hashKey(key) },
    include: { subBrand: { select: { brandId: true, isPlatform: true } } },
  });
  if (!row) return { failure: 'unknown' };
  if (row.revokedAt) return { failure: 'revoked' };
  return {
    principal: {
      keyId: row.id,
      subBrandId: row.subBrandId,
      brandId: row.subBrand.brandId,
      environment: row.environment,
      scopes: new Set(row.scopes),
      allowedCidrs: row.allowedCidrs,
      readLimit: row.readLimit,
      writeLimit: row.writeLimit,
      isPlatformAdmin: row.subBrand.isPlatform && row.scopes.includes(ADMIN_SCOPE),
    },
  };
}
