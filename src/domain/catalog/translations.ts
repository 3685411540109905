// Product texts per language. Backoffice products always have English; an establishment's may
// have any one language (establishment-api.md), so every reader falls back to English and then
// to the first language given, never assuming `en` is there.
export type ProductTexts = {
  name: string;
  description?: string | null;
  extendedDescription?: string | null;
  additionalDetails?: string | null;
};
export type ProductTranslations = Partial<Record<string, ProductTexts>>;

/** The texts in `lang`, else English, else the first language the product has. */
export function textsIn(translations: unknown, lang?: string | null): ProductTexts | undefined {
  const all = translations as ProductTranslations;
  return (lang ? all[lang] : undefined) ?? all.en ?? Object.values(all)[0];
}

/** One field in `lang`, falling back field by field (a missing Spanish description is English). */
export function textIn(
  translations: unknown,
  lang: string | null | undefined,
  field: keyof ProductTexts,
): string | null {
  const all = translations as ProductTranslations;
  return (lang ? all[lang]?.[field] : undefined) ?? textsIn(all)?.[field] ?? null;
}

/** The name orders snapshot and lists show: English, else the first language. */
export const displayName = (translations: unknown): string => textsIn(translations)?.name ?? '';

/** What text search reads: every text in every language, lower-cased. */
export const searchTextOf = (translations: unknown): string =>
  Object.values(translations as ProductTranslations)
    .flatMap((v) => [v?.name, v?.description, v?.extendedDescription, v?.additionalDetails])
    .filter(Boolean)
    .join(' ')
    .toLowerCase();
