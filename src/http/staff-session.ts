// Staff members reach GraphQL with a session cookie instead of a key. The cookie alone is not
// enough: every cookie-authenticated request must also carry the session's CSRF token in
// X-CSRF-Token (a header a cross-site form cannot send), on top of SameSite=Strict. The chosen
// sub-brand and environment (X-Sub-Brand-Id, X-Environment) become the request's Principal.
import type { Request, RequestHandler, Response } from 'express';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { principalForStaff } from '../domain/staff/staff-principal.js';
import { ABSOLUTE_TIMEOUT_MS, findSession, sameToken } from '../domain/staff/sessions.js';
import { locals } from './locals.js';

export const SESSION_COOKIE = 'pr_staff';

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name)
      return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** httpOnly (scripts cannot read it), SameSite=Strict, Secure whenever the request came over TLS. */
export function setSessionCookie(req: Request, res: Response, token: string | null): void {
  res.cookie(SESSION_COOKIE, token ?? '', {
    httpOnly: true,
    sameSite: 'strict',
    secure: req.secure,
    path: '/',
    maxAge: token ? ABSOLUTE_TIMEOUT_MS : 0,
  });
}

/** The session behind the request's cookie, or null. */
export async function sessionOf(db: Db, req: Request) {
  const token = readCookie(req, SESSION_COOKIE);
  return token ? findSession(db, token) : null;
}

export function requireCsrf(req: Request, csrfToken: string): void {
  if (!sameToken(csrfToken, req.get('x-csrf-token'))) {
    throw new AppError(
      'forbidden',
      'This request needs the X-CSRF-Token header of your backoffice session.',
    );
  }
}

const environmentOf = (req: Request): 'live' | 'test' => {
  const value = req.get('x-environment') ?? 'test';
  if (value !== 'live' && value !== 'test')
    throw new AppError('invalid_request', 'X-Environment must be live or test.');
  return value;
};

/**
 * For /graphql: a request with no Authorization header but a valid session cookie and CSRF
 * token runs as the staff member. A key, when sent, always wins (the cookie is ignored).
 */
export const staffGraphQLAuth =
  (db: Db): RequestHandler =>
  async (req, res, next) => {
    try {
      if (req.headers.authorization || !readCookie(req, SESSION_COOKIE)) return next();
      const session = await sessionOf(db, req);
      if (!session) return next(); // expired or signed out: answered as "no key" (401)
      requireCsrf(req, session.csrfToken);
      const subBrandId = req.get('x-sub-brand-id') || undefined;
      locals(res).principal = await principalForStaff(db, session.staff, {
        subBrandId,
        environment: environmentOf(req),
      });
      delete locals(res).authFailure;
      next();
    } catch (error) {
      next(error);
    }
  };
