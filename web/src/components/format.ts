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
