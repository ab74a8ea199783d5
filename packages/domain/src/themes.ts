/**
 * Colour themes (specification core §1, applications §6). Every theme is a full palette written to CSS
 * custom properties, so components use `var(--fl-*)` and never a literal colour. Customer themes keep
 * the neutral surfaces of a light or dark base and carry the brand in the top bar, primary and accent,
 * which is how white-labelled consoles stay readable across brands. The server reads them too: a
 * report's cover wears its account's theme.
 */

import type { ThemeName } from './app-variant';

export interface Palette {
  scheme: 'light' | 'dark';
  /** Page background. */
  background: string;
  /** Cards, panels, menus. */
  surface: string;
  /** Insets inside a surface: table headers, input fills, hovered rows. */
  surfaceAlt: string;
  text: string;
  muted: string;
  border: string;
  primary: string;
  /** Text and icons on a primary fill. */
  onPrimary: string;
  /** Tinted background of selected items. */
  primarySoft: string;
  accent: string;
  danger: string;
  warning: string;
  success: string;
  info: string;
  /** Top bar: the brand band of the console. */
  topBar: string;
  topBarText: string;
  topBarMuted: string;
  focus: string;
  shadow: string;
}

const LIGHT: Palette = {
  scheme: 'light',
  background: '#f4f6fa',
  surface: '#ffffff',
  surfaceAlt: '#f1f4f9',
  text: '#0f172a',
  muted: '#5b6b82',
  border: '#dde3ec',
  primary: '#2563eb',
  onPrimary: '#ffffff',
  primarySoft: '#e8efff',
  accent: '#0d9488',
  danger: '#d92d20',
  warning: '#b54708',
  success: '#067647',
  info: '#0e7490',
  topBar: '#0f172a',
  topBarText: '#f8fafc',
  topBarMuted: '#94a3b8',
  focus: '#3b82f6',
  shadow: '0 1px 2px rgb(15 23 42 / 6%), 0 4px 16px rgb(15 23 42 / 6%)',
};

const DARK: Palette = {
  scheme: 'dark',
  background: '#0b1120',
  surface: '#121a2b',
  surfaceAlt: '#1a2438',
  text: '#e6ebf4',
  muted: '#93a1b8',
  border: '#26324a',
  primary: '#5b9dff',
  onPrimary: '#06101f',
  primarySoft: '#17284a',
  accent: '#2dd4bf',
  danger: '#f97066',
  warning: '#fdb022',
  success: '#47cd89',
  info: '#22ccee',
  topBar: '#070c17',
  topBarText: '#f1f5f9',
  topBarMuted: '#8391a7',
  focus: '#7cb1ff',
  shadow: '0 1px 2px rgb(0 0 0 / 40%), 0 8px 24px rgb(0 0 0 / 35%)',
};

const light = (brand: Partial<Palette>): Palette => ({ ...LIGHT, ...brand });
const dark = (brand: Partial<Palette>): Palette => ({ ...DARK, ...brand });

