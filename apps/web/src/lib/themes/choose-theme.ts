import { THEME_NAMES, type ThemeName } from './palettes';

/** Local-storage key of the chosen theme (specification §9). */
export const THEME_STORAGE_KEY = 'theme';

/** Theme forced under the video library (specification core §1). */
export const VIDEOS_THEME: ThemeName = 'GREY';

const BY_LOWER_NAME: ReadonlyMap<string, ThemeName> = new Map(THEME_NAMES.map((name) => [name.toLowerCase(), name]));

/** The theme a text names, ignoring case (`dark` and `DARK` both name DARK), else null. */
export function themeNamed(text: string | null | undefined): ThemeName | null {
  if (!text) return null;
  return BY_LOWER_NAME.get(text.trim().toLowerCase()) ?? null;
}

export interface ThemeInputs {
  pathname: string;
  subdomain: string;
  /** The value stored under {@link THEME_STORAGE_KEY}. */
  storedTheme: string | null;
  /** The installation's default from the public client configuration. */
  defaultTheme?: string | null;
}

/**
 * The theme to show: GREY under /videos/, else the one the page subdomain names, else the stored
 * one, else the configured default, else DEFAULT. A white-labelled host wins over a personal choice
 * so that a customer's own domain always shows the customer's brand.
 */
export function chooseTheme(inputs: ThemeInputs): ThemeName {
  if (inputs.pathname.startsWith('/videos/')) return VIDEOS_THEME;
  return themeNamed(inputs.subdomain) ?? themeNamed(inputs.storedTheme) ?? themeNamed(inputs.defaultTheme) ?? 'DEFAULT';
}
