// Free text from outside the service in tool results. An agent reads tool output as part of its
// context, so text a buyer, a player or a partner's system typed (a name, a nickname, an address,
// a note, a reason, a tracking code) could try to pass for instructions.
// So such text is never in a result's text content: the summary names where it is (its paths)
// and says it is data. The structured result keeps it as plain JSON values, data by
// construction, and the listed output schema says which fields hold it (listing.ts).

/**
 * Fields whose text comes from buyers, players or partner systems, not from the service or its
 * operators. (Catalog texts are authored by operators in the backoffice and are not listed.)
 */
export const UNTRUSTED_FIELDS: ReadonlySet<string> = new Set([
  // customers, as the partner mirrors its players
  'external_id',
  'segment_id',
  'first_name',
  'last_name',
  'nickname',
  'email',
  'phone',
  'address_line',
  'postal_code',
  'zone',
  'locality',
  'city',
  'state',
  'status_note',
  // orders and their shipping, as buyers and partners write them
  'recipient_name',
  'shipping_address',
  'carrier',
  'tracking_code',
  'tracking_url',
  // coin movements and engine events
  'reason',
  'correlation_id',
  // the same on the establishment family (camelCase), and its players, orders and standings
  'externalId',
  'firstName',
  'lastName',
  'playerName',
  'name',
  'playerFirstName',
  'playerLastName',
  'playerEmail',
  'contactEmail',
  'address',
  'addressLine1',
  'addressLine2',
  'postalCode',
  'province',
  'country',
  'trackingNumber',
  'trackingCode',
  'trackingUrl',
  'recipientName',
  'shippingAddress',
  'statusNote',
  'correlationId',
  'note',
]);

/** Objects whose every value is the service's own word: `responsible_gaming.state` is no address. */
export const SERVICE_OBJECTS: ReadonlySet<string> = new Set(['responsible_gaming']);

/**
 * Where a result holds untrusted text: `data.nickname`, `data[].recipient_name` (any item of a
 * list), each path once, in the order found. Only non-empty strings count.
 */
export function untrustedPaths(value: unknown, path = ''): string[] {
  const found = new Set<string>();
  const walk = (v: unknown, at: string) => {
    if (Array.isArray(v)) return v.forEach((item) => walk(item, `${at}[]`));
    if (!v || typeof v !== 'object') return;
    for (const [key, inner] of Object.entries(v)) {
      const here = at ? `${at}.${key}` : key;
      if (SERVICE_OBJECTS.has(key)) continue;
      if (UNTRUSTED_FIELDS.has(key) && typeof inner === 'string' && inner !== '') found.add(here);
      else walk(inner, here);
    }
  };
  walk(value, path);
  return [...found];
}
