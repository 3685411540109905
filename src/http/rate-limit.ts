// Per-key rate buckets (spec: Limits): 120 reads and 30 writes per 60-second window by default,
// overridable per key. Requests without a valid key are counted per client address, so guessing
// keys is limited too. Counters live in memory, or in Redis when REDIS_URL is set, so several
// server processes enforce one budget.
import type { Request, RequestHandler, Response } from 'express';
import { Redis } from 'ioredis';
import { parse, OperationTypeNode, Kind } from 'graphql';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { AppError } from '../domain/errors.js';
import type { Logger } from '../logger.js';
import { locals } from './locals.js';

export const WINDOW_SECONDS = 60;
export const DEFAULT_LIMITS = { read: 120, write: 30 } as const;

export type Bucket = 'read' | 'write';
export type RateDecision = {
  limit: number;
  remaining: number;
  /** Unix seconds when the window resets. */
  resetAt: number;
  /** Whole seconds until then (at least 1): the Retry-After of a refusal. */
  retryAfter: number;
  allowed: boolean;
};

export interface RateLimitStore {
  /** Where the counters live (readiness checks Redis only when it is configured). */
  readonly kind?: 'memory' | 'redis';
  /**
   * Spends `units` (default 1) of the key's budget of `limit` per window. In memory the
   * decision is made at once (no promise: it is on every request's path); Redis answers later.
   */
  consume(key: string, limit: number, units?: number): RateDecision | Promise<RateDecision>;
  /** Resolves once the shared store is reachable (at once in memory). */
  ready(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

export function createRateLimitStore(options: {
  redisUrl?: string | undefined;
  prefix?: string;
  logger: Logger;
}): RateLimitStore {
  if (!options.redisUrl) {
    const counters = new MemoryCounters();
    return {
      kind: 'memory',
      consume: (key, limit, units = 1) => counters.consume(key, limit, units),
      ready: () => Promise.resolve(true),
      close: () => Promise.resolve(),
    };
  }
  const prefix = options.prefix ?? 'rl';
  const redis = new Redis(options.redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    lazyConnect: false,
  });
  redis.on('error', (error) => options.logger.warn({ msg: 'redis error', error: error.message }));
  // One limiter per distinct limit, all sharing one counter per key: only the cap differs.
  const limiters = new Map<number, RateLimiterAbstract>();
  const limiterFor = (points: number): RateLimiterAbstract => {
    let limiter = limiters.get(points);
    if (!limiter) {
      // If Redis is unreachable, each process falls back to its own memory counters rather than
      // refusing all traffic: a rate limiter must not become an outage.
      limiter = new RateLimiterRedis({
        storeClient: redis,
        points,
        duration: WINDOW_SECONDS,
        keyPrefix: prefix,
        insuranceLimiter: new RateLimiterMemory({
          points,
          duration: WINDOW_SECONDS,
          keyPrefix: prefix,
        }),
      });
      limiters.set(points, limiter);
    }
    return limiter;
  };
  return {
    kind: 'redis',
    async consume(key, limit, units = 1) {
      const decision = (res: RateLimiterRes, allowed: boolean) =>
        decide(limit, res.consumedPoints, res.msBeforeNext, allowed);
      try {
        return decision(await limiterFor(limit).consume(key, units), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(rejection, false);
        throw rejection;
      }
    },
    async ready(timeoutMs = 5000) {
      if (redis.status === 'ready') return true;
      return new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), timeoutMs);
        redis.once('ready', () => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function decide(limit: number, used: number, msLeft: number, allowed: boolean): RateDecision {
  return {
    limit,
    remaining: Math.max(0, limit - used),
    resetAt: Math.ceil((Date.now() + msLeft) / 1000),
    retryAfter: Math.max(1, Math.ceil(msLeft / 1000)),
    allowed,
  };
}

/**
 * This process's counters, as rate-limiter-flexible's memory limiter keeps them: a key's window
 * opens with its first unit and lasts WINDOW_SECONDS; units refused still count. Decided at once:
 * the limiter's promises and timers were ~2 % of a replayed request's CPU (issue 16). Closed
 * windows are dropped once a window, so memory holds the keys and addresses of the last minute.
 */
export class MemoryCounters {
  readonly #windows = new Map<string, { used: number; endsAt: number }>();
  #sweepAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  consume(key: string, limit: number, units: number): RateDecision {
    const now = this.now();
    if (now >= this.#sweepAt) this.#sweep(now);
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      window = { used: 0, endsAt: now + WINDOW_SECONDS * 1000 };
      this.#windows.set(key, window);
    }
    window.used += units;
    return decide(limit, window.used, window.endsAt - now, window.used <= limit);
  }

  get size(): number {
    return this.#windows.size;
  }

  #sweep(now: number) {
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
    this.#sweepAt = now + WINDOW_SECONDS * 1000;
  }
}

/**
 * Outside the REST routes (which spend their row's unit): reads are GET/HEAD, GraphQL queries
 * and MCP messages other than a call of a writing tool; everything else spends the write budget.
 * So a tool call costs what its REST route costs.
 */
export function bucketOf(req: Request, readTools: ReadonlySet<string> = new Set()): Bucket {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return 'read';
  if (req.path === '/graphql' || req.baseUrl === '/graphql')
    return isGraphQLMutation(req.body) ? 'write' : 'read';
  if (req.path === '/api/mcp') return callsWritingTool(req.body, readTools) ? 'write' : 'read';
  return 'write';
}

function callsWritingTool(body: unknown, readTools: ReadonlySet<string>): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((m) => {
    const message = m as { method?: unknown; params?: { name?: unknown } } | null;
    return message?.method === 'tools/call' && !readTools.has(String(message.params?.name));
  });
}

function isGraphQLMutation(body: unknown): boolean {
  const query = (body as { query?: unknown } | undefined)?.query;
  if (typeof query !== 'string') return false;
  try {
    return parse(query).definitions.some(
      (d) => d.kind === Kind.OPERATION_DEFINITION && d.operation === OperationTypeNode.MUTATION,
    );
  } catch {
    return false; // yoga answers the syntax error; count it as a read
  }
}

/**
 * Spends `units` of the caller's bucket (default 1); over budget, 429 with Retry-After. Decided
 * at once with memory counters (undefined, or a throw), later with Redis (a promise).
 */
export function spend(
  store: RateLimitStore,
  req: Request,
  res: Response,
  bucket: Bucket,
  units = 1,
): Promise<void> | undefined {
  const principal = locals(res).principal;
  const limit =
    (bucket === 'read' ? principal?.readLimit : principal?.writeLimit) ?? DEFAULT_LIMITS[bucket];
  const subject = principal ? `key:${principal.keyId}` : `ip:${req.ip}`;
  const decided = store.consume(`${subject}:${bucket}`, limit, units);
  if (decided instanceof Promise) return decided.then((d) => apply(res, d, bucket, units));
  apply(res, decided, bucket, units);
}

function apply(res: Response, d: RateDecision, bucket: Bucket, units: number): void {
  res.setHeader('x-ratelimit-limit', String(d.limit));
  res.setHeader('x-ratelimit-remaining', String(d.remaining));
  res.setHeader('x-ratelimit-reset', String(d.resetAt));
  if (!d.allowed) {
    const retryAfter = d.retryAfter;
    throw new AppError(
      'rate_limited',
      `Rate limit of ${d.limit} ${bucket} requests per minute exceeded${units > 1 ? ` (this one costs ${units} units)` : ''}. Retry in ${retryAfter} s.`,
      { headers: { 'retry-after': String(retryAfter) } },
    );
  }
}

/** For everything that is not a REST route: GraphQL, MCP, pages, unknown paths (bucketOf). */
export const rateLimit =
  (store: RateLimitStore, readTools?: ReadonlySet<string>): RequestHandler =>
  (req, res, next) => {
    // GraphQL and MCP batches are charged by what they ask for (http/request-charge.ts).
    const charge = locals(res).charge;
    const pending = spend(
      store,
      req,
      res,
      charge?.bucket ?? bucketOf(req, readTools),
      charge?.units,
    );
    if (pending) pending.then(() => next(), next);
    else next();
  };
