// A staff audit entry's before and after as field-by-field changes an operator can read
// ("Status: active → blocked", "Balance: 1,200 → 1,450"): nested objects flattened by path, values
// shown compactly. Pure (no React, no DOM), so it is unit-tested on its own
// (test/backoffice/audit-diff.test.ts).

export type Change =
  | { kind: 'changed'; path: string; label: string; before: string; after: string; delta?: string }
  | { kind: 'added'; path: string; label: string; after: string }
  | { kind: 'removed'; path: string; label: string; before: string };

/** Values longer than this are cut with an ellipsis (the raw JSON keeps them whole). */
export const MAX_VALUE_LENGTH = 80;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Leaves by dotted path (`shipping.city`, `items[0].sku`). Arrays of plain values and empty
 * objects or arrays are leaves (shown as compact JSON); arrays holding objects are walked by index.
 */
export function flatten(value: unknown, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (v: unknown, path: string) => {
    if (isObject(v) && Object.keys(v).length > 0) {
      for (const [k, child] of Object.entries(v)) walk(child, path ? `${path}.${k}` : k);
    } else if (Array.isArray(v) && v.some((x) => isObject(x) || Array.isArray(x))) {
      v.forEach((child, i) => walk(child, `${path}[${i}]`));
    } else {
      out.set(path, v);
    }
  };
  walk(value, prefix);
  return out;
}

const WORDS: Record<string, string> = { url: 'URL', csv: 'CSV', api: 'API', rg: 'RG' };

/** One key in words: `coinBalance` → `Coin balance`, `sub_brand_id` → `Sub brand id`. */
export function words(key: string): string {
  const spaced = key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  if (!spaced) return key;
  const parts = spaced.split(/\s+/).map((w, i) => (i > 0 && WORDS[w] ? WORDS[w] : w));
  const text = parts.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A path in words: `shipping.city` → `Shipping › City`, `items[0].sku` → `Items 1 › Sku`. */
export function labelOf(path: string): string {
  if (!path) return 'Value';
  return path
    .split('.')
    .map((part) => {
      const m = /^(.*?)((?:\[\d+\])*)$/.exec(part)!;
      const indexes = [...m[2]!.matchAll(/\[(\d+)\]/g)].map((x) => String(Number(x[1]) + 1));
      return [m[1] ? words(m[1]) : '', ...indexes].filter(Boolean).join(' ');
    })
    .join(' › ');
}

const cut = (text: string) =>
  text.length > MAX_VALUE_LENGTH ? `${text.slice(0, MAX_VALUE_LENGTH - 1)}…` : text;

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const formatters = new Map<string, Intl.DateTimeFormat>();
/** An instant in the locale and time zone (the runtime's when not given), the zone named. */
function instantText(iso: string, locale: string, timeZone: string | undefined): string {
  const key = `${locale}|${timeZone ?? ''}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
      ...(timeZone ? { timeZone } : {}),
    });
    formatters.set(key, f);
  }
  return f.format(new Date(iso));
}

/**
 * A value as an operator reads it: numbers grouped in the locale, instants (ISO strings) as dates
 * in the locale and time zone, JSON compact, long text cut.
 */
export function formatValue(value: unknown, locale = 'en-GB', timeZone?: string): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return new Intl.NumberFormat(locale).format(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' && INSTANT.test(value) && !Number.isNaN(Date.parse(value)))
    return instantText(value, locale, timeZone);
  if (typeof value === 'string') return value === '' ? '(empty)' : cut(value);
  return cut(JSON.stringify(value));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The changes from `before` to `after`, in the order the fields appear (after's first, then those
 * only before had). No `before` (a mutation recorded with its result only): every field is added.
 */
export function auditDiff(
  before: unknown,
  after: unknown,
  locale = 'en-GB',
  timeZone?: string,
): Change[] {
  const a = before === null || before === undefined ? new Map() : flatten(before);
  const b = after === null || after === undefined ? new Map() : flatten(after);
  const out: Change[] = [];
  const number = new Intl.NumberFormat(locale, { signDisplay: 'always' });
  for (const [path, next] of b) {
    const label = labelOf(path);
    if (!a.has(path)) {
      out.push({ kind: 'added', path, label, after: formatValue(next, locale, timeZone) });
      continue;
    }
    const prev = a.get(path);
    if (same(prev, next)) continue;
    const change: Change = {
      kind: 'changed',
      path,
      label,
      before: formatValue(prev, locale, timeZone),
      after: formatValue(next, locale, timeZone),
    };
    if (typeof prev === 'number' && typeof next === 'number') {
      change.delta = number.format(next - prev);
    }
    out.push(change);
  }
  for (const [path, prev] of a) {
    if (!b.has(path)) {
      out.push({
        kind: 'removed',
        path,
        label: labelOf(path),
        before: formatValue(prev, locale, timeZone),
      });
    }
  }
  return out;
}

/** A change as one line of text (what the screen shows, and what a test reads). */
export function changeText(c: Change): string {
  switch (c.kind) {
    case 'changed':
      return `${c.label}: ${c.before} → ${c.after}${c.delta ? ` (${c.delta})` : ''}`;
    case 'added':
      return `${c.label}: ${c.after} (added)`;
    case 'removed':
      return `${c.label}: ${c.before} (removed)`;
  }
}

/** The arguments of a change, flattened, as "Label: value" (the target's own id left out). */
export function argsSummary(args: unknown, targetId: string | null, locale = 'en-GB'): string[] {
  if (!isObject(args)) return [];
  return [...flatten(args)]
    .filter(([, v]) => v !== null && v !== undefined && v !== targetId)
    .map(([path, v]) => `${labelOf(path)}: ${formatValue(v, locale)}`);
}
