import { useLayoutEffect } from 'react';
import { appStore } from '../app-store/app-store';
import { useClientConfig } from '../api/get-client-config';
import { currentSubdomain } from '../subdomain';
import { useStore } from '../use-store';
import { applyTheme } from './apply-theme';
import { chooseTheme } from './choose-theme';
import type { ThemeName } from './palettes';

/** Chooses the theme for the current path and writes it onto the page before paint. */
export function useAppliedTheme(pathname: string): ThemeName {
  const storedTheme = useStore(appStore, (s) => s.storedTheme);
  const { defaultTheme } = useClientConfig();
  const theme = chooseTheme({ pathname, subdomain: currentSubdomain(), storedTheme, defaultTheme });
  useLayoutEffect(() => applyTheme(theme), [theme]);
  return theme;
}
