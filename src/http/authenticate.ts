// Reads the bearer key. It only records who is calling (or why not): the rate limiter needs the
// key either way, and each route decides whether it needs one (requirePrincipal).
import type { Request, RequestHandler, Response } from 'express';
import ipaddr from 'ipaddr.js';
import { driverOf, sqlFor } from '../db/sql.js';
import { AppError } from '../domain/errors.js';
import { playerPrincipal } from '../domain/store-sessions/player-principal.js';
import { authenticateApiKey, type Principal } from '../domain/tenancy/authenticate-api-key.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { locals } from './locals.js';
import { PrincipalCache } from './principal-cache.js';

/** One cache per database handle, shared by the apps that serve it. */
const caches = new WeakMap<PrismaClient, PrincipalCache>();
function cacheFor(prisma: PrismaClient): PrincipalCache {
  let cache = caches.get(prisma);
  if (!cache) caches.set(prisma, (cache = new PrincipalCache(driverOf(prisma)?.listen)));
  return cache;
}

/**
 * Records the caller of a request on its locals (or why there is none); never refuses. A key
 * whose principal is cached is known at once (no promise): most calls.
 */
export function authenticator(
  prisma: PrismaClient,
  now: () => Date = () => new Date(),
): (req: Request, res: Response) => Promise<void> | undefined {
  const cache = cacheFor(prisma);
  const db = sqlFor(prisma);
  return (req, res) => {
    const header = req.headers.authorization;
    if (!header) {
      locals(res).authFailure = 'missing';
      return;
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      locals(res).authFailure = 'malformed';
      return;
    }
    const key = match[1]!;
    // A player's store session (the marketplace): checked on every request, never cached, so a
    // sign-out (POST /iframe/logout) takes effect at once.
    if (key.startsWith('ss_')) {
      return playerPrincipal(prisma, key, now()).then(
        (principal) => void (locals(res).principal = principal),
        (error: unknown) => {
          if (!(error instanceof AppError)) throw error;
          locals(res).authFailure = 'session_ended';
        },
      );
    }
    const cached = cache.cached(key);
    if (cached) {
      locals(res).principal = cached;
      return;
    }
    return cache
      .load(key, () => authenticateApiKey(db, key))
      .then((outcome) => {
        if ('principal' in outcome) locals(res).principal = outcome.principal;
        else locals(res).authFailure = outcome.failure;
      });
  };
}

export const authenticate = (prisma: PrismaClient, now?: () => Date): RequestHandler => {
  const identify = authenticator(prisma, now);
  return (req, res, next) => {
    const pending = identify(req, res);
    if (pending) pending.then(() => next(), next);
    else next();
  };
};

const FAILURE_MESSAGES = {
  missing: 'Send your API key as `Authorization: Bearer svc_live_…` or `svc_test_…`.',
  malformed:
    'The Authorization header must be `Bearer ` followed by a key svc_live_<32 hex> or svc_test_<32 hex>.',
  unknown: 'This API key is not valid.',
  revoked: 'This API key has been revoked.',
  session_ended:
    'This store session is not valid, has expired or was signed out: the site that opened the marketplace can open a new one.',
} as const;

/** The caller, or 401; then 403 when the key's allowlist refuses the caller's address. */
export function requirePrincipal(req: Request, res: Response): Principal {
  const l = locals(res);
  if (!l.principal) {
    throw new AppError('unauthorized', FAILURE_MESSAGES[l.authFailure ?? 'missing'], {
      headers: { 'www-authenticate': 'Bearer' },
    });
  }
  if (l.principal.allowedCidrs.length && !ipAllowed(req.ip ?? '', l.principal.allowedCidrs)) {
    throw new AppError('forbidden', `This key may not be used from ${req.ip}.`);
  }
  return l.principal;
}

export function ipAllowed(ip: string, cidrs: string[]): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.process(ip); // ::ffff:1.2.3.4 becomes 1.2.3.4
  } catch {
    return false;
  }
  return cidrs.some((cidr) => {
    try {
      const range = cidr.includes('/')
        ? ipaddr.parseCIDR(cidr)
        : ipaddr.parseCIDR(`${cidr}/${cidr.includes(':') ? 128 : 32}`);
      const [net] = range;
      if (net.kind() !== address.kind()) return false;
      return address.match(range);
    } catch {
      return false;
    }
  });
}
