// The logistics e-mails' texts, per language (the product's name in the same language when the
// product has it). Every value is HTML-escaped in the HTML part: buyer text, product names and
// establishment names are data. `%BASE_URL%` stands for the server's public address, which only
// the dispatcher knows (src/notifications/dispatcher.ts); it is replaced when the message is sent.
export const TEMPLATES = [
  'reserved',
  'sent',
  'tracking',
  'shipped',
  'completed',
  'cancelled',
  'reversed',
] as const;
export type TemplateName = (typeof TEMPLATES)[number];

export const BASE_URL_MARK = '%BASE_URL%';

type Values = {
  establishment: string;
  product: string;
  reference: string;
  trackingNumber?: string | undefined;
  refunded?: number | undefined;
};

type Text = { subject: string; lines: string[] };
type Language = Record<TemplateName, (v: Values) => Text>;

const en: Language = {
  reserved: (v) => ({
    subject: `Your prize ${v.product} is reserved (${v.reference})`,
    lines: [
      `${v.establishment} reserved ${v.product} for you.`,
      `Order reference: ${v.reference}.`,
    ],
  }),
  sent: (v) => ({
    subject: `We have your delivery details (${v.reference})`,
    lines: [`Your delivery details for ${v.product} were received; we are preparing it.`],
  }),
  tracking: (v) => ({
    subject: `Tracking number for ${v.product} (${v.reference})`,
    lines: [`Your prize ${v.product} is on its way. Tracking number: ${v.trackingNumber ?? ''}.`],
  }),
  shipped: (v) => ({
    subject: `${v.product} has shipped (${v.reference})`,
    lines: [`Your prize ${v.product} has shipped.`],
  }),
  completed: (v) => ({
    subject: `${v.product} is yours (${v.reference})`,
    lines: [`Your prize ${v.product} has been delivered. Enjoy it!`],
  }),
  cancelled: (v) => ({
    subject: `Your reservation of ${v.product} was cancelled (${v.reference})`,
    lines: [
      `The reservation of ${v.product} was cancelled.`,
      ...(v.refunded ? [`${v.refunded} coins were returned to your balance.`] : []),
    ],
  }),
  reversed: (v) => ({
    subject: `Your prize ${v.product} was reversed (${v.reference})`,
    lines: [
      `The acquisition of ${v.product} was reversed.`,
      ...(v.refunded ? [`${v.refunded} coins were returned to your balance.`] : []),
    ],
  }),
};

const es: Language = {
  reserved: (v) => ({
    subject: `Tu premio ${v.product} está reservado (${v.reference})`,
    lines: [`${v.establishment} ha reservado ${v.product} para ti.`, `Referencia: ${v.reference}.`],
  }),
  sent: (v) => ({
    subject: `Hemos recibido tus datos de envío (${v.reference})`,
    lines: [`Hemos recibido tus datos de envío de ${v.product}; lo estamos preparando.`],
  }),
  tracking: (v) => ({
    subject: `Número de seguimiento de ${v.product} (${v.reference})`,
    lines: [`Tu premio ${v.product} está en camino. Seguimiento: ${v.trackingNumber ?? ''}.`],
  }),
  shipped: (v) => ({
    subject: `${v.product} ha sido enviado (${v.reference})`,
    lines: [`Tu premio ${v.product} ha sido enviado.`],
  }),
  completed: (v) => ({
    subject: `${v.product} ya es tuyo (${v.reference})`,
    lines: [`Tu premio ${v.product} ha sido entregado. ¡Que lo disfrutes!`],
  }),
  cancelled: (v) => ({
    subject: `Tu reserva de ${v.product} ha sido cancelada (${v.reference})`,
    lines: [
      `La reserva de ${v.product} ha sido cancelada.`,
      ...(v.refunded ? [`Se han devuelto ${v.refunded} monedas a tu saldo.`] : []),
    ],
  }),
  reversed: (v) => ({
    subject: `La entrega de ${v.product} ha sido anulada (${v.reference})`,
    lines: [
      `La adquisición de ${v.product} ha sido anulada.`,
      ...(v.refunded ? [`Se han devuelto ${v.refunded} monedas a tu saldo.`] : []),
    ],
  }),
};

const LANGUAGES: Record<string, Language> = { en, es };
const FOLLOW = { en: 'Follow your order', es: 'Sigue tu pedido' } as Record<string, string>;

/** The language of a locale tag (`es-ES` → `es`) that has templates, else English. */
export const templateLanguage = (locale: string): string => {
  const lang = locale.toLowerCase().split('-')[0] ?? 'en';
  return lang in LANGUAGES ? lang : 'en';
};

export const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** Subject and both bodies; `trackPath` is the order's tracking page path. */
export function render(
  template: TemplateName,
  language: string,
  values: Values,
  trackPath: string,
) {
  const lang = LANGUAGES[language] ? language : 'en';
  const { subject, lines } = LANGUAGES[lang]![template](values);
  const link = `${BASE_URL_MARK}${trackPath}`;
  const follow = FOLLOW[lang]!;
  // Subjects are plain text headers: no line breaks may reach them.
  const oneLine = subject.replace(/[\r\n]+/g, ' ').slice(0, 300);
  const html =
    `<!doctype html><html lang="${lang}"><body>` +
    lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('') +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(follow)}</a></p>` +
    `<p>${escapeHtml(values.establishment)}</p></body></html>`;
  const text = [...lines, '', `${follow}: ${link}`, '', values.establishment].join('\n');
  return { subject: oneLine, html, text };
}
