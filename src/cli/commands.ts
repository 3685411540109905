// The admin CLI's commands, over the same domain functions as the backoffice's GraphQL
// mutations. With --json every command prints exactly one JSON object (on failure
// `{ "error": { "code", "message" } }` and a non-zero exit), for scripts and other tools.
// Where the database is (in this process, or in the running server's) is admin.ts's business.
import { parseArgs } from 'node:util';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { createApiKey, createPlatformAdminKey } from '../domain/tenancy/create-api-key.js';
import { createBrand } from '../domain/tenancy/create-brand.js';
import { createSubBrand } from '../domain/tenancy/create-sub-brand.js';
import { ensureDemo } from '../domain/tenancy/ensure-demo.js';
import { createDefinition, updateDefinition } from '../engine/points/author-definition.js';
import { ALL_KEY_SCOPES } from '../domain/tenancy/inputs.js';
import { revokeApiKey } from '../domain/tenancy/revoke-api-key.js';
import { USER_COMMANDS } from './user-commands.js';
import { EVENT_COMMANDS } from './event-commands.js';
import { RG_COMMANDS } from './rg-commands.js';
import { EXPIRY_COMMANDS } from './expiry-commands.js';
import { JURISDICTION_COMMANDS } from './jurisdiction-commands.js';
import { getDefinition, listDefinitions } from '../engine/points/read-definitions.js';
import {
  getApiKey,
  getBrand,
  getSubBrand,
  listApiKeys,
  listBrands,
  listSubBrands,
} from '../domain/tenancy/read-tenancy.js';
import {
  commandName,
  type CommandName,
  failure,
  unknownCommand,
  USAGE,
  type AdminResult,
} from './usage.js';
import {
  describe,
  env,
  int,
  iso,
  json,
  lines,
  list,
  optional,
  signedInt,
  str,
  UsageError,
  type Command,
  type Secrets,
  type Values,
} from './command.js';

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
const definitionJson = (d: Awaited<ReturnType<typeof getDefinition>>) => ({
  id: d.id,
  sub_brand_id: d.subBrandId,
  code: d.code,
  points: d.points,
  constraints: d.constraints,
  player_id_field: d.playerIdField,
  idempotency_key_field: d.idempotencyKeyField,
  allow_points_override: d.allowPointsOverride,
  verticals: d.verticals,
  active: d.active,
  version: d.version,
  updated_at: d.updatedAt.toISOString(),
});

