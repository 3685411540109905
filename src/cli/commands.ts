// The admin CLI's commands, over the same domain functions as the backoffice's GraphQL
// mutations. With --json every command prints exactly one JSON object (on failure
// `{ "error": { "code", "message" } }` and a non-zero exit), for scripts and other tools.
// Where the database is (in this process, or in the running server's) is admin.ts's business.
import { parseArgs } from 'node:util';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { DEFINITION_COMMANDS } from './definition-commands.js';
import { EVENT_COMMANDS } from './event-commands.js';
import { EXPIRY_COMMANDS } from './expiry-commands.js';
import { JURISDICTION_COMMANDS } from './jurisdiction-commands.js';
import { RG_COMMANDS } from './rg-commands.js';
import { TENANCY_COMMANDS } from './tenancy-commands.js';
import { USER_COMMANDS } from './user-commands.js';
import {
  commandName,
  type CommandName,
  failure,
  unknownCommand,
  USAGE,
  type AdminResult,
} from './usage.js';
import { UsageError, type Command, type Secrets, type Values } from './command.js';

// Each group's table is keyed by its names in USAGE, so a command left out here fails the
// typecheck. The user commands' table is keyed by any string, hence named one by one.
const COMMANDS: Record<CommandName, Command> = {
  ...TENANCY_COMMANDS,
  ...DEFINITION_COMMANDS,
  'user create': USER_COMMANDS['user create']!,
  'user list': USER_COMMANDS['user list']!,
  'user disable': USER_COMMANDS['user disable']!,
  'user reset-2fa': USER_COMMANDS['user reset-2fa']!,
  ...EVENT_COMMANDS,
  ...RG_COMMANDS,
  ...EXPIRY_COMMANDS,
  ...JURISDICTION_COMMANDS,
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
