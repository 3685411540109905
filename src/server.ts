// The server's entry: `npm start` runs it through tsx, production runs the compiled
// `node dist/server.js` (`npm run build`). Configuration first, so a bad one stops the process at
// once with a message; then one server (start-server.ts), or WEB_CONCURRENCY workers; a graceful
// stop on SIGTERM/SIGINT.
import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger, type Logger } from './logger.js';

const STOP_GRACE_MS = 10_000;

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  if (config.workers > 1 && cluster.isPrimary) return runPrimary(config, logger);
  const { startServer } = await import('./start-server.js');
  const { DataDirBusyError } = await import('./db/data-dir-lock.js');
  // The handlers are in place before the server starts: a supervisor may send SIGTERM as soon as
  // it reads the 'listening' line, which is written before startServer returns.
  const starting = startServer(config, logger);
  let stopping = false;
  const onSignal = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ msg: 'stopping', signal });
    setTimeout(() => {
      logger.error({ msg: 'graceful stop timed out; exiting' });
      process.exit(1);
    }, STOP_GRACE_MS).unref();
    starting
      .then((running) => running.stop())
      .then(
        () => process.exit(0),
        (err) => {
          logger.error({ msg: 'error while stopping', err });
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  try {
    await starting;
  } catch (error) {
    if (error instanceof DataDirBusyError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * WEB_CONCURRENCY > 1: this process only starts workers, which share the port (node:cluster) and
 * hold no state of their own; it migrates first, so workers start on an up-to-date schema, and
 * passes SIGTERM/SIGINT on. Rate limits are per process unless REDIS_URL is set.
 */
async function runPrimary(config: Config, logger: Logger) {
  const { openDatabase } = await import('./db/database.js');
  const { demoOnFreshDatabase, welcome } = await import('./start-server.js');
  const db = await openDatabase({
    url: config.databaseUrl,
    poolSize: 1,
    holder: 'server',
    preparedStatements: config.preparedStatements,
  });
  if (db.appliedMigrations.length)
    logger.info({ msg: 'migrations applied', migrations: db.appliedMigrations });
  const demo = config.demo ? await demoOnFreshDatabase(db.prisma) : null;
  await db.close();
  if (demo)
    welcome(config, logger, config.publicBaseUrl ?? `http://localhost:${config.port}`, demo);
  if (!config.redisUrl)
    logger.warn({ msg: 'several workers without REDIS_URL: each counts its own rate budget' });
  for (let i = 0; i < config.workers; i++) cluster.fork();
  let stopping = false;
  cluster.on('exit', (worker, code) => {
    if (stopping) return;
    logger.error({ msg: 'worker exited; starting another', pid: worker.process.pid, code });
    cluster.fork();
  });
  const stop = (signal: string) => {
    stopping = true;
    logger.info({ msg: 'stopping', signal });
    for (const worker of Object.values(cluster.workers ?? {}))
      worker?.process.kill(signal as NodeJS.Signals);
    const wait = setInterval(() => {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        clearInterval(wait);
        process.exit(0);
      }
    }, 100);
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  await main();
}
