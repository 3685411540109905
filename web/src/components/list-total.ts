// A list's total as the server answers it (`total { value exact }`): "1,234 customers" when
// counted, "about 1.2 million customers (estimated)" past 10,000, where the server estimates;
// "more than 10,000 customers" when its statistics knew no better (src/domain/list-total.ts).
const integer = new Intl.NumberFormat('en-GB');
const rough = new Intl.NumberFormat('en-GB', {
  notation: 'compact',
  compactDisplay: 'long',
  maximumSignificantDigits: 2,
});

export type ListTotal = { value: number; exact: boolean };

/** The server's cap: exact up to it; cap + 1, not exact, means only "more than the cap". */
const CAP = 10_000;

export function totalText(total: ListTotal, one: string, many: string): string {
  const noun = total.value === 1 ? one : many;
  if (!total.exact && total.value <= CAP + 1) return `more than ${integer.format(CAP)} ${many}`;
  return total.exact
    ? `${integer.format(total.value)} ${noun}`
    : `about ${rough.format(total.value)} ${noun} (estimated)`;
}
