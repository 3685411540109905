// One formatter each, made once: toLocaleString with options builds a new Intl formatter on
// every call, which costs more than the rest of a table row (a list renders 100 of them).
const integer = new Intl.NumberFormat('en-GB');
const instant = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
export const count = (n: number) => integer.format(n);
export const coins = (n: number) => `${integer.format(n)} coins`;
export const signedCoins = (n: number) => `${n > 0 ? '+' : ''}${integer.format(n)}`;
export const when = (iso: string) => `${instant.format(new Date(iso))} UTC`;
export const money = (minor: number, currency: string) =>
  (minor / 100).toLocaleString('en-GB', { style: 'currency', currency });
/** A NumberInput's value: Mantine passes a string while the text is not a plain number ("1.50"). */
export const numberOr = (v: number | string): number | '' =>
  typeof v === 'number' ? v : v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : '';
