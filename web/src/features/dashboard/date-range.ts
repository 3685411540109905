// The dashboard's date range, kept in the URL (?range=7d|30d|90d|month|custom&from=&to=) so a
// view can be shared. Whole UTC days: `from` at 00:00 of its day, `to` exclusive (00:00 of the
// day after the last one shown).
import { msg } from '../../i18n';

// Labels in English, marked for the catalogs and shown as t(label).
export const PRESETS = [
  { value: '7d', label: msg('7 days') },
  { value: '30d', label: msg('30 days') },
  { value: '90d', label: msg('90 days') },
  { value: 'month', label: msg('This month') },
  { value: 'custom', label: msg('Custom') },
] as const;
export type Preset = (typeof PRESETS)[number]['value'];

export type DateRange = {
  preset: Preset;
  /** First day shown, YYYY-MM-DD (UTC). */
  first: string;
  /** Last day shown, YYYY-MM-DD (UTC), inclusive. */
  last: string;
};

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isDay = (s: string | null): s is string =>
  !!s && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

/** The range a URL's search string asks for; 30 days when it asks for none (or nonsense). */
export function parseRange(search: string, now = Date.now()): DateRange {
  const params = new URLSearchParams(search);
  const today = Date.parse(`${iso(now)}T00:00:00Z`);
  const preset = (PRESETS.find((p) => p.value === params.get('range'))?.value ?? '30d') as Preset;
  const first = params.get('from');
  const last = params.get('to');
  if (preset === 'custom' && isDay(first) && isDay(last) && first <= last)
    return { preset, first, last };
  if (preset === 'month') return { preset, first: `${iso(today).slice(0, 8)}01`, last: iso(today) };
  const days = preset === '7d' ? 7 : preset === '90d' ? 90 : 30;
  return {
    preset: preset === 'custom' ? '30d' : preset,
    first: iso(today - (days - 1) * DAY),
    last: iso(today),
  };
}

/** The search string for a range. */
export function rangeSearch(r: DateRange): string {
  return r.preset === 'custom'
    ? `?range=custom&from=${r.first}&to=${r.last}`
    : `?range=${r.preset}`;
}

/** The window the API takes: [from, to) instants. */
export function rangeWindow(r: DateRange): { from: string; to: string } {
  return {
    from: `${r.first}T00:00:00.000Z`,
    to: new Date(Date.parse(`${r.last}T00:00:00Z`) + DAY).toISOString(),
  };
}

/** Every day of the range, oldest first. */
export function rangeDays(r: DateRange): string[] {
  const start = Date.parse(`${r.first}T00:00:00Z`);
  const end = Date.parse(`${r.last}T00:00:00Z`);
  const days: string[] = [];
  for (let t = start; t <= end; t += DAY) days.push(iso(t));
  return days;
}
