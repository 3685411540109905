// Reading a whole list without holding it: pages of `size` rows, each asked for after the last
// row's key (a keyset, served by the index the order follows), until a short page. What the
// backoffice's CSV exports read through (domain/*/export-*.ts).

/** The size of an export's page: large enough to amortise a round trip, small enough to stream. */
export const EXPORT_PAGE = 500;

/**
 * Yields each page `read` gives, asking for the next after `keyOf` its last row, until a page
 * has fewer than `size` rows (an empty page is yielded too). Lazy: a page is read when the
 * consumer asks for it, so a slow client holds back the reads.
 */
export async function* keysetPages<Row, Key>(
  read: (after: Key | undefined, take: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  size = EXPORT_PAGE,
): AsyncGenerator<Row[], void, undefined> {
  let after: Key | undefined;
  for (;;) {
    const page = await read(after, size);
    yield page;
    if (page.length < size) return;
    after = keyOf(page[page.length - 1]!);
  }
}
