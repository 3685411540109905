// Writes the backoffice's catalogs (web/src/i18n/messages/<lang>.json) from the t('…') and
// msg('…') calls of web/src: a translation already there is kept, a new key is added empty (empty
// falls back to English), a key no call uses any more is dropped. Keys are sorted. `--check`
// writes nothing and exits 1 when a catalog is stale. test/backoffice/i18n.test.ts runs it.
//   npm run i18n:extract            (from the repository's root)
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const SRC = path.resolve(import.meta.dirname, '../src');
export const MESSAGES = path.join(SRC, 'i18n/messages');
/** The content languages besides English: Spanish is translated, the others extracted. */
export const LANGUAGES = ['es', 'pt', 'it', 'fr'];

// t('…'), t("…"), t(`…`) (no ${}) and msg(…), the literal as the first argument, on one line or
// broken after the parenthesis by prettier. `.t(` and `set(` are not calls of ours.
const CALL =
  /(?<![\w$.])(?:t|msg)\(\s*(?:'((?:\\.|[^'\\\n])*)'|"((?:\\.|[^"\\\n])*)"|`((?:\\.|[^`\\$])*)`)\s*[,)]/g;

const unescape = (s) =>
  s.replace(/\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (_, e) => {
    if (e[0] === 'u' && e.length > 1)
      return String.fromCodePoint(parseInt(e.replace(/[u{}]/g, ''), 16));
    if (e[0] === 'x' && e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    return { n: '\n', t: '\t', r: '\r', 0: '\0' }[e] ?? e;
  });

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(file);
    return /\.(?:ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** Every key the sources use, sorted. */
export function collectKeys(src = SRC) {
  const keys = new Set();
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(CALL)) keys.add(unescape(m[1] ?? m[2] ?? m[3]));
  }
  return [...keys].sort();
}

/** `catalog` brought up to `keys`: translations kept, new keys empty, stale keys dropped. */
export function updateCatalog(catalog, keys) {
  return Object.fromEntries(keys.map((k) => [k, typeof catalog[k] === 'string' ? catalog[k] : '']));
}

const readCatalog = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    if (e.code === 'ENOENT') return null;
    throw e;
  }
};
const serialise = (catalog) => `${JSON.stringify(catalog, null, 2)}\n`;

/** Brings every catalog up to date (or, with `check`, only says which are stale). */
export function extract({ src = SRC, messages = MESSAGES, check = false } = {}) {
  const keys = collectKeys(src);
  const stale = [];
  for (const lang of LANGUAGES) {
    const file = path.join(messages, `${lang}.json`);
    const before = readCatalog(file);
    const after = serialise(updateCatalog(before ?? {}, keys));
    if (before && serialise(before) === after) continue;
    stale.push(lang);
    if (!check) writeFileSync(file, after);
  }
  return { keys, stale };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const check = process.argv.includes('--check');
  const { keys, stale } = extract({ check });
  const where = path.relative(process.cwd(), MESSAGES);
  process.stdout.write(
    `${keys.length} messages; ${
      stale.length === 0
        ? 'every catalog up to date'
        : `${check ? 'stale' : 'updated'}: ${stale.map((l) => `${where}/${l}.json`).join(', ')}`
    }\n`,
  );
  if (check && stale.length > 0) process.exitCode = 1;
}
