// `npm run admin -- brand …`, `sub-brand …`, `key …` and `demo`: the tenants and their API keys,
// over the same domain functions as the backoffice's GraphQL mutations. A key's secret is printed
// when it is minted and never again (only its display prefix is stored).
import { createApiKey, createPlatformAdminKey } from '../domain/tenancy/create-api-key.js';
import { createBrand } from '../domain/tenancy/create-brand.js';
import { createSubBrand } from '../domain/tenancy/create-sub-brand.js';
import { ensureDemo } from '../domain/tenancy/ensure-demo.js';
import { ALL_KEY_SCOPES } from '../domain/tenancy/inputs.js';
import {
  getApiKey,
  getBrand,
  getSubBrand,
  listApiKeys,
  listBrands,
  listSubBrands,
} from '../domain/tenancy/read-tenancy.js';
import { revokeApiKey } from '../domain/tenancy/revoke-api-key.js';
import type { CommandName } from './usage.js';
import { describe, env, int, iso, lines, list, optional, str, type Command } from './command.js';

type TenancyCommandName = Extract<
  CommandName,
  `brand ${string}` | `sub-brand ${string}` | `key ${string}` | 'demo'
>;

const subBrandJson = (s: Awaited<ReturnType<typeof listSubBrands>>[number]) => ({
  id: s.id,
  brand_id: s.brandId,
  name: s.name,
  country: s.country,
  currency: s.currency,
  prepaid: s.prepaid,
  is_demo: s.isDemo,
  is_platform: s.isPlatform,
  created_at: s.createdAt.toISOString(),
});
const keyJson = (k: Awaited<ReturnType<typeof getApiKey>>) => ({
  id: k.id,
  sub_brand_id: k.subBrandId,
  environment: k.environment,
  prefix: k.displayPrefix,
  scopes: k.scopes,
  allowed_cidrs: k.allowedCidrs,
  read_limit: k.readLimit,
  write_limit: k.writeLimit,
  created_at: k.createdAt.toISOString(),
  revoked_at: iso(k.revokedAt),
});

export const TENANCY_COMMANDS: Record<TenancyCommandName, Command> = {
  'brand create': {
    options: { name: { type: 'string' } },
    async run(db, v) {
      const brand = await createBrand(db, { name: str(v, 'name') });
      return { json: { id: brand.id }, text: `Brand ${brand.id} created.` };
    },
  },
  'sub-brand create': {
    options: {
      brand: { type: 'string' },
      name: { type: 'string' },
      country: { type: 'string' },
      currency: { type: 'string' },
      prepaid: { type: 'boolean' },
    },
    async run(db, v) {
      const subBrand = await createSubBrand(db, {
        brandId: str(v, 'brand'),
        name: str(v, 'name'),
        country: optional(v, 'country')?.toUpperCase(),
        currency: optional(v, 'currency')?.toUpperCase(),
        prepaid: v.prepaid === true,
      });
      return { json: { id: subBrand.id }, text: `Sub-brand ${subBrand.id} created.` };
    },
  },
  'key create': {
    options: {
      'sub-brand': { type: 'string' },
      env: { type: 'string' },
      scopes: { type: 'string' },
      'allow-ip': { type: 'string' },
      'read-limit': { type: 'string' },
      'write-limit': { type: 'string' },
      'platform-admin': { type: 'boolean' },
    },
    async run(db, v) {
      const created =
        v['platform-admin'] === true
          ? await createPlatformAdminKey(db, env(v))
          : await createApiKey(db, {
              subBrandId: str(v, 'sub-brand'),
              environment: env(v),
              scopes: (str(v, 'scopes') === 'all'
                ? ALL_KEY_SCOPES
                : list(str(v, 'scopes'))) as typeof ALL_KEY_SCOPES,
              allowedCidrs: list(optional(v, 'allow-ip')),
              readLimit: int(v, 'read-limit'),
              writeLimit: int(v, 'write-limit'),
            });
      return {
        json: {
          id: created.id,
          key: created.key,
          scopes: created.scopes,
          environment: created.environment,
        },
        text: `Key ${created.id} (${created.environment}; ${created.scopes.join(', ')}):\n  ${created.key}\nShown once: store it now.`,
      };
    },
  },
  'brand list': {
    options: {},
    async run(db) {
      const brands = await listBrands(db);
      const rows = brands.map((b) => ({
        id: b.id,
        name: b.name,
        sub_brands: b._count.subBrands,
        created_at: b.createdAt.toISOString(),
      }));
      return {
        json: { brands: rows },
        text: lines(rows, (b) => `${b.id}  ${b.name}  (${b.sub_brands} sub-brands)`, 'No brands.'),
      };
    },
  },
  'brand show': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const b = await getBrand(db, id!);
      const json = {
        id: b.id,
        name: b.name,
        margin_bps: b.marginBps,
        created_at: b.createdAt.toISOString(),
        sub_brands: b.subBrands.map((s) => ({ id: s.id, name: s.name })),
      };
      return { json, text: describe(json) };
    },
  },
  'sub-brand list': {
    options: { brand: { type: 'string' } },
    async run(db, v) {
      const subBrands = await listSubBrands(db, { brandId: optional(v, 'brand') });
      const rows = subBrands.map(subBrandJson);
      return {
        json: { sub_brands: rows },
        text: lines(
          rows,
          (s) =>
            `${s.id}  ${s.name}  ${s.country ?? '--'} ${s.currency}${s.is_demo ? '  (demo)' : ''}${s.is_platform ? '  (platform)' : ''}`,
          'No sub-brands.',
        ),
      };
    },
  },
  'sub-brand show': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const s = await getSubBrand(db, id!);
      const json = {
        ...subBrandJson(s),
        api_keys: s._count.apiKeys,
        customers: s._count.customers,
        event_definitions: s._count.eventDefinitions,
      };
      return { json, text: describe(json) };
    },
  },
  'key list': {
    options: { 'sub-brand': { type: 'string' } },
    async run(db, v) {
      const rows = (await listApiKeys(db, str(v, 'sub-brand'))).map(keyJson);
      return {
        json: { keys: rows },
        text: lines(
          rows,
          (k) =>
            `${k.id}  ${k.prefix}  ${k.environment}  ${k.revoked_at ? 'revoked' : 'active'}  ${k.scopes.join(',')}`,
          'No keys.',
        ),
      };
    },
  },
  'key show': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const json = keyJson(await getApiKey(db, id!));
      return { json, text: describe(json) };
    },
  },
  'key revoke': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const key = await revokeApiKey(db, id!);
      return { json: { id: key.id, revoked: true }, text: `Key ${key.id} revoked.` };
    },
  },
  demo: {
    options: {},
    async run(db) {
      const demo = await ensureDemo(db);
      return {
        json: {
          brand_id: demo.brandId,
          sub_brand_id: demo.subBrandId,
          api_key: demo.apiKey.key,
          api_key_id: demo.apiKey.id,
          environment: demo.apiKey.environment,
          scopes: demo.apiKey.scopes,
          created: demo.created,
          event_codes: demo.eventCodes,
        },
        text: `Demo sub-brand ${demo.subBrandId}${demo.created ? ' created' : ''}.\nTest key (all scopes, shown once):\n  ${demo.apiKey.key}`,
      };
    },
  },
};
