import type { z } from 'zod';
import { invalidRequest, type FieldIssue } from './errors.js';

/** zod issues as field issues, the field written as a dotted path (`shipping_address.city`). */
export function toFieldIssues(error: z.ZodError, prefix = ''): FieldIssue[] {
  return error.issues.map((issue) => ({
    field: [prefix, ...issue.path.map(String)].filter(Boolean).join('.'),
    message: issue.message,
  }));
}

/** Parses input with a schema or throws invalid_request naming every bad field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(toFieldIssues(result.error));
  return result.data;
}
