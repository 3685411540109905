// The backoffice's languages (issue 35, "Languages"; docs/backoffice.md): every catalog holds
// exactly the keys the t() and msg() calls of web/src use (`npm run i18n:extract` brings them up to
// date), Spanish translates every one of them with the same {placeholders}, and t() falls back to
// the English key where a translation is empty.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { LANGUAGES, MESSAGES, collectKeys, extract } from '../../web/scripts/i18n-extract.mjs';

// The web app's modules, loaded by path: the root type-check (Node's, without the DOM or Vite's
// import.meta.glob) is not to compile them; `npm run web:typecheck` does.
const web = path.resolve(import.meta.dirname, '../../web/src');
const { setLanguage, t } = (await import(path.join(web, 'i18n/index.ts'))) as {
  setLanguage(lang: string, remember?: boolean): Promise<void>;
  t(message: string, values?: Record<string, string | number>): string;
};
const { coins, count, when } = (await import(path.join(web, 'components/format.ts'))) as Record<
  'coins' | 'count',
  (n: number) => string
> & { when(iso: string): string };

type Catalog = Record<string, string>;
const keys: string[] = collectKeys();
const catalog = (lang: string): Catalog =>
  JSON.parse(readFileSync(path.join(MESSAGES, `${lang}.json`), 'utf8')) as Catalog;
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the backoffice catalogs', () => {
  it('find the messages of web/src', () => {
    expect(keys.length).toBeGreaterThan(100);
    expect(keys).toContain('Sign out everywhere');
    expect(keys).toContain('Dashboard'); // msg() in screens.ts
  });

  it.each(LANGUAGES as string[])(
    '%s.json holds exactly the keys in use (else: npm run i18n:extract)',
    (lang) => {
      const have = Object.keys(catalog(lang));
      expect(
        keys.filter((k) => !have.includes(k)),
        'missing',
      ).toEqual([]);
      expect(
        have.filter((k) => !keys.includes(k)),
        'stale',
      ).toEqual([]);
      expect(extract({ check: true }).stale).toEqual([]);
    },
  );

  it('Spanish translates every message', () => {
    const es = catalog('es');
    expect(keys.filter((k) => !es[k]?.trim())).toEqual([]);
  });

  it.each(LANGUAGES as string[])('%s.json keeps each key’s {placeholders}', (lang) => {
    const wrong = Object.entries(catalog(lang)).filter(
      ([k, v]) => v !== '' && placeholders(k).join() !== placeholders(v).join(),
    );
    expect(wrong).toEqual([]);
  });
});

describe('the extraction script', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'i18n-'));
  const src = path.join(dir, 'src');
  const messages = path.join(dir, 'messages');
  mkdirSync(src);
  mkdirSync(messages);

  it('keeps translations, adds new keys empty and drops stale ones', () => {
    writeFileSync(
      path.join(src, 'a.tsx'),
      [
        "t('Kept');",
        't(\n  "New {name}",\n  { name },\n);',
        "msg('Marked');",
        "t('It\\'s');",
        "x.t('not ours'); set('not ours'); t(variable);",
      ].join('\n'),
    );
    for (const lang of LANGUAGES as string[])
      writeFileSync(
        path.join(messages, `${lang}.json`),
        JSON.stringify({ Kept: `kept-${lang}`, Gone: 'stale' }),
      );
    expect(extract({ src, messages, check: true }).stale).toEqual(LANGUAGES);
    const { keys: found } = extract({ src, messages });
    expect(found).toEqual(["It's", 'Kept', 'Marked', 'New {name}']);
    expect(JSON.parse(readFileSync(path.join(messages, 'es.json'), 'utf8'))).toEqual({
      "It's": '',
      Kept: 'kept-es',
      Marked: '',
      'New {name}': '',
    });
    expect(extract({ src, messages, check: true }).stale).toEqual([]);
  });
});

describe('t() and the formatters', () => {
  afterAll(() => setLanguage('en', false));

  it('English: the key itself, placeholders filled; en-GB numbers and dates', async () => {
    await setLanguage('en', false);
    expect(t('Signed out of {n} session(s).', { n: 2 })).toBe('Signed out of 2 session(s).');
    expect(count(1234)).toBe('1,234');
    expect(coins(1234)).toBe('1,234 coins');
    expect(when('2026-03-05T10:00:00Z')).toBe('5 Mar 2026, 10:00 UTC');
  });

  it('Spanish: the translation; es-ES numbers and dates, rebuilt on the switch', async () => {
    await setLanguage('es', false);
    expect(t('Sign out')).toBe(catalog('es')['Sign out']);
    expect(t('Sign out')).not.toBe('Sign out');
    expect(count(1234)).toBe('1234'); // Spanish groups from five digits (RAE, CLDR)
    expect(count(12345)).toBe('12.345');
    expect(coins(12345)).toBe('12.345 monedas');
    expect(when('2026-03-05T10:00:00Z')).toMatch(/^5 mar 2026, 10:00 UTC$/);
  });

  it('a missing translation falls back to English', async () => {
    await setLanguage('es', false);
    expect(t('A text no catalog has, {x}', { x: 1 })).toBe('A text no catalog has, 1');
  });
});
