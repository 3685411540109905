import { z } from 'zod';
import { invalidRequest, type FieldIssue } from './errors.js';

// Messages for people, in one voice, for every schema of every transport. Loaded by every module
// that validates (they all import this file for toFieldIssues or parseInput).
z.config({
  customError: (issue) => {
    switch (issue.code) {
      case 'invalid_type':
        return issue.input === undefined ? 'is required' : `must be ${article(issue.expected)}`;
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

/** zod issues as field issues, the field written as a dotted path (`shipping_address.city`). */
export function toFieldIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  const field = (path: PropertyKey[]) => [prefix, ...path.map(String)].filter(Boolean).join('.');
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          field: field([...issue.path, key]),
          message: 'is not a known field',
        }))
      : [{ field: field(issue.path), message: issue.message }],
  );
}

/** Parses input with a schema or throws invalid_request naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(toFieldIssues(result.error));
  return result.data;
}

/** Text of 1 to `max` characters that is not only white space. */
export const nonBlankText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((v) => /\S/.test(v), 'must not be blank');

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

/** `%` and `_` in a search are literal text, not LIKE wildcards. */
export const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);
