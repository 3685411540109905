// Examples for the OpenAPI documents, derived from the schemas themselves so they cannot drift:
// a field's own `examples` (set with `.meta({ examples })` where a made-up value would say
// little: a country, a currency, a reason) win; otherwise a value of the field's type, format and
// bounds. Redocly's lint (no-invalid-media-type-examples) checks every one against its schema.
type JsonSchema = Record<string, unknown>;

/** The id every example uses (the examples replay test swaps it for a seeded record). */
export const EXAMPLE_UUID = '0192f1e4-7a3b-7c1d-9e2f-3a4b5c6d7e8f';

/** Fixed values, so the documents are the same on every build. */
const BY_FORMAT: Record<string, string> = {
  uuid: EXAMPLE_UUID,
  'date-time': '2026-01-31T12:00:00.000Z',
  date: '2026-01-31',
  email: 'ana.garcia@example.com',
  uri: 'https://example.com/path',
  url: 'https://example.com/path',
};

/** Values tried, in order, against a string's pattern when it has no example of its own. */
const BY_PATTERN = [
  'EUR', // currencies
  'ES', // countries
  'en', // languages
  'req_0123456789abcdef0123456789abcdef', // request ids
  'example',
  'example-key-1',
];

export function exampleOf(
  schema: unknown,
  components: Record<string, unknown>,
  depth = 0,
): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as JsonSchema;
  const next = (child: unknown) => exampleOf(child, components, depth + 1);
  if (typeof s.$ref === 'string') {
    const name = /^#\/components\/schemas\/(.+)$/.exec(s.$ref)?.[1];
    return name ? next(components[name]) : null;
  }
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum.find((v) => v !== null) ?? s.enum[0];
  if (s.default !== undefined) return s.default;
  const options = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (options && options.every((o) => Array.isArray(o.required) && !o.type)) {
    // "Exactly one of these fields": keep the first option's, leave out the others'.
    const others = options.slice(1).flatMap((o) => o.required as string[]);
    const properties = withoutKeys((s.properties ?? {}) as JsonSchema, others);
    return next({ ...withoutKeys(s, ['anyOf', 'oneOf']), properties });
  }
  if (options) {
    const chosen = options.find((o) => o.type !== 'null') ?? options[0];
    return next({ ...withoutKeys(s, ['anyOf', 'oneOf']), ...chosen });
  }
  if (Array.isArray(s.allOf)) {
    // A shared shape, narrowed by the properties beside it (an error's `code` for this route).
    const parts = (s.allOf as unknown[]).map((part) => next(part) ?? {});
    const own = s.properties ? next(withoutKeys(s, ['allOf'])) : {};
    return deepMerge(Object.assign({}, ...parts), own);
  }
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type ?? (s.properties ? 'object' : undefined)) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(properties).map(([k, v]) => [k, next(namedFormat(k, v))]),
      );
    }
    case 'array': {
      const item = next(s.items);
      return Array.from({ length: Math.max(1, Number(s.minItems ?? 1)) }, () => item);
    }
    case 'integer':
    case 'number': {
      const min = num(s.minimum) ?? (num(s.exclusiveMinimum) ?? 0) + 1;
      const max = num(s.maximum) ?? num(s.exclusiveMaximum);
      return max !== undefined ? Math.min(Math.max(min, 1), max) : Math.max(min, 1);
    }
    case 'boolean':
      return true;
    case 'string': {
      if (typeof s.format === 'string' && BY_FORMAT[s.format]) return BY_FORMAT[s.format];
      if (typeof s.pattern === 'string') {
        const pattern = new RegExp(s.pattern, 'u');
        const fits = BY_PATTERN.find((v) => pattern.test(v));
        if (fits) return fits;
      }
      const min = num(s.minLength) ?? 1;
      const max = num(s.maxLength) ?? 20;
      return 'example'.padEnd(min, 'x').slice(0, Math.max(min, Math.min(7, max)));
    }
    case 'null':
      return null;
    default:
      return {};
  }
}

/**
 * A plain string whose field names a URL or an e-mail address gets that format's example: the
 * server checks these fields beyond their schema (a webhook's `url` must be absolute), and
 * `example` would be refused.
 */
function namedFormat(field: string, schema: unknown): unknown {
  if (!isRecord(schema) || schema.type !== 'string' || schema.format || schema.pattern)
    return schema;
  if (Array.isArray(schema.examples) || schema.enum) return schema;
  if (/(^|_)url$|Url$/.test(field)) return { ...schema, format: 'uri' };
  if (/(^|_)email$|Email$/.test(field)) return { ...schema, format: 'email' };
  return schema;
}

/**
 * Request examples written by hand, by operation, where a rule between fields lives in a schema
 * the generator cannot read (the partner's responsible-gaming body: `until` is refused with state
 * `none`, the enum's first value). Each one is replayed against the server by
 * test/rest/openapi-examples-replay.test.ts; prefer `.meta({ examples })` on the route's schema.
 */
export const REQUEST_EXAMPLES: Record<string, unknown> = {
  // `filter` or `all`, not both (the generator would send every filter field).
  bulk_adjust_customer_coins: {
    filter: { status: 'active', country: 'ES' },
    delta: 100,
    reason: 'Summer bonus',
    dry_run: true,
  },
  set_customer_responsible_gaming: {
    state: 'self_excluded',
    source: 'player',
    note: 'Asked by phone.',
  },
};

function deepMerge(base: unknown, over: unknown): unknown {
  if (!isRecord(base) || !isRecord(over)) return over ?? base;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = deepMerge(base[k], v);
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

const withoutKeys = (s: JsonSchema, keys: string[]) =>
  Object.fromEntries(Object.entries(s).filter(([k]) => !keys.includes(k)));
