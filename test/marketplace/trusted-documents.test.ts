// The marketplace's trusted documents are generated from its source (scripts/
// trusted-documents.ts): the committed lists must be what the source makes now, and every
// document must be valid against the schema, so an app release never sends an id the server
// does not know.
import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { APP_FILE, SERVER_FILE, trustedDocumentFiles } from '../../scripts/trusted-documents.js';
import { TRUSTED_DOCUMENTS } from '../../src/graphql/trusted-documents.generated.js';
import { getSchema } from '../../src/schema/index.js';

describe('the marketplace’s trusted documents', () => {
  it('are the committed ones (run `npm run marketplace:documents` after changing them)', () => {
    const files = trustedDocumentFiles();
    expect(readFileSync(SERVER_FILE, 'utf8')).toBe(files.server);
    expect(readFileSync(APP_FILE, 'utf8')).toBe(files.app);
  });

  it.each(Object.entries(TRUSTED_DOCUMENTS))('%s validates against the schema', (_id, text) => {
    expect(validate(getSchema(), parse(text)).map(String)).toEqual([]);
  });
});