const COMMANDS: Record<CommandName, Command> = {
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
  'definition create': {
    options: {
      'sub-brand': { type: 'string' },
      code: { type: 'string' },
      points: { type: 'string' },
      constraints: { type: 'string' },
      'player-id-field': { type: 'string' },
      'idempotency-key-field': { type: 'string' },
      'allow-points-override': { type: 'boolean' },
      verticals: { type: 'string' },
      inactive: { type: 'boolean' },
    },
    async run(db, v) {
      const created = await createDefinition(db, {
        subBrandId: str(v, 'sub-brand'),
        code: str(v, 'code'),
        points: signedInt(v, 'points')!,
        constraints: json(v, 'constraints'),
        playerIdField: optional(v, 'player-id-field'),
        idempotencyKeyField: optional(v, 'idempotency-key-field'),
        allowPointsOverride: v['allow-points-override'] === true,
        verticals: list(optional(v, 'verticals')) as never,
        active: v.inactive !== true,
      });
      return {
        json: { id: created.id, code: created.code },
        text: `Event definition ${created.code} (${created.id}) created.`,
      };
    },
  },
  'definition list': {
    options: { 'sub-brand': { type: 'string' }, active: { type: 'boolean' } },
    async run(db, v) {
      const subBrandId = str(v, 'sub-brand');
      await getSubBrand(db, subBrandId); // an unknown sub-brand is an error, not an empty list
      const rows = (await listDefinitions(db, { subBrandId, activeOnly: v.active === true })).map(
        definitionJson,
      );
      return {
        json: { definitions: rows },
        text: lines(
          rows,
          (d) =>
            `${d.id}  ${d.code}  ${d.points} points  v${d.version}${d.active ? '' : '  (inactive)'}`,
          'No event definitions.',
        ),
      };
    },
  },
  'definition show': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const json = definitionJson(await getDefinition(db, id!));
      return { json, text: describe(json) };
    },
  },
  'definition update': {
    options: {
      points: { type: 'string' },
      constraints: { type: 'string' },
      'player-id-field': { type: 'string' },
      'idempotency-key-field': { type: 'string' },
      'allow-points-override': { type: 'boolean' },
      'no-points-override': { type: 'boolean' },
      verticals: { type: 'string' },
      active: { type: 'boolean' },
      inactive: { type: 'boolean' },
    },
    positionals: 1,
    async run(db, v, [id]) {
      const flag = (on: string, off: string) =>
        v[on] === true ? true : v[off] === true ? false : undefined;
      const updated = await updateDefinition(db, id!, {
        points: signedInt(v, 'points'),
        constraints: json(v, 'constraints'),
        playerIdField: optional(v, 'player-id-field'),
        idempotencyKeyField: optional(v, 'idempotency-key-field'),
        allowPointsOverride: flag('allow-points-override', 'no-points-override'),
        verticals: list(optional(v, 'verticals')) as never,
        active: flag('active', 'inactive'),
      });
      return {
        json: {
          id: updated.id,
          code: updated.code,
          version: updated.version,
          active: updated.active,
        },
        text: `Event definition ${updated.code} is now at version ${updated.version}.`,
      };
    },
  },
  'definition deactivate': {
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const updated = await updateDefinition(db, id!, { active: false });
      return {
        json: { id: updated.id, code: updated.code, active: false },
        text: `Event definition ${updated.code} deactivated.`,
      };
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
  'user create': USER_COMMANDS['user create']!,
  'user list': USER_COMMANDS['user list']!,
  'user disable': USER_COMMANDS['user disable']!,
  'user reset-2fa': USER_COMMANDS['user reset-2fa']!,
  'events list': EVENT_COMMANDS['events list'],
  'events show': EVENT_COMMANDS['events show'],
  'webhooks list': EVENT_COMMANDS['webhooks list'],
  'webhooks create': EVENT_COMMANDS['webhooks create'],
  'webhooks disable': EVENT_COMMANDS['webhooks disable'],
  'webhooks enable': EVENT_COMMANDS['webhooks enable'],
  'webhooks delete': EVENT_COMMANDS['webhooks delete'],
  'webhooks rotate': EVENT_COMMANDS['webhooks rotate'],
  'webhooks deliveries': EVENT_COMMANDS['webhooks deliveries'],
  'webhooks replay': EVENT_COMMANDS['webhooks replay'],
  'rg show': RG_COMMANDS['rg show'],
  'rg set': RG_COMMANDS['rg set'],
  'expiry show': EXPIRY_COMMANDS['expiry show'],
  'expiry set': EXPIRY_COMMANDS['expiry set'],
  'jurisdiction show': JURISDICTION_COMMANDS['jurisdiction show'],
  'jurisdiction set': JURISDICTION_COMMANDS['jurisdiction set'],
};

/** Validation messages name the domain's fields; say them as the flags the operator typed. */
const FLAG_OF: Record<string, string> = {
  password: '$STAFF_PASSWORD',
  brandId: '--brand',
  subBrandId: '--sub-brand',
  environment: '--env',
  allowedCidrs: '--allow-ip',
};
/** The flag for a field: the exceptions above, else its kebab-case (readLimit → --read-limit). */
const flagOf = (field: string) =>
  FLAG_OF[field] ?? `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
function inFlagNames(error: AppError): string {
  if (!error.issues.length) return error.message;
  return error.issues.map((i) => `${flagOf(i.field.split('.')[0]!)}: ${i.message}`).join('; ');
}

/** Runs one command (argv as typed, `--json` anywhere) against a database. */
export async function runCommand(
  argv: string[],
  db: Db,
  secrets: Secrets = {},
): Promise<AdminResult> {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  const name = commandName(args);
  const command = name ? COMMANDS[name] : undefined;
  if (!name || !command) return failure(json, 'usage', unknownCommand(args), 2);
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: args.slice(name.split(' ').length),
      options: command.options,
      allowPositionals: true,
      strict: true,
    }));
    if (positionals.length !== (command.positionals ?? 0))
      throw new UsageError(`Usage: npm run admin -- ${USAGE[name].usage}`);
    const result = await command.run(db, values, positionals, secrets);
    return { code: 0, stream: 'stdout', out: json ? JSON.stringify(result.json) : result.text };
  } catch (error) {
    if (error instanceof AppError) return failure(json, error.code, inFlagNames(error), 1);
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    )
      return failure(json, 'usage', (error as Error).message, 2, name);
    return failure(json, 'error', (error as Error).message, 1);
  }
}
