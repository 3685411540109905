// Wire casing. GraphQL is camelCase; the partner API is snake_case. Conversion is by key only
// and stops at values a route marks as opaque (arbitrary JSON such as engine event `data`).

const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

// GraphQL results are null-prototype objects; Dates and other class instances pass through.
const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

function convertKeys(
  value: unknown,
  convert: (key: string) => string,
  opaque: ReadonlySet<string>,
): unknown {
  if (Array.isArray(value)) return value.map((v) => convertKeys(v, convert, opaque));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = convert(key);
    out[name] = opaque.has(key) || opaque.has(name) ? v : convertKeys(v, convert, opaque);
  }
  return out;
}

const NONE: ReadonlySet<string> = new Set();

export const camelKeys = <T = Record<string, unknown>>(value: unknown, opaque = NONE): T =>
  convertKeys(value, toCamel, opaque) as T;

export const snakeKeys = <T = Record<string, unknown>>(value: unknown, opaque = NONE): T =>
  convertKeys(value, toSnake, opaque) as T;

export { toCamel, toSnake };

/** A zod object shape with its keys in snake_case: the wire form of a domain schema. */
export function snakeShape<T extends Record<string, unknown>>(
  shape: T,
): Record<string, T[keyof T]> {
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [toSnake(k), v])) as Record<
    string,
    T[keyof T]
  >;
}
