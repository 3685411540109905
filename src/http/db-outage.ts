// The database out of reach (stopped, restarting, network gone) is not our bug and not the
// client's: it is answered 503 service_unavailable with Retry-After, logged once when the outage
// starts and once when it ends (not once per request), and reported to readiness. Nothing is
// lost meanwhile: a request's effect and its Idempotency-Key record commit together or not at all,
// so a retry with the same key after the outage applies at most once (docs/idempotency.md).
import { AppError } from '../domain/errors.js';
import type { Logger } from '../logger.js';

/** What clients are told to wait before retrying; also how often recovery is probed. */
export const RETRY_AFTER_SECONDS = 5;
const PROBE_EVERY_MS = 1_000;

// Prisma's codes for "cannot reach / lost the server" (P1001, P1002, P1008, P1017) and "no pooled
// connection in time" (P2024); the driver's socket errors; PostgreSQL's connection-exception class
// (08xxx), shutdown and start-up states (57P01-57P03) and too many connections (53300).
const CODES =
  /^(P100[128]|P1017|P2024|ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EPIPE|EHOSTUNREACH|08[0-9A-Z]{3}|57P0[123]|53300)$/;
const TEXT =
  /Can't reach database server|Server has closed the connection|Connection terminated|connection terminated unexpectedly|terminating connection due to administrator command|the database system is (shutting down|starting up|in recovery mode|not yet accepting connections)|Connection is closed|Client has encountered a connection error|timeout exceeded when trying to connect|DatabaseNotReachable|ConnectionClosed|SocketTimeout|TooManyConnections|ECONNREFUSED|ECONNRESET|\b57P0[123]\b/i;

/** Whether an error says the database cannot be reached, anywhere in its chain of causes. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length) {
    const e = pending.pop();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, message, cause, meta, errors } = e as {
      code?: unknown;
      message?: unknown;
      cause?: unknown;
      meta?: unknown;
      errors?: unknown;
    };
    if (typeof code === 'string' && CODES.test(code)) return true;
    if (typeof message === 'string' && TEXT.test(message)) return true;
    pending.push(cause, meta, ...(Array.isArray(errors) ? errors : []));
    if (meta && typeof meta === 'object') pending.push(...Object.values(meta));
  }
  return false;
}

export const serviceUnavailable = (): AppError =>
  new AppError(
    'service_unavailable',
    `The service cannot reach its database right now. Retry in ${RETRY_AFTER_SECONDS} s; requests with an Idempotency-Key apply at most once.`,
    { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } },
  );

export type DatabaseState = { available: boolean; unavailableSince: Date | null };

/**
 * One process's view of its database. Transports pass every unexpected error through `observe`;
 * the first that says the database is out of reach starts an outage (one log line), then a probe
 * every second ends it (one more line) as soon as the database answers. Readiness reads `state`.
 */
export class DatabaseHealth {
  private since: Date | null = null;
  private probing: NodeJS.Timeout | null = null;

  constructor(
    private readonly probe: () => Promise<unknown>,
    private readonly logger: Logger,
  ) {}

  get state(): DatabaseState {
    return { available: this.since === null, unavailableSince: this.since };
  }

  /** The 503 to answer when the error is an outage; null for any other error. */
  observe(error: unknown): AppError | null {
    if (!isDatabaseUnavailable(error)) return null;
    if (this.since === null) {
      this.since = new Date();
      this.logger.error({
        msg: 'database unavailable: answering 503 until it is back',
        err: error instanceof Error ? { message: error.message } : String(error),
      });
      this.scheduleProbe();
    }
    return serviceUnavailable();
  }

  /** Stops probing (the server is closing). */
  close(): void {
    if (this.probing) clearTimeout(this.probing);
    this.probing = null;
  }

  private scheduleProbe() {
    this.probing = setTimeout(() => {
      this.probe().then(
        () => {
          const seconds = Math.round((Date.now() - this.since!.getTime()) / 100) / 10;
          this.since = null;
          this.probing = null;
          this.logger.info({ msg: 'database available again', outage_s: seconds });
        },
        () => this.scheduleProbe(),
      );
    }, PROBE_EVERY_MS);
    this.probing.unref();
  }
}
