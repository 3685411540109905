// /admin: the backoffice. Its sign-in API (/admin/api/*), GraphiQL for signed-in staff (from the
// installed package, no CDN), and the React app built into web/dist (see docs/backoffice.md).
// Mounted before the general rate limiter: static files are cheap, and sign-in has its own
// throttle (per e-mail and per client address).
import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { signIn, signOut, signOutEverywhere } from '../domain/staff/sessions.js';
import { subBrandsOf } from '../domain/staff/staff-principal.js';
import type { StaffIdentity } from '../domain/staff/roles.js';
import { accountRoutes, sameOrigin } from './account-routes.js';
import { exportCustomersCsv } from './customers-csv.js';
import { exportRgDecisionsCsv } from './rg-decisions-csv.js';
import { exportAuditCsv } from './audit-csv.js';
import { exportMovementsCsv } from './movements-csv.js';
import { exportOrdersCsv } from './orders-csv.js';
import { precompressed, sendPrecompressed } from './precompressed.js';
import { asAppError } from '../http/error-response.js';
import { locals } from '../http/locals.js';
import type { RateLimitStore } from '../http/rate-limit.js';
import { requireCsrf, sessionOf, setSessionCookie } from '../http/staff-session.js';
import type { Logger } from '../logger.js';

export const WEB_DIST = path.resolve(import.meta.dirname, '../../web/dist');

/** Wrong passwords allowed per e-mail before it is locked for the rest of the window. */
export const SIGN_IN_FAILURES = { points: 5, durationSeconds: 15 * 60 };
/** Sign-in attempts per client address per minute, whatever the e-mail. */
export const SIGN_IN_PER_ADDRESS = 30;

const CSP =
  "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";

