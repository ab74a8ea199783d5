import { describe, expect, it } from 'vitest';
import { PALETTES, THEME_LABELS, type Palette } from './themes';

/** WCAG 2.2's relative luminance of a `#rrggbb` colour. */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const value = parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG 2.2's contrast ratio of two colours, 1 to 21. */
function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

type Pair = [foreground: keyof Palette, background: keyof Palette, minimum: number];

/**
 * Text at WCAG AA (4.5:1) wherever a theme puts words: body and muted text on every surface, the
 * words on a primary button and in the top bar. Status colours and the focus ring are marks beside
 * words (icons, borders, badges' edges): 3:1, AA's figure for non-text contrast.
 */
const PAIRS: Pair[] = [
  ['text', 'background', 4.5],
  ['text', 'surface', 4.5],
  ['text', 'surfaceAlt', 4.5],
  ['text', 'primarySoft', 4.5],
  ['muted', 'surface', 4.5],
  ['muted', 'background', 4.5],
  ['onPrimary', 'primary', 4.5],
  ['topBarText', 'topBar', 4.5],
  ['topBarMuted', 'topBar', 4.5],
  ['primary', 'surface', 3],
  ['danger', 'surface', 3],
  ['warning', 'surface', 3],
  ['success', 'surface', 3],
  ['info', 'surface', 3],
  ['focus', 'surface', 3],
];

describe('theme palettes', () => {
  const themes = Object.entries(PALETTES) as [string, Palette][];

  it('has a label for every theme', () => {
    expect(Object.keys(THEME_LABELS).sort()).toEqual(Object.keys(PALETTES).sort());
  });

  it.each(themes.flatMap(([name, palette]) => PAIRS.map((pair) => [name, ...pair, palette] as const)))(
    '%s: %s on %s reaches %d:1',
    (_, foreground, background, minimum, palette) => {
      expect(contrast(palette[foreground], palette[background])).toBeGreaterThanOrEqual(minimum);
    },
  );

  it.each(themes)('%s is a light or dark scheme with its surfaces on the same side', (_, palette) => {
    const dark = luminance(palette.background) < 0.2;
    expect(palette.scheme).toBe(dark ? 'dark' : 'light');
    expect(luminance(palette.surface) < 0.2).toBe(dark);
  });
});
