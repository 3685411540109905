// The backoffice's words in the operator's language (issue 35, "Languages"; docs/backoffice.md).
// gettext-style: the English text is the key, `{name}` marks a placeholder, and a catalog
// (messages/<lang>.json) maps each key to its translation; an empty or missing translation falls
// back to the English. English needs no catalog, and another language's is fetched (a chunk of
// its own) only when chosen, so the first load carries none. `npm run i18n:extract` writes the
// catalogs from the t() and msg() calls of web/src (web/scripts/i18n-extract.mjs).
import { useSyncExternalStore } from 'react';

/** The languages the switch offers, each named in itself. A catalog alone is not offered. */
export const LANGUAGES = { en: 'English', es: 'Español' } as const;
export type Language = keyof typeof LANGUAGES;

/** The locale of dates and numbers, per language. */
const LOCALES: Record<Language, string> = { en: 'en-GB', es: 'es-ES' };

type Catalog = Record<string, string>;
// Every catalog of messages/, each its own chunk, imported on first use.
const CATALOGS = import.meta.glob<{ default: Catalog }>('./messages/*.json');

const STORAGE_KEY = 'pr.language';
let language: Language = 'en';
let messages: Catalog = {};
const listeners = new Set<() => void>();

const PLACEHOLDER = /\{(\w+)\}/g;

/**
 * `message` in the chosen language, its `{name}` placeholders filled from `values`. The English
 * text is the key: call it with a literal, so the extraction script finds it.
 */
export function t(message: string, values?: Record<string, string | number>): string {
  const text = (Object.hasOwn(messages, message) && messages[message]) || english(message);
  if (!values) return text;
  return text.replace(PLACEHOLDER, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/**
 * A key `context|words` shows `words` in English: the same English words that another language
 * says differently by their sense (`Live` the environment, `stream|Live` a screen pushed live).
 */
const english = (message: string) => {
  const bar = message.indexOf('|');
  return bar > 0 && /^[a-z]+$/.test(message.slice(0, bar)) ? message.slice(bar + 1) : message;
};

/**
 * Marks a literal for the catalogs without translating it now (gettext's N_): for labels kept in
 * data made before a language is chosen (the navigation's list), shown later through t(label).
 */
export const msg = (message: string): string => message;

export const currentLanguage = (): Language => language;
/** The locale dates and numbers follow ('en-GB', 'es-ES'). */
export const currentLocale = (): string => LOCALES[language];

const isLanguage = (v: unknown): v is Language =>
  typeof v === 'string' && Object.prototype.hasOwnProperty.call(LANGUAGES, v);

/** The remembered choice, else the browser's first language we have, else English. */
export function preferredLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // no storage (private mode): the browser decides
  }
  const wanted = typeof navigator === 'undefined' ? [] : (navigator.languages ?? []);
  for (const tag of wanted) {
    const base = tag.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** Loads `lang`'s catalog, then switches: every t() afterwards, <html lang>, the formatters. */
export async function setLanguage(lang: Language, remember = true): Promise<void> {
  const load = CATALOGS[`./messages/${lang}.json`];
  const catalog: Catalog = lang === 'en' || !load ? {} : (await load()).default;
  language = lang;
  messages = catalog;
  if (typeof document !== 'undefined') document.documentElement.lang = lang;
  if (remember)
    try {
      localStorage.setItem(STORAGE_KEY, lang);
    } catch {
      // private mode: the choice lasts until reload
    }
  for (const l of listeners) l();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * The chosen language, re-rendering the component when it changes. The app keys its shell by it
 * (App.tsx), so every screen under it renders afresh in the new language.
 */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
}
