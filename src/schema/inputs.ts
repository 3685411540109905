// GraphQL arguments as the domain takes them. The domain validates the wire's forms (it serves
// the CLI and REST too), so DateTimes go back to ISO strings; an omitted optional argument
// arrives as null, which for most inputs means "not given".

/** DateTime arguments (Dates) as the ISO strings the domain validates; nulls kept (PATCH unsets). */
export const wireDates = (input: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(input).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]),
  );

/** Arguments with nulls dropped (not given) and Dates as ISO strings. */
export const definedInput = (input: object | null | undefined): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(wireDates({ ...input })).filter(([, v]) => v !== null && v !== undefined),
  );
