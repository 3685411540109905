import { z } from 'zod';
import { FIELD_RULES, invalidRequest, type FieldIssue, type FieldRule } from './errors.js';

const REQUIRED = 'is required';

// Messages for people, in one voice, for every schema of every transport. Loaded by every module
// that validates (they all import this file for toFieldIssues or parseInput).
z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined ? REQUIRED : `must be ${article(issue.expected)}`;
      case 'too_small':
        if (issue.origin === 'string') {
          return issue.minimum === 1
            ? 'must not be empty'
            : `must be at least ${issue.minimum} characters`;
        }
        if (issue.origin === 'array') return `must have at least ${issue.minimum} items`;
        return `must be ${issue.inclusive ? 'at least' : 'more than'} ${issue.minimum}`;
      case 'too_big':
        if (issue.origin === 'string') return `must be at most ${issue.maximum} characters`;
        if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
        return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
      case 'invalid_value':
        return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
      case 'invalid_format':
        return issue.format === 'email'
          ? 'must be an e-mail address'
          : `must be a valid ${issue.format}`;
      default:
        return undefined; // zod's own message
    }
  },
});

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** The rule a zod issue broke; a refinement names its own with `params: { rule }`. */
function ruleOf(issue: z.core.$ZodIssue): FieldRule {
  switch (issue.code) {
    case 'invalid_type':
      // Issues do not keep their input (zod's reportInput is off), so the wording written above
      // from it tells the two rules apart.
      return issue.message === REQUIRED ? 'required' : 'type';
    case 'too_small':
    case 'too_big':
      return issue.code;
    case 'invalid_value':
      return 'enum';
    case 'invalid_format':
      return 'format';
    case 'custom': {
      const rule = (issue.params as { rule?: unknown } | undefined)?.rule;
      return FIELD_RULES.includes(rule as FieldRule) ? (rule as FieldRule) : 'invalid';
    }
    default:
      return 'invalid';
  }
}

/** zod issues as field issues, the field written as a dotted path (`shipping_address.city`). */
export function toFieldIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  const field = (path: PropertyKey[]) => [prefix, ...path.map(String)].filter(Boolean).join('.');
  return error.issues.flatMap((issue): FieldIssue[] =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          field: field([...issue.path, key]),
          code: 'unknown_field',
          message: 'is not a known field',
        }))
      : [{ field: field(issue.path), code: ruleOf(issue), message: issue.message }],
  );
}

/** Parses input with a schema or throws invalid_request naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(toFieldIssues(result.error));
  return result.data;
}

/**
 * Exactly one of two optional fields, checked and stated in the JSON Schema (`oneOf`), so
 * generated clients and validators know the rule too. `a` is named in the error.
 */
export function exactlyOneOf<T extends z.ZodObject>(schema: T, a: string, b: string) {
  return schema
    .superRefine((v: Record<string, unknown>, ctx) => {
      if ((v[a] === undefined) === (v[b] === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [a],
          message: `send exactly one of ${a} and ${b}`,
          params: { rule: 'conflict' },
        });
      }
    })
    .meta({ oneOf: [{ required: [a] }, { required: [b] }] });
}

/** At least one of some optional fields (a PATCH that changes something), stated in the schema. */
export function atLeastOneOf<T extends z.ZodObject>(schema: T, ...fields: string[]) {
  return schema
    .refine((v: Record<string, unknown>) => fields.some((f) => v[f] !== undefined), {
      message: `send at least one of ${fields.join(', ')}`,
      params: { rule: 'required' },
    })
    .meta({ minProperties: 1 });
}

/** Text of 1 to `max` characters that is not only white space. */
export const nonBlankText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((v) => /\S/.test(v), { message: 'must not be blank', params: { rule: 'blank' } });

/**
 * PostgreSQL's timestamps have no year 0 (1 BC comes before AD 1): year 0000 is refused here,
 * where the field can be named, rather than by the database as an internal error.
 */
export const hasStorableYear = (iso: string): boolean => !iso.startsWith('0000');

/** An ISO-8601 UTC instant on the wire (ending in Z), a Date once parsed. */
export const utcInstant = z.iso
  .datetime({ message: 'must be an ISO-8601 UTC date-time ending in Z, e.g. 2026-01-31T12:00:00Z' })
  .refine(hasStorableYear, 'must be in the years 0001 to 9999')
  .transform((v) => new Date(v));

const DAY_OR_INSTANT = 'must be a date (2026-11-01) or an ISO-8601 UTC date-time ending in Z';

/**
 * A window's bound as people type it: a day (`2026-11-01`, from UTC midnight) or an instant
 * (`2026-11-01T12:00:00Z`). `day` says which, so an end given as a day can take it in whole
 * (`windowEnd`). The backoffice's movements and audit exports and the audit screen read it.
 */
export const dayOrInstant = z.union(
  [
    z.iso
      .date({ message: DAY_OR_INSTANT })
      .refine(hasStorableYear, 'must be in the years 0001 to 9999')
      .transform((d) => ({ day: true, at: new Date(`${d}T00:00:00Z`) })),
    utcInstant.transform((at) => ({ day: false, at })),
  ],
  { error: DAY_OR_INSTANT },
);

/** A window's exclusive end: an instant as it is, a day up to the next midnight. */
export const windowEnd = (to: { day: boolean; at: Date }): Date =>
  new Date(to.at.getTime() + (to.day ? 86_400_000 : 0));

/** `%` and `_` in a search are literal text, not LIKE wildcards. */
export const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
