// One formatter each, made once per locale: toLocaleString with options builds a new Intl
// formatter on every call, which costs more than the rest of a table row (a list renders 100 of
// them). They follow the operator's language (en → en-GB, es → es-ES) and are rebuilt on the
// first use after a switch. Instants are shown in UTC, and say so.
import { currentLocale, t } from '../i18n';

type Formatters = {
  locale: string;
  integer: Intl.NumberFormat;
  percent: Intl.NumberFormat;
  instant: Intl.DateTimeFormat;
  currencies: Map<string, Intl.NumberFormat>;
};
let made: Formatters | undefined;

/** The formatters of the chosen locale (rebuilt when it has changed). */
function formatters(): Formatters {
  const locale = currentLocale();
  if (made?.locale !== locale)
    made = {
      locale,
      integer: new Intl.NumberFormat(locale),
      percent: new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }),
      instant: new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'UTC',
      }),
      currencies: new Map(),
    };
  return made;
}

export const count = (n: number) => formatters().integer.format(n);
/** A share (0.5) as a percentage ("50%", "50 %"). */
export const percent = (share: number) => formatters().percent.format(share);
export const coins = (n: number) => t('{n} coins', { n: count(n) });
export const signedCoins = (n: number) => `${n > 0 ? '+' : ''}${count(n)}`;
export const when = (iso: string) => `${formatters().instant.format(new Date(iso))} UTC`;
export const money = (minor: number, currency: string) => {
  const f = formatters();
  let format = f.currencies.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(f.locale, { style: 'currency', currency });
    f.currencies.set(currency, format);
  }
  return format.format(minor / 100);
};
/** A NumberInput's value: Mantine passes a string while the text is not a plain number ("1.50"). */
export const numberOr = (v: number | string): number | '' =>
  typeof v === 'number' ? v : v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : '';
