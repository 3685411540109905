// Input that no schema should have to think about, refused before any schema or the database
// sees it: NUL characters (PostgreSQL cannot store U+0000 in text or jsonb, and refuses the whole
// statement with an internal error) and JSON nested deeper than any of our documents (recursive
// code further on, hashing or serializing, would run out of stack). Shared by every transport.
import { invalidRequest, type FieldIssue } from '../domain/errors.js';

/** No request or response body of ours nests deeper; engine event `data` is the partner's own. */
export const MAX_JSON_DEPTH = 32;

/** Walks the value without recursion (its depth is what is being checked). */
export function unstorableInput(value: unknown, field = ''): FieldIssue | null {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value, path: field, depth: 0 },
  ];
  while (stack.length) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000'))
        return { field: path, code: 'invalid', message: 'must not contain NUL (U+0000)' };
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      return {
        field: path,
        code: 'too_big',
        message: `must not nest deeper than ${MAX_JSON_DEPTH} levels`,
      };
    }
    for (const [key, child] of Object.entries(v)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) {
        return {
          field: path,
          code: 'invalid',
          message: 'must not have a key containing NUL (U+0000)',
        };
      }
      stack.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}

/** Throws invalid_request naming the first field that cannot be stored. */
export function assertStorableInput(parts: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(parts)) {
    // Fields are named as the validation messages name them (`q`, `shipping_address.city`).
    const issue = unstorableInput(value);
    if (issue) throw invalidRequest([{ ...issue, field: issue.field || name }]);
  }
}
