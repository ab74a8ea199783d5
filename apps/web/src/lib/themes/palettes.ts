/**
 * The console's colour themes as CSS custom properties. The palettes themselves are in the domain
 * (`@fieldlink/domain/themes`), shared with the server, which draws report covers in them.
 */

import type { Palette } from '@fieldlink/domain/themes';

export { PALETTES, THEME_LABELS } from '@fieldlink/domain/themes';

const CSS_VARIABLES: Readonly<Record<Exclude<keyof Palette, 'scheme'>, string>> = {
  background: '--fl-bg',
  surface: '--fl-surface',
  surfaceAlt: '--fl-surface-alt',
  text: '--fl-text',
  muted: '--fl-muted',
  border: '--fl-border',
  primary: '--fl-primary',
  onPrimary: '--fl-on-primary',
  primarySoft: '--fl-primary-soft',
  accent: '--fl-accent',
  danger: '--fl-danger',
  warning: '--fl-warning',
  success: '--fl-success',
  info: '--fl-info',
  topBar: '--fl-topbar',
  topBarText: '--fl-topbar-text',
  topBarMuted: '--fl-topbar-muted',
  focus: '--fl-focus',
  shadow: '--fl-shadow',
};

/** The CSS custom properties of a palette, ready for `style.setProperty`. */
export function paletteProperties(palette: Palette): [string, string][] {
  return Object.entries(CSS_VARIABLES).map(([key, variable]) => [variable, palette[key as keyof typeof CSS_VARIABLES]]);
}
