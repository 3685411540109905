// Page sizes, declared once for the whole product (issue 30). Two kinds of page exist:
// - cursor pages: the core's connections (GraphQL, and through them the partner API's lists),
//   25 rows unless told, at most 100;
// - numbered pages with a total: the establishment document's searches and lists, 20 rows
//   unless told, 1-100, with the sizes its controls offer, reaching the first 10,000 matches
//   (a total beyond is "at least", search-players.ts says why).
// Lists that are not pages keep their own bounds beside them, with their reason: a top-N
// (leaderboards, top earners: 10), the marketplace's grid (24, a multiple of 2, 3 and 4 columns).
import { z } from 'zod';

export const CURSOR_PAGE = { defaultSize: 25, maxSize: 100 } as const;

export const NUMBERED_PAGE = {
  defaultSize: 20,
  maxSize: 100,
  sizes: [10, 20, 50, 100],
  /** The deepest match a page reaches (and the bound of an exact total). */
  window: 10_000,
} as const;

/** A numbered page's size, 1-100, and its default. */
export const numberedPageSize = z
  .number()
  .int()
  .min(1)
  .max(NUMBERED_PAGE.maxSize)
  .default(NUMBERED_PAGE.defaultSize);

/** A numbered page's number: a page numbered past the window cannot start inside it. */
export const pageNumber = z.number().int().min(1).max(NUMBERED_PAGE.window).default(1);
