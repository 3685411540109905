// What the backoffice's CSV downloads share: the signed-in staff member's tenant (the export is a
// plain link, so the tenant comes as query parameters and no CSRF header is asked: the session
// cookie is SameSite=Strict, never sent cross-site, and an export changes nothing), the audit of
// the read, and a streamed body written with back-pressure.
import type { Request, Response } from 'express';
import { csvLine } from '../domain/csv.js';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { recordAudit } from '../domain/staff/audit.js';
import { scopesOfRole } from '../domain/staff/roles.js';
import { principalForStaff } from '../domain/staff/staff-principal.js';
import type { Tenant } from '../domain/tenant.js';
import { locals } from '../http/locals.js';
import { sessionOf } from '../http/staff-session.js';

/** A query parameter's text, or undefined when absent or empty. */
export const queryText = (req: Request, name: string): string | undefined => {
  const value = (req.query as Record<string, unknown>)[name];
  return typeof value === 'string' && value ? value : undefined;
};

/** The staff member's tenant for an export needing `scope`, its read audited as `action`. */
export async function exportTenant(
  db: Db,
  req: Request,
  res: Response,
  /** `scope` null: any staff member (as the audit trail's screen). */
  options: { scope: string | null; action: string; args: unknown; refused: string },
): Promise<Tenant> {
  const session = await sessionOf(db, req);
  if (!session) throw new AppError('unauthorized', 'Sign in to the backoffice first.');
  if (options.scope !== null && !scopesOfRole(session.staff.role).includes(options.scope))
    throw new AppError('forbidden', options.refused);
  const environment = queryText(req, 'environment') ?? 'test';
  if (environment !== 'live' && environment !== 'test')
    throw new AppError('invalid_request', 'environment must be live or test.');
  const principal = await principalForStaff(db, session.staff, {
    subBrandId: queryText(req, 'subBrandId'),
    environment,
  });
  const tenant: Tenant = { subBrandId: principal.subBrandId, environment };
  await recordAudit(db, {
    staffUserId: session.staff.userId,
    action: options.action,
    subBrandId: tenant.subBrandId,
    environment,
    targetId: null,
    args: options.args,
    before: null,
    after: null,
    requestId: locals(res).requestId,
  });
  return tenant;
}

/** A row of the pages an export reads (the domain's export functions). */
export type PageRow<P> = P extends AsyncIterable<(infer Row)[]> ? Row : never;

/** Streams `columns`, then each page's rows as CSV lines (`cellsOf`), stopping when the client leaves. */

export async function streamCsv<Row>(
  res: Response,
  filename: string,
  columns: string[],
  pages: AsyncIterable<Row[]>,
  cellsOf: (row: Row) => Parameters<typeof csvLine>[0],
): Promise<void> {
  res.status(200);
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader('content-disposition', `attachment; filename="${filename}"`);
  res.setHeader('cache-control', 'no-store');
  await write(res, csvLine(columns));
  for await (const page of pages) {
    if (page.length) await write(res, page.map((row) => csvLine(cellsOf(row))).join(''));
    if (res.destroyed) break;
  }
  res.end();
}

/** Writes with back-pressure: waits for the socket to drain before reading the next page. */
function write(res: Response, chunk: string): Promise<void> {
  if (res.write(chunk)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.once('drain', done);
    res.once('close', done);
  });
}
