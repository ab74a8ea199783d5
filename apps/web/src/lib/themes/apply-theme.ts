import type { ThemeName } from '@fieldlink/domain/app-variant';
import { PALETTES, paletteProperties } from './palettes';

/** Writes a theme's palette onto the document root, where every `var(--fl-*)` reads it. */
export function applyTheme(theme: ThemeName, root: HTMLElement = document.documentElement): void {
  const palette = PALETTES[theme];
  for (const [property, value] of paletteProperties(palette)) root.style.setProperty(property, value);
  root.style.colorScheme = palette.scheme;
  root.dataset.theme = theme;
  document.querySelector('meta[name="theme-color"]')?.setAttribute('content', palette.topBar);
  // An installed console takes its colours from the theme in use (issue 39 item 1).
  document
    .querySelector('link[rel="manifest"]')
    ?.setAttribute('href', `/manifest.webmanifest?theme=${encodeURIComponent(theme)}`);
}
