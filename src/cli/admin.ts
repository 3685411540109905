// `npm run admin -- <command> [--json]`: the operator's CLI over the same domain functions as the
// backoffice's GraphQL mutations. With --json every command prints exactly one JSON object (on
// failure `{ "error": { "code", "message" } }` and a non-zero exit), for scripts and other tools.
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { createApiKey, createPlatformAdminKey } from '../domain/tenancy/create-api-key.js';
import { createBrand } from '../domain/tenancy/create-brand.js';
import { createSubBrand } from '../domain/tenancy/create-sub-brand.js';
import { ensureDemo } from '../domain/tenancy/ensure-demo.js';
import { createDefinition, updateDefinition } from '../domain/engine/author-definition.js';
import { ALL_KEY_SCOPES } from '../domain/tenancy/inputs.js';
import { revokeApiKey } from '../domain/tenancy/revoke-api-key.js';
import { USER_COMMANDS, UserUsageError } from './user-commands.js';

type Values = Record<string, string | boolean | undefined>;
type Command = {
  usage: string;
  options: Record<string, { type: 'string' | 'boolean' }>;
  positionals?: number;
  run(
    db: Db,
    values: Values,
    positionals: string[],
  ): Promise<{ json: Record<string, unknown>; text: string }>;
};

class UsageError extends Error {}

const str = (values: Values, name: string): string => {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
};
const optional = (values: Values, name: string): string | undefined =>
  typeof values[name] === 'string' ? (values[name] as string) : undefined;
const int = (values: Values, name: string): number | undefined => {
  const value = optional(values, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a positive whole number`);
  return Number(value);
};
const signedInt = (values: Values, name: string): number | undefined => {
  const value = optional(values, name);
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
};
const json = (values: Values, name: string): Record<string, unknown> | undefined => {
  const value = optional(values, name);
  if (value === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch {
    throw new UsageError(`--${name} must be a JSON object, e.g. '{"max_daily_per_player":3}'`);
  }
};
const list = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
const env = (values: Values): 'live' | 'test' => {
  const value = str(values, 'env');
  if (value !== 'live' && value !== 'test') throw new UsageError('--env must be live or test');
  return value;
};

const COMMANDS: Record<string, Command> = {
  'brand create': {
    usage: 'brand create --name NAME',
    options: { name: { type: 'string' } },
    async run(db, v) {
      const brand = await createBrand(db, { name: str(v, 'name') });
      return { json: { id: brand.id }, text: `Brand ${brand.id} created.` };
    },
  },
  'sub-brand create': {
    usage: 'sub-brand create --brand ID --name NAME [--country XX] [--currency EUR] [--prepaid]',
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
    usage:
      'key create --sub-brand ID --env test|live --scopes s1,s2|all [--allow-ip CIDR,...] [--read-limit N] [--write-limit N]\n' +
      '  key create --platform-admin --env test|live',
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
  'key revoke': {
    usage: 'key revoke ID',
    options: {},
    positionals: 1,
    async run(db, _v, [id]) {
      const key = await revokeApiKey(db, id!);
      return { json: { id: key.id, revoked: true }, text: `Key ${key.id} revoked.` };
    },
  },
  'definition create': {
    usage:
      'definition create --sub-brand ID --code C --points N [--constraints JSON] [--player-id-field F]\n' +
      '      [--idempotency-key-field F] [--allow-points-override] [--inactive]',
    options: {
      'sub-brand': { type: 'string' },
      code: { type: 'string' },
      points: { type: 'string' },
      constraints: { type: 'string' },
      'player-id-field': { type: 'string' },
      'idempotency-key-field': { type: 'string' },
      'allow-points-override': { type: 'boolean' },
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
        active: v.inactive !== true,
      });
      return {
        json: { id: created.id, code: created.code },
        text: `Event definition ${created.code} (${created.id}) created.`,
      };
    },
  },
  'definition update': {
    usage:
      'definition update ID [--points N] [--constraints JSON] [--player-id-field F] [--idempotency-key-field F]\n' +
      '      [--allow-points-override | --no-points-override] [--active | --inactive]',
    options: {
      points: { type: 'string' },
      constraints: { type: 'string' },
      'player-id-field': { type: 'string' },
      'idempotency-key-field': { type: 'string' },
      'allow-points-override': { type: 'boolean' },
      'no-points-override': { type: 'boolean' },
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
    usage: 'definition deactivate ID',
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
    usage: 'demo',
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
  ...USER_COMMANDS,
};

/** Validation messages name the domain's fields; say them as the flags the operator typed. */
const FLAG_OF: Record<string, string> = {
  brandId: '--brand',
  subBrandId: '--sub-brand',
  password: `$STAFF_PASSWORD`,
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

function usage(): string {
  return [
    'Usage: npm run admin -- <command> [--json]',
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  ].join('\n');
}

export type AdminResult = { code: number; out: string; stream: 'stdout' | 'stderr' };

export async function runAdmin(argv: string[], db?: Db): Promise<AdminResult> {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  const fail = (code: string, message: string, exit: number) => ({
    stream: json ? ('stdout' as const) : ('stderr' as const),
    code: exit,
    out: json
      ? JSON.stringify({ error: { code, message } })
      : `${message}${exit === 2 ? `\n\n${usage()}` : ''}`,
  });
  const name =
    args[0] && args[1] && COMMANDS[`${args[0]} ${args[1]}`] ? `${args[0]} ${args[1]}` : args[0];
  const command = name ? COMMANDS[name] : undefined;
  if (!command)
    return fail(
      'usage',
      name ? `Unknown command: ${args.slice(0, 2).join(' ')}` : 'No command given.',
      2,
    );
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: args.slice(name!.split(' ').length),
      options: command.options,
      allowPositionals: true,
      strict: true,
    }));
    if (positionals.length !== (command.positionals ?? 0))
      throw new UsageError(`Usage: ${command.usage}`);
  } catch (error) {
    return fail('usage', (error as Error).message, 2);
  }
  const execute = async (database: Db) => {
    const result = await command.run(database, values, positionals);
    return {
      code: 0,
      stream: 'stdout' as const,
      out: json ? JSON.stringify(result.json) : result.text,
    };
  };
  try {
    if (db) return await execute(db);
    const config = loadConfig();
    const database = await openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      holder: 'admin CLI',
    });
    try {
      return await execute(database.prisma);
    } finally {
      await database.close();
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof UserUsageError)
      return fail('usage', error.message, 2);
    if (error instanceof AppError) return fail(error.code, inFlagNames(error), 1);
    return fail('error', (error as Error).message, 1);
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { code, out, stream } = await runAdmin(process.argv.slice(2));
  process[stream].write(`${out}\n`);
  process.exitCode = code;
}
