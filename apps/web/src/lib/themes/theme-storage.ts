import type { ThemeName } from '@fieldlink/domain/app-variant';

/** Local-storage key of the chosen theme (specification §9). */
export const THEME_STORAGE_KEY = 'theme';

export function readStoredTheme(): string | null {
  try {
    return globalThis.localStorage?.getItem(THEME_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

export function storeTheme(theme: ThemeName): void {
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // Without storage the choice lasts for this page only.
  }
}
