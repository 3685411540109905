// `npm run admin -- <command> [--json]`: the operator's CLI. This entry stays small so help and
// usage errors answer at once; the database code loads only for a command that needs it. Where
// the command runs: on PostgreSQL, here; on the embedded database, in the running server when
// there is one (admin-socket.ts), else here. The CLI never migrates: a database behind the code
// gets a message saying how to bring it up to date.
import type { Db } from '../domain/db.js';
import { sendToServer } from './admin-socket.js';
import { UsageError, type Secrets } from './command.js';
import {
  commandHelp,
  commandName,
  failure,
  generalHelp,
  unknownCommand,
  type AdminResult,
} from './usage.js';

export type { AdminResult };

export async function runAdmin(argv: string[], db?: Db): Promise<AdminResult> {
  const json = argv.includes('--json');
  const args = argv.filter((a) => a !== '--json');
  const name = commandName(args);
  if (args.includes('--help') || args.includes('-h') || args[0] === 'help') {
    const topic = args[0] === 'help' ? commandName(args.slice(1)) : name;
    return { code: 0, stream: 'stdout', out: topic ? commandHelp(topic) : generalHelp() };
  }
  if (!name) return failure(json, 'usage', unknownCommand(args), 2);
  const { runCommand } = await import('./commands.js');
  if (db) return runCommand(argv, db);
  try {
    return await runWhereTheDatabaseIs(argv, runCommand);
  } catch (error) {
    if (error instanceof UsageError) return failure(json, 'usage', error.message, 2);
    const code = (error as { cliCode?: string }).cliCode ?? 'error';
    return failure(json, code, (error as Error).message, 1);
  }
}

async function runWhereTheDatabaseIs(
  argv: string[],
  runCommand: (argv: string[], db: Db, secrets: Secrets) => Promise<AdminResult>,
): Promise<AdminResult> {
  const { loadConfig } = await import('../config.js');
  const config = loadConfig();
  // A password comes from this process's environment or terminal, the operator's, so it is read
  // here, before the command runs here or in the server (issue 35, B9: `user create` used to be
  // refused while a server held the embedded database).
  const secrets = await secretsFor(argv);
  if (!config.databaseUrl) {
    const viaServer = await sendToServer(config.dataDir, argv, secrets);
    if (viaServer) return viaServer;
  }
  const { openDatabase } = await import('../db/database.js');
  const { MigrationsPendingError } = await import('../db/migration-status.js');
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: 1,
    holder: 'admin CLI',
    migrate: 'refuse',
    preparedStatements: config.preparedStatements,
  }).catch((error: Error) => {
    if (error instanceof MigrationsPendingError)
      Object.assign(error, { cliCode: 'migrations_pending' });
    throw error;
  });
  try {
    return await runCommand(argv, database.prisma, secrets);
  } finally {
    await database.close();
  }
}

/** The password of `user create` (never an argument: the command refuses `--password`). */
async function secretsFor(argv: string[]): Promise<Secrets> {
  const words = argv.filter((a) => !a.startsWith('-'));
  if (words[0] !== 'user' || words[1] !== 'create' || argv.some((a) => a.startsWith('--password')))
    return {};
  const { readPassword } = await import('./user-commands.js');
  return { password: await readPassword() };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { code, out, stream } = await runAdmin(process.argv.slice(2));
  process[stream].write(`${out}\n`);
  process.exitCode = code;
}
