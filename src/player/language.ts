// The marketplace's languages, and which one a player sees: their own, else the establishment's,
// else English.
export const MARKETPLACE_LANGUAGES = ['en', 'es', 'pt', 'it', 'fr'] as const;
export type MarketplaceLanguage = (typeof MARKETPLACE_LANGUAGES)[number];

export function languageOf(
  preferred: string | null | undefined,
  locale: string | null | undefined,
): MarketplaceLanguage {
  const candidates = [preferred, locale?.slice(0, 2).toLowerCase()];
  return (
    candidates.find((l): l is MarketplaceLanguage =>
      (MARKETPLACE_LANGUAGES as readonly string[]).includes(l ?? ''),
    ) ?? 'en'
  );
}
