// Tenant-scoped fixtures, built through the same domain functions the CLI and GraphQL use.
import type { Db } from '../../src/domain/db.js';
import { createApiKey, createPlatformAdminKey } from '../../src/domain/tenancy/create-api-key.js';
import { createBrand } from '../../src/domain/tenancy/create-brand.js';
import { createSubBrand } from '../../src/domain/tenancy/create-sub-brand.js';
import { ALL_KEY_SCOPES } from '../../src/domain/tenancy/inputs.js';
import type { KeyScope } from '../../src/domain/tenancy/scopes.js';

let counter = 0;

export async function createTenant(db: Db, options: { country?: string; prepaid?: boolean } = {}) {
  const n = ++counter;
  const brand = await createBrand(db, { name: `Brand ${n}` });
  const subBrand = await createSubBrand(db, {
    brandId: brand.id,
    name: `Sub-brand ${n}`,
    country: options.country ?? 'ES',
    prepaid: options.prepaid ?? false,
  });
  return {
    brandId: brand.id,
    subBrandId: subBrand.id,
    /** A key of this tenant; all partner scopes unless told otherwise. */
    key: async (
      o: {
        env?: 'live' | 'test';
        scopes?: KeyScope[];
        allowedCidrs?: string[];
        readLimit?: number;
        writeLimit?: number;
      } = {},
    ) => {
      const created = await createApiKey(db, {
        subBrandId: subBrand.id,
        environment: o.env ?? 'test',
        scopes: o.scopes ?? ALL_KEY_SCOPES,
        allowedCidrs: o.allowedCidrs,
        readLimit: o.readLimit,
        writeLimit: o.writeLimit,
      });
      return created;
    },
  };
}

export const adminKey = (db: Db, env: 'live' | 'test' = 'test') => createPlatformAdminKey(db, env);
