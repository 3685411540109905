// GraphQL arguments as the domain takes them. The domain validates the wire's forms (it serves
// the CLI and REST too), so DateTimes go back to ISO strings; an omitted optional argument
// arrives as null, which for most inputs means "not given". The types say so exactly, so a
// resolver hands its arguments to the domain function without a cast: an argument whose GraphQL
// type drifted from the domain's input schema is a type error, not a runtime surprise.

/** A Date argument becomes the ISO string the domain validates. */
type Wire<V> = V extends Date ? string : V;

/** The arguments, with their Dates as ISO strings. */
export type WireArgs<T> = { [K in keyof T]: Wire<T[K]> };

/** The arguments with nulls dropped: a key that may be null or absent becomes optional. */
export type DefinedArgs<T> = {
  [K in keyof T as null extends T[K] ? never : undefined extends T[K] ? never : K]: Wire<T[K]>;
} & {
  [K in keyof T as null extends T[K] ? K : undefined extends T[K] ? K : never]?: Wire<
    Exclude<T[K], null | undefined>
  >;
};

/** DateTime arguments (Dates) as the ISO strings the domain validates; nulls kept (PATCH unsets). */
export const wireDates = <T extends object>(input: T): WireArgs<T> =>
  Object.fromEntries(
    Object.entries(input).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  ) as WireArgs<T>;

/**
 * Arguments with nulls dropped (not given) and Dates as ISO strings; `keepNull` names fields whose
 * null is kept, to unset them (an update's optional field).
 */
export function definedInput<T extends object>(input: T | null | undefined): DefinedArgs<T>;
export function definedInput<T extends object, N extends keyof T>(
  input: T | null | undefined,
  keepNull: readonly N[],
): Omit<DefinedArgs<T>, N> & { [K in N]?: Wire<T[K]> };
export function definedInput(input: object | null | undefined, keepNull: readonly string[] = []) {
  return Object.fromEntries(
    Object.entries(wireDates({ ...input })).filter(
      ([k, v]) => v !== undefined && (v !== null || keepNull.includes(k)),
    ),
  );
}

/**
 * PATCH arguments: a null unsets a nullable field, but GraphQL cannot tell an optional field that
 * may not be null from one that may; for those (`notNull`), a null means "unchanged".
 */
export const patchArgs = <T extends object, N extends keyof T>(
  input: T,
  notNull: readonly N[],
): Omit<WireArgs<T>, N> & { [K in N]?: Wire<Exclude<T[K], null>> } =>
  Object.fromEntries(
    Object.entries(wireDates(input)).filter(([k, v]) => v !== null || !notNull.includes(k as N)),
  ) as Omit<WireArgs<T>, N> & { [K in N]?: Wire<Exclude<T[K], null>> };

/**
 * A JSON argument handed to the domain function that checks it (`parseInput`): GraphQL cannot
 * state a map's shape (attributes, texts by language, constraints), so its type is asserted here,
 * for that field alone; every other argument stays checked against the domain's input.
 */
export const checkedByDomain = <T>(json: unknown): T => json as T;
