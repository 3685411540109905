// The signed-in person's own account (/admin/api/two-factor/*) and the one-time links sent to staff
// (/admin/api/invitation/*): an invitation or a password reset, by e-mail (docs/backoffice.md).
// Codes are guessed at most as often as passwords: wrong ones count against the account in the
// sign-in throttle. A session whose brand requires a second factor it lacks reaches these routes
// and /session only (the rest refuses it: domain/staff/staff-principal.ts).
import type { Request, RequestHandler, Response, Router } from 'express';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import type { StaffIdentity } from '../domain/staff/roles.js';
import { describeLink, redeemLink } from '../domain/staff/staff-admin.js';
import {
  beginTwoFactorSetup,
  disableOwnTwoFactor,
  enableTwoFactor,
  regenerateRecoveryCodes,
  twoFactorStatus,
} from '../domain/staff/two-factor.js';
import { requireCsrf, sessionOf, setSessionCookie } from '../http/staff-session.js';

type Deps = {
  db: Db;
  handle: (fn: (req: Request, res: Response) => Promise<void>) => RequestHandler;
  sessionBody: (staff: StaffIdentity, csrfToken: string) => Promise<unknown>;
  guard: {
    countFailure: (key: string) => Promise<void>;
    notLockedOut: (key: string) => Promise<void>;
  };
  perAddress: (req: Request) => Promise<void>;
};

const codeOf = (req: Request): string => {
  const code = (req.body as { code?: unknown } | undefined)?.code;
  if (typeof code !== 'string' || !code.trim())
    throw new AppError(
      'invalid_request',
      'Send { "code": "…" }: the 6 digits the app shows, or a recovery code.',
    );
  return code;
};

export function accountRoutes(api: Router, d: Deps): void {
  /** The session's account, with its CSRF token checked (every route here changes something). */
  const signedIn = async (req: Request) => {
    const session = await sessionOf(d.db, req);
    if (!session) throw new AppError('unauthorized', 'Not signed in, or the session has ended.');
    if (req.method !== 'GET') requireCsrf(req, session.csrfToken);
    return session;
  };
  /** A route that checks a code: locked out after too many wrong ones, as sign-in is. */
  const withCode = async (userId: string, run: () => Promise<unknown>) => {
    const key = `2fa:${userId}`;
    await d.guard.notLockedOut(key);
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError && error.code === 'invalid_request')
        await d.guard.countFailure(key);
      throw error;
    }
  };

  api.get(
    '/two-factor',
    d.handle(async (req, res) => {
      const { staff } = await signedIn(req);
      res.json(await twoFactorStatus(d.db, staff.userId));
    }),
  );

  api.post(
    '/two-factor/setup',
    d.handle(async (req, res) => {
      const { staff } = await signedIn(req);
      res.json(await beginTwoFactorSetup(d.db, staff.userId));
    }),
  );

  api.post(
    '/two-factor/enable',
    d.handle(async (req, res) => {
      const session = await signedIn(req);
      const code = codeOf(req);
      const recoveryCodes = await withCode(session.staff.userId, () =>
        enableTwoFactor(d.db, session.staff.userId, code),
      );
      // The session's own identity changes (a required setup is now done): answer the new one.
      const fresh = await sessionOf(d.db, req);
      res.json({
        recoveryCodes,
        session: fresh ? await d.sessionBody(fresh.staff, fresh.csrfToken) : null,
      });
    }),
  );

  api.post(
    '/two-factor/recovery-codes',
    d.handle(async (req, res) => {
      const { staff } = await signedIn(req);
      const code = codeOf(req);
      const recoveryCodes = await withCode(staff.userId, () =>
        regenerateRecoveryCodes(d.db, staff.userId, code),
      );
      res.json({ recoveryCodes });
    }),
  );

  api.post(
    '/two-factor/disable',
    d.handle(async (req, res) => {
      const { staff } = await signedIn(req);
      const code = codeOf(req);
      await withCode(staff.userId, () => disableOwnTwoFactor(d.db, staff.userId, code));
      res.status(204).end();
    }),
  );

  // The link's page: what it is for (the e-mail it was sent to), before a password is chosen.
  api.post(
    '/invitation/check',
    d.handle(async (req, res) => {
      await d.perAddress(req);
      const token = (req.body as { token?: unknown } | undefined)?.token;
      const link = typeof token === 'string' ? await describeLink(d.db, token) : null;
      if (!link)
        throw new AppError(
          'not_found',
          'This link no longer works: it was used, replaced by a newer one, or has expired. ' +
            'Ask an admin for a new one.',
        );
      res.json(link);
    }),
  );

  api.post(
    '/invitation/accept',
    d.handle(async (req, res) => {
      sameOrigin(req);
      await d.perAddress(req);
      const result = await redeemLink(d.db, req.body, req.get('user-agent'));
      if ('twoFactorRequired' in result) return void res.json(result);
      setSessionCookie(req, res, result.token);
      res.json(await d.sessionBody(result.staff, result.csrfToken));
    }),
  );
}

/** Login CSRF: a browser sends Origin on a cross-site POST; refuse one that is not ours. */
export function sameOrigin(req: Request): void {
  const origin = req.get('origin');
  if (!origin) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host !== req.get('host'))
    throw new AppError('forbidden', 'Sign-in is accepted only from the backoffice itself.');
}