export const PALETTES: Readonly<Record<ThemeName, Palette>> = {
  DEFAULT: LIGHT,
  DARK,
  // Quiet, ink-on-paper greys: used for the video library, where colour would compete with the video.
  GREY: light({
    background: '#f3f3f4',
    surfaceAlt: '#efeff1',
    text: '#18181b',
    muted: '#63636b',
    border: '#dedee2',
    primary: '#3f3f46',
    primarySoft: '#ececef',
    accent: '#71717a',
    topBar: '#27272a',
    topBarText: '#fafafa',
    topBarMuted: '#a1a1aa',
    focus: '#52525b',
  }),
  bp: light({
    primary: '#007a33',
    primarySoft: '#e3f4ea',
    accent: '#e0a800',
    topBar: '#004d26',
    topBarText: '#ffffff',
    topBarMuted: '#a7d7b8',
    focus: '#12a150',
  }),
  mosnix: light({
    primary: '#6d28d9',
    primarySoft: '#efe8fd',
    accent: '#65a30d',
    topBar: '#2e1065',
    topBarText: '#faf5ff',
    topBarMuted: '#c4b5fd',
    focus: '#8b5cf6',
  }),
  opg: light({
    primary: '#c2410c',
    primarySoft: '#fdeee6',
    accent: '#0f766e',
    topBar: '#1c1917',
    topBarText: '#fafaf9',
    topBarMuted: '#a8a29e',
    focus: '#ea580c',
  }),
  filtec: light({
    background: '#f2f7fb',
    primary: '#0369a1',
    primarySoft: '#e0f0fa',
    accent: '#06b6d4',
    topBar: '#0c3b5e',
    topBarText: '#f0f9ff',
    topBarMuted: '#9cc7e4',
    focus: '#0284c7',
  }),
  intech: light({
    primary: '#4338ca',
    primarySoft: '#eceafd',
    accent: '#d97706',
    topBar: '#1e1b4b',
    topBarText: '#eef2ff',
    topBarMuted: '#a5b4fc',
    focus: '#6366f1',
  }),
  securelogic: dark({
    background: '#0d1113',
    surface: '#151b1e',
    surfaceAlt: '#1c2428',
    border: '#263136',
    primary: '#2ec4a6',
    onPrimary: '#04140f',
    primarySoft: '#123029',
    accent: '#f5b942',
    topBar: '#080b0c',
    focus: '#4fe0c2',
  }),
  pre: light({
    primary: '#be185d',
    primarySoft: '#fce8f1',
    accent: '#0891b2',
    topBar: '#4a0a2a',
    topBarText: '#fff1f7',
    topBarMuted: '#f0a6c8',
    focus: '#db2777',
  }),
  reddyice: light({
    background: '#f3f7fc',
    primary: '#1d4ed8',
    primarySoft: '#e6eefe',
    accent: '#c8102e',
    topBar: '#0b2a6f',
    topBarText: '#ffffff',
    topBarMuted: '#a9bdf0',
    focus: '#3b6ff0',
  }),
  corrigan: light({
    background: '#f6f5f1',
    surfaceAlt: '#f2f0ea',
    border: '#e2ddd2',
    primary: '#a5551b',
    primarySoft: '#f8ece2',
    accent: '#2f6b4a',
    topBar: '#1f3b2d',
    topBarText: '#f7f5ef',
    topBarMuted: '#b4c8bb',
    focus: '#c26a2a',
  }),
  wellstar: light({
    primary: '#1e3a8a',
    primarySoft: '#e7ecf8',
    accent: '#c99712',
    topBar: '#14245a',
    topBarText: '#fdfaf0',
    topBarMuted: '#c9b979',
    focus: '#3457c4',
  }),
  realtech: dark({
    background: '#0a1216',
    surface: '#101b21',
    surfaceAlt: '#16252d',
    border: '#213640',
    primary: '#22c3e6',
    onPrimary: '#031419',
    primarySoft: '#0f3340',
    accent: '#a3e635',
    topBar: '#050b0e',
    focus: '#5fd8f2',
  }),
  pfannenberg: light({
    background: '#f5f5f6',
    surfaceAlt: '#f0f0f2',
    primary: '#d0111b',
    primarySoft: '#fde8e9',
    accent: '#4b5563',
    danger: '#9f1239',
    topBar: '#26282b',
    topBarText: '#ffffff',
    topBarMuted: '#a3a7ad',
    focus: '#e5484d',
  }),
};

/** Labels for the theme switcher. */
export const THEME_LABELS: Readonly<Record<ThemeName, string>> = {
  DEFAULT: 'Light',
  DARK: 'Dark',
  GREY: 'Grey',
  bp: 'BP',
  mosnix: 'Mosnix',
  opg: 'OPG',
  filtec: 'Filtec',
  intech: 'Intech',
  securelogic: 'SecureLogic',
  pre: 'PRE',
  reddyice: 'Reddy Ice',
  corrigan: 'Corrigan',
  wellstar: 'WellStar',
  realtech: 'RealTech',
  pfannenberg: 'Pfannenberg',
};
