export const coins = (n: number) => `${n.toLocaleString('en-GB')} coins`;
export const signedCoins = (n: number) => `${n > 0 ? '+' : ''}${n.toLocaleString('en-GB')}`;
export const when = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }) + ' UTC';
export const money = (minor: number, currency: string) =>
  (minor / 100).toLocaleString('en-GB', { style: 'currency', currency });
/** A NumberInput's value: Mantine passes a string while the text is not a plain number ("1.50"). */
export const numberOr = (v: number | string): number | '' =>
  typeof v === 'number' ? v : v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : '';
