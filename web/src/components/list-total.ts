// A list's total as the server answers it (`total { value exact }`): "1,234 customers" when
// counted, "about 1.2 million customers (estimated)" past 10,000, where the server estimates;
// "more than 10,000 customers" when its statistics knew no better (src/domain/list-total.ts).
// Numbers in the operator's locale; `one` and `many` are English nouns, translated here.
import { currentLocale, msg, t } from '../i18n';

/** The nouns the lists pass, marked for the catalogs. */
export const LIST_NOUNS = [
  msg('customer'),
  msg('customers'),
  msg('order'),
  msg('orders'),
  msg('product'),
  msg('products'),
  msg('execution'),
  msg('executions'),
  msg('delivery'),
  msg('deliveries'),
  msg('change'),
  msg('changes'),
  msg('campaign'),
  msg('campaigns'),
  msg('e-mail'),
  msg('e-mails'),
  msg('event'),
  msg('events'),
  msg('brand'),
  msg('brands'),
  msg('proposal'),
  msg('proposals'),
  msg('catalog'),
  msg('catalogs'),
  msg('refusal'),
  msg('refusals'),
  msg('staff account'),
  msg('staff accounts'),
];

let made: { locale: string; integer: Intl.NumberFormat; rough: Intl.NumberFormat } | undefined;
function formatters() {
  const locale = currentLocale();
  if (made?.locale !== locale)
    made = {
      locale,
      integer: new Intl.NumberFormat(locale),
      rough: new Intl.NumberFormat(locale, {
        notation: 'compact',
        compactDisplay: 'long',
        maximumSignificantDigits: 2,
      }),
    };
  return made;
}

export type ListTotal = { value: number; exact: boolean };

/** The server's cap: exact up to it; cap + 1, not exact, means only "more than the cap". */
const CAP = 10_000;

export function totalText(total: ListTotal, one: string, many: string): string {
  const { integer, rough } = formatters();
  const noun = t(total.value === 1 ? one : many);
  if (!total.exact && total.value <= CAP + 1)
    return t('more than {n} {things}', { n: integer.format(CAP), things: t(many) });
  return total.exact
    ? `${integer.format(total.value)} ${noun}`
    : t('about {n} {things} (estimated)', { n: rough.format(total.value), things: noun });
}
