import { AppError } from '../errors.js';

export const MIN_SEARCH_LENGTH = 2;
export const MAX_SEARCH_LENGTH = 100;

/**
 * The search as typed, trimmed. Decision: fewer than 2 characters is refused
 * (`invalid_request`), not answered with nothing — one letter matches most of a tenant, and the
 * box sends nothing until the second character anyway; more than 100 is refused too.
 */
export function searchTerm(query: string): string {
  const term = query.trim();
  if (term.length < MIN_SEARCH_LENGTH) {
    throw new AppError(
      'invalid_request',
      `Type at least ${MIN_SEARCH_LENGTH} characters to search.`,
    );
  }
  if (term.length > MAX_SEARCH_LENGTH) {
    throw new AppError('invalid_request', `A search is at most ${MAX_SEARCH_LENGTH} characters.`);
  }
  return term;
}
