// The audit trail's filters live in the URL, so a filtered view is a link to share or reload:
// `/audit?staff=…&range=7d&action=adjustCustomerCoins&target=…`. The date range is a preset
// (today, the last 7 or 30 days, counted in the operator's own days) or custom days (`from`, `to`,
// both inclusive); both become instants at the operator's midnights for the server, which the
// screen's query and the CSV link send alike.

import { msg } from '../../i18n';

export const RANGES = ['today', '7d', '30d', 'custom'] as const;
export type Range = (typeof RANGES)[number];
/** In English, marked for the catalogs: shown as t(RANGE_LABEL[range]). */
export const RANGE_LABEL: Record<Range, string> = {
  today: msg('Today'),
  '7d': msg('Last 7 days'),
  '30d': msg('Last 30 days'),
  custom: msg('Custom dates'),
};

export type AuditQuery = {
  /** A staff member's id. */
  staff?: string;
  /** Or a staff member's e-mail. */
  staffEmail?: string;
  range?: Range;
  /** Custom range: the operator's days, YYYY-MM-DD, both inclusive. */
  from?: string;
  to?: string;
  action?: string;
  target?: string;
};

export function auditUrl(q: AuditQuery = {}): string {
  const p = new URLSearchParams();
  if (q.staff) p.set('staff', q.staff);
  if (q.staffEmail) p.set('staffEmail', q.staffEmail);
  if (q.range) p.set('range', q.range);
  if (q.range === 'custom' && q.from) p.set('from', q.from);
  if (q.range === 'custom' && q.to) p.set('to', q.to);
  if (q.action) p.set('action', q.action);
  if (q.target) p.set('target', q.target);
  return `/audit${p.size ? `?${p}` : ''}`;
}

export function parseAuditQuery(search: string): AuditQuery {
  const p = new URLSearchParams(search);
  const text = (name: string) => p.get(name)?.trim() || undefined;
  const range = text('range');
  // A link with only from/to is a custom range.
  const r: Range | undefined = (RANGES as readonly string[]).includes(range ?? '')
    ? (range as Range)
    : text('from') || text('to')
      ? 'custom'
      : undefined;
  return {
    staff: text('staff'),
    staffEmail: text('staffEmail'),
    range: r,
    from: r === 'custom' ? text('from') : undefined,
    to: r === 'custom' ? text('to') : undefined,
    action: text('action'),
    target: text('target') ?? text('targetId'),
  };
}

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** The operator's midnight starting a day (YYYY-MM-DD), `plus` days later; the text if not a day. */
function midnight(day: string, plus = 0): string {
  if (!DAY_RE.test(day)) return day; // sent as typed: the server refuses it in words
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const at = new Date(y, m - 1, d + plus);
  return Number.isNaN(at.getTime()) ? day : at.toISOString();
}

/** Today in the operator's calendar, YYYY-MM-DD. */
export function localDay(now = new Date(), minus = 0): string {
  const at = new Date(now.getFullYear(), now.getMonth(), now.getDate() - minus);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/** The operator's midnight starting a day (YYYY-MM-DD) as a Date. */
export function dayStart(day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** The range as the server's `from` (inclusive) and `to` (exclusive) instants. */
export function rangeBounds(q: AuditQuery, now = new Date()): { from?: string; to?: string } {
  switch (q.range) {
    case 'today':
      return { from: midnight(localDay(now)) };
    case '7d':
      return { from: midnight(localDay(now, 6)) };
    case '30d':
      return { from: midnight(localDay(now, 29)) };
    case 'custom':
      return {
        ...(q.from ? { from: midnight(q.from) } : {}),
        ...(q.to ? { to: midnight(q.to, 1) } : {}),
      };
    default:
      return {};
  }
}

/** The filter as `staffAudit`'s arguments and the CSV's parameters (the same names). */
export function auditFilter(q: AuditQuery, now = new Date()) {
  const { from, to } = rangeBounds(q, now);
  return {
    staffId: q.staff ?? null,
    staffEmail: q.staffEmail ?? null,
    from: from ?? null,
    to: to ?? null,
    action: q.action ?? null,
    targetId: q.target ?? null,
  };
}

/** The trail as filtered on screen, as a streamed CSV (GET /admin/api/audit.csv). */
export function auditCsvUrl(
  q: AuditQuery,
  tenant: { subBrandId: string | null; environment: string },
  now = new Date(),
): string {
  const p = new URLSearchParams({ environment: tenant.environment });
  if (tenant.subBrandId) p.set('subBrandId', tenant.subBrandId);
  for (const [k, v] of Object.entries(auditFilter(q, now))) if (v) p.set(k, v);
  return `/admin/api/audit.csv?${p.toString()}`;
}
