// `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the PGlite in DATA_DIR)
// without starting the server, e.g. as a deploy step. The server also does this on start.
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';

const config = loadConfig();
const db = await openDatabase({
  url: config.databaseUrl,
  dataDir: config.dataDir,
  holder: 'migration script',
});
console.log(
  db.appliedMigrations.length ? `Applied: ${db.appliedMigrations.join(', ')}` : 'Up to date.',
);
await db.close();
// Exit now: V8 keeps compiling the schema engine's WASM in the background and Node would wait
// for that (about 10 s) before exiting on its own, with nothing left to do.
process.exit(0);
