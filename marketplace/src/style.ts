// The establishment's look: its fourteen colours and its font as CSS custom properties (set
// through the CSSOM, which the page's CSP allows). A pair of colours an operator chose that would
// be hard to read (WCAG contrast under 4.5:1) is corrected to black or white text, so every
// establishment's marketplace stays readable.
import type { Style } from './boot';

const VARIABLES: Record<string, string> = {
  backgroundPrimary: '--primary',
  foregroundPrimary: '--on-primary',
  backgroundSecondary: '--secondary',
  foregroundSecondary: '--on-secondary',
  backgroundSidebarPrimary: '--bar',
  backgroundSidebarSecondary: '--bar-active',
  marketplaceBackground: '--page',
  marketplaceForegroundPrimary: '--text',
  marketplaceForegroundSecondary: '--muted',
  marketplaceBackgroundCard: '--card',
  marketplaceForegroundCardPrimary: '--card-title',
  marketplaceForegroundCardSecondary: '--card-text',
  marketplaceForegroundCardTertiary: '--card-accent',
  font: '--font',
};

/** Text colours and the background they are read on. */
const PAIRS: [string, string][] = [
  ['--on-primary', '--primary'],
  ['--on-secondary', '--secondary'],
  ['--text', '--page'],
  ['--muted', '--page'],
  ['--card-title', '--card'],
  ['--card-text', '--card'],
  ['--card-accent', '--card'],
];

function rgb(color: string): [number, number, number] | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim())?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

const luminance = ([r, g, b]: [number, number, number]) => {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
};

const contrast = (a: [number, number, number], b: [number, number, number]) => {
  const [x, y] = [luminance(a), luminance(b)].sort((m, n) => n - m) as [number, number];
  return (x + 0.05) / (y + 0.05);
};

export function applyStyle(style: Style): void {
  const root = document.documentElement.style;
  for (const [key, variable] of Object.entries(VARIABLES)) {
    const value = style[key];
    if (value) root.setProperty(variable, value);
  }
  const computed = getComputedStyle(document.documentElement);
  for (const [text, background] of PAIRS) {
    const fg = rgb(computed.getPropertyValue(text));
    const bg = rgb(computed.getPropertyValue(background));
    if (!fg || !bg || contrast(fg, bg) >= 4.5) continue;
    const black = contrast([0, 0, 0], bg);
    const white = contrast([255, 255, 255], bg);
    root.setProperty(text, black >= white ? '#000000' : '#ffffff');
  }
}
