// What the server puts in the page before the app runs (src/pages/marketplace.ts, `Boot`): which
// page this is, the establishment's look and language, and the store session's token.
export type Style = Partial<Record<string, string>>;

export type Look = {
  name: string;
  logoUrl: string | null;
  coinName: string;
  style: Style;
  lang: string;
  frameOrigins: string[];
};

export type Tracking = {
  reference: string | null;
  establishment: string;
  status: string;
  products: string[];
  tracking: string[];
  history: { at: string; what: string }[];
};

export type Boot =
  | ({
      page: 'store';
      token: string;
      environment: string;
      /** The app's first documents, run by the server with the page. */
      preloaded: { name: string; variables: unknown; data: unknown }[];
    } & Look)
  | ({ page: 'track'; tracking: Tracking } & Look)
  | ({ page: 'ended'; environment: string } & Look)
  | { page: 'invalid'; lang: string };

export function readBoot(): Boot {
  const element = document.getElementById('boot');
  try {
    return JSON.parse(element?.textContent ?? '') as Boot;
  } catch {
    return { page: 'invalid', lang: 'en' };
  }
}
