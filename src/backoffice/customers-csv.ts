// GET /admin/api/customers.csv: the backoffice's customer list, as filtered on screen, streamed
// as CSV in pages of 500 (keyset on id, newest first), so a large tenant never sits in memory.
// It is a plain link (the browser downloads it), so the tenant comes as query parameters and no
// CSRF header is asked: the session cookie is SameSite=Strict (never sent cross-site) and the
// export changes nothing. The read itself is audited: who took which tenant's players.
import type { Request, Response } from 'express';
import { customerWhere } from '../domain/customers/customer-where.js';
import { customerFilter } from '../domain/customers/schemas.js';
import { csvLine } from '../domain/csv.js';
import type { Db } from '../domain/db.js';
import { AppError } from '../domain/errors.js';
import { recordAudit } from '../domain/staff/audit.js';
import { scopesOfRole } from '../domain/staff/roles.js';
import { principalForStaff } from '../domain/staff/staff-principal.js';
import { parseInput } from '../domain/validation.js';
import { locals } from '../http/locals.js';
import { sessionOf } from '../http/staff-session.js';

const PAGE = 500;
const COLUMNS = [
  'id',
  'external_id',
  'first_name',
  'last_name',
  'nickname',
  'email',
  'phone',
  'country',
  'preferred_lang',
  'segment_id',
  'status',
  'balance',
  'order_count',
  'created_at',
];

export async function exportCustomersCsv(db: Db, req: Request, res: Response): Promise<void> {
  const session = await sessionOf(db, req);
  if (!session) throw new AppError('unauthorized', 'Sign in to the backoffice first.');
  if (!scopesOfRole(session.staff.role).includes('customers:read'))
    throw new AppError('forbidden', 'Your role cannot read customers.');
  const query = req.query as Record<string, unknown>;
  const text = (name: string) =>
    typeof query[name] === 'string' && query[name] ? (query[name] as string) : undefined;
  const environment = text('environment') ?? 'test';
  if (environment !== 'live' && environment !== 'test')
    throw new AppError('invalid_request', 'environment must be live or test.');
  const principal = await principalForStaff(db, session.staff, {
    subBrandId: text('subBrandId'),
    environment,
  });
  const filter = parseInput(customerFilter, {
    q: text('q'),
    status: text('status'),
    segmentId: text('segmentId'),
    country: text('country'),
  });
  const tenant = { subBrandId: principal.subBrandId, environment: principal.environment };
  await recordAudit(db, {
    staffUserId: session.staff.userId,
    action: 'exportCustomersCsv',
    subBrandId: tenant.subBrandId,
    environment,
    targetId: null,
    args: filter,
    before: null,
    after: null,
    requestId: locals(res).requestId,
  });

  res.status(200);
  res.setHeader('content-type', 'text/csv; charset=utf-8');
  res.setHeader(
    'content-disposition',
    `attachment; filename="customers-${environment}-${new Date().toISOString().slice(0, 10)}.csv"`,
  );
  res.setHeader('cache-control', 'no-store');
  await write(res, csvLine(COLUMNS));
  let before: string | undefined;
  for (;;) {
    const page = await db.customer.findMany({
      where: { AND: [customerWhere(tenant, filter), before ? { id: { lt: before } } : {}] },
      orderBy: { id: 'desc' },
      take: PAGE,
      include: { wallet: { select: { balance: true } } },
    });
    let chunk = '';
    for (const c of page) {
      chunk += csvLine([
        c.id,
        c.externalId,
        c.firstName,
        c.lastName,
        c.nickname,
        c.email,
        c.phone,
        c.country,
        c.preferredLang,
        c.segmentId,
        c.status,
        Number(c.wallet?.balance ?? 0),
        c.orderCount,
        c.createdAt.toISOString(),
      ]);
    }
    if (chunk) await write(res, chunk);
    if (page.length < PAGE || res.destroyed) break;
    before = page[page.length - 1]!.id;
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
