import { useLayoutEffect } from 'react';
import { resolveTheme, type ThemeName } from '@fieldlink/domain/app-variant';
import { appStore } from '../app-store/app-store';
import { useClientConfig } from '../api/get-client-config';
import { currentSubdomain } from '../subdomain';
import { useStore } from '../use-store';
import { applyTheme } from './apply-theme';

/** Chooses the theme for the current path and writes it onto the page before paint. */
export function useAppliedTheme(pathname: string): ThemeName {
  const userTheme = useStore(appStore, (s) => s.storedTheme);
  const account = useStore(appStore, (s) => s.session.account);
  const { defaultTheme } = useClientConfig();
  const theme = resolveTheme({ pathname, subdomain: currentSubdomain(), userTheme, account, defaultTheme });
  useLayoutEffect(() => applyTheme(theme), [theme]);
  return theme;
}