export function backofficeRouter(deps: {
  db: Db;
  rateLimits: RateLimitStore;
  logger: Logger;
  webDist?: string;
  /** Serve GraphiQL to signed-in staff: outside production only (docs/production.md). */
  graphiql: boolean;
}): Router {
  const router = Router();
  const dist = deps.webDist ?? WEB_DIST;
  // Per process: with several processes an attacker gets 5 guesses per process per window; the
  // per-address budget below is shared through Redis when REDIS_URL is set.
  const failures = new RateLimiterMemory({
    points: SIGN_IN_FAILURES.points,
    duration: SIGN_IN_FAILURES.durationSeconds,
    keyPrefix: 'signin-fail',
  });

  /** One more wrong password or code for this key (an e-mail, or an account's id). */
  const countFailure = (key: string) =>
    failures.consume(key).then(
      () => undefined,
      (r: unknown) => {
        if (!(r instanceof RateLimiterRes)) throw r;
      },
    );
  /** Sign-in attempts (and link pages) per client address, whatever the e-mail. */
  const perAddress = async (req: Request) => {
    const budget = await deps.rateLimits.consume(`signin:ip:${req.ip}`, SIGN_IN_PER_ADDRESS);
    if (!budget.allowed) throw tooMany(budget.retryAfter);
  };
  /** Refused while the key has used up its wrong guesses. */
  const notLockedOut = async (key: string) => {
    const record = await failures.get(key);
    if (record && record.consumedPoints >= SIGN_IN_FAILURES.points)
      throw tooMany(Math.ceil(record.msBeforeNext / 1000));
  };

  const api = Router();
  api.use(express.json({ limit: '16kb' }));
  api.use((_req, res, next) => {
    res.setHeader('cache-control', 'no-store');
    next();
  });

  api.post(
    '/sign-in',
    handle(async (req, res) => {
      sameOrigin(req);
      const body = (req.body ?? {}) as { email?: unknown; password?: unknown; code?: unknown };
      if (typeof body.email !== 'string' || typeof body.password !== 'string' || !body.email)
        throw new AppError('invalid_request', 'Send { "email": "…", "password": "…" } as JSON.');
      const email = body.email.trim().toLowerCase();
      await perAddress(req);
      await notLockedOut(email);
      if (body.code !== undefined && typeof body.code !== 'string')
        throw new AppError(
          'invalid_request',
          'code is the 6 digits of the app, or a recovery code.',
        );
      let session;
      try {
        session = await signIn(deps.db, {
          email,
          password: body.password,
          code: body.code,
          userAgent: req.get('user-agent'),
        });
      } catch (error) {
        if (error instanceof AppError && error.code === 'unauthorized') await countFailure(email);
        throw error;
      }
      // The password was right; the code is asked for next (no session yet, not a failure).
      if ('twoFactorRequired' in session) return void res.json({ twoFactorRequired: true });
      await failures.delete(email);
      setSessionCookie(req, res, session.token);
      res.json(await sessionBody(deps, session.staff, session.csrfToken));
    }),
  );

  api.get(
    '/session',
    handle(async (req, res) => {
      const session = await sessionOf(deps.db, req);
      if (!session) throw signedOut();
      res.json(await sessionBody(deps, session.staff, session.csrfToken));
    }),
  );

  api.post(
    '/sign-out',
    handle(async (req, res) => {
      const session = await sessionOf(deps.db, req);
      if (session) {
        requireCsrf(req, session.csrfToken);
        await signOut(deps.db, session.sessionId);
      }
      setSessionCookie(req, res, null);
      res.status(204).end();
    }),
  );

  api.post(
    '/sign-out-everywhere',
    handle(async (req, res) => {
      const session = await sessionOf(deps.db, req);
      if (!session) throw signedOut();
      requireCsrf(req, session.csrfToken);
      const ended = await signOutEverywhere(deps.db, session.staff.userId);
      setSessionCookie(req, res, null);
      res.json({ ended });
    }),
  );

  accountRoutes(api, {
    db: deps.db,
    handle,
    sessionBody: (staff, csrf) => sessionBody(deps, staff, csrf),
    guard: { countFailure, notLockedOut },
    perAddress,
  });

  api.get(
    '/customers.csv',
    handle((req, res) => exportCustomersCsv(deps.db, req, res)),
  );
  api.get(
    '/rg-decisions.csv',
    handle((req, res) => exportRgDecisionsCsv(deps.db, req, res)),
  );
  api.get(
    '/orders.csv',
    handle((req, res) => exportOrdersCsv(deps.db, req, res)),
  );
  api.get(
    '/movements.csv',
    handle((req, res) => exportMovementsCsv(deps.db, req, res)),
  );
  api.get(
    '/audit.csv',
    handle((req, res) => exportAuditCsv(deps.db, req, res)),
  );

  api.use(
    handle(async (req) => {
      throw new AppError('not_found', `No route ${req.method} /admin/api${req.path}.`);
    }),
  );
  router.use('/admin/api', api);

  // GraphiQL with every script and style inlined from @graphql-yoga/render-graphiql. It sends
  // the session's CSRF token, so it works only for the staff member it was rendered for. Not in
  // production (issue 29, G4): a console that runs any document of the schema is a tool for
  // building and debugging, and in production it is one more page to keep safe; people there act
  // through the screens, which ask before they move coins.
  if (deps.graphiql)
    router.get(
      '/admin/graphiql',
      handle(async (req, res) => {
        const session = await sessionOf(deps.db, req);
        if (!session) return void res.redirect(303, '/admin/sign-in?next=/graphiql');
        res.setHeader('cache-control', 'no-store');
        // Loaded on first use: GraphiQL's inlined bundle is a large module to parse at start-up.
        const { renderGraphiQL } = await import('@graphql-yoga/render-graphiql');
        res.type('html').send(
          renderGraphiQL({
            endpoint: '/graphql',
            title: 'Partner Rewards GraphiQL',
            credentials: 'same-origin',
            headers: JSON.stringify(
              { 'X-CSRF-Token': session.csrfToken, 'X-Environment': 'test' },
              null,
              2,
            ),
          } as Parameters<typeof renderGraphiQL>[0]),
        );
      }),
    );

  const built = existsSync(path.join(dist, 'index.html'));
  if (built) {
    // Hashed file names: cache them for a year; index.html is never cached. Each is sent as its
    // brotli or gzip copy, made at build time (the `precompress` plugin of web/vite.config.ts),
    // to a client accepting it.
    const assets = path.join(dist, 'assets');
    router.use('/admin/assets', precompressed(assets));
    router.use(
      '/admin/assets',
      express.static(assets, { index: false, immutable: true, maxAge: '1y' }),
    );
    router.get('/admin/favicon.svg', (req, res) => {
      res.setHeader('cache-control', 'public, max-age=86400');
      sendPrecompressed(req, res, path.join(dist, 'favicon.svg'));
    });
  }
  const page: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/admin/assets/')) return next(); // a missing asset is a 404
    res.setHeader('cache-control', 'no-store');
    if (!built) {
      res
        .status(503)
        .type('text')
        .send('The backoffice is not built yet: run `npm run web:build` (npm install does it).');
      return;
    }
    res.setHeader('content-security-policy', CSP);
    res.setHeader('x-frame-options', 'DENY');
    sendPrecompressed(req, res, path.join(dist, 'index.html'));
  };
  // Every screen's URL opens the app, which routes on the client (a list's filters are links);
  // GraphiQL's, where it is not served, is a plain 404.
  router.get(/^\/admin(\/(?!api\/|exclusive|graphiql$).*)?$/, page);
  return router;

  function handle(fn: (req: Request, res: Response) => Promise<void>): RequestHandler {
    return (req, res) =>
      void fn(req, res).catch((err: unknown) => {
        const error = asAppError(err, deps.logger, locals(res).requestId);
        if (res.headersSent) return void res.end();
        res
          .status(STATUS[error.code] ?? 500)
          .set(error.headers)
          .json({
            error: { code: error.code, message: error.message, request_id: locals(res).requestId },
          });
      });
  }
}

const STATUS: Partial<Record<string, number>> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
};

async function sessionBody(
  deps: { db: Db; graphiql: boolean },
  staff: StaffIdentity,
  csrfToken: string,
) {
  return {
    staff: {
      id: staff.userId,
      email: staff.email,
      role: staff.role,
      brandId: staff.brandId,
      subBrandId: staff.subBrandId,
    },
    csrfToken,
    /** `setup_required`: the brand requires a second factor; only its setup is open. */
    twoFactor: staff.twoFactor,
    subBrands: staff.twoFactor === 'setup_required' ? [] : await subBrandsOf(deps.db, staff),
    /** Whether /admin/graphiql is served (not in production). */
    graphiql: deps.graphiql,
  };
}

const signedOut = () => new AppError('unauthorized', 'Not signed in, or the session has ended.');

const tooMany = (retryAfter: number) =>
  new AppError(
    'rate_limited',
    `Too many sign-in attempts. Try again in ${inHumanTerms(retryAfter)}.`,
    { headers: { 'retry-after': String(Math.max(1, retryAfter)) } },
  );

/** A wait as a person says it: "40 seconds" under a minute, else minutes rounded up. */
export function inHumanTerms(seconds: number): string {
  const s = Math.max(1, Math.ceil(seconds));
  if (s < 60) return s === 1 ? '1 second' : `${s} seconds`;
  const minutes = Math.ceil(s / 60);
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}
