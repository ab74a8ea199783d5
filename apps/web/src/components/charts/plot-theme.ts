/** The theme's colours and font as a chart draws them, read from the page's CSS variables. */
export interface PlotTheme {
  muted: string;
  grid: string;
  text: string;
  surface: string;
  family: string;
  /** Axis tick font. */
  font: string;
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Read once per plot build: the canvas hooks draw with them on every live redraw. */
export function readPlotTheme(): PlotTheme {
  const family = cssVar('--fl-font', 'system-ui, sans-serif');
  return {
    muted: cssVar('--fl-muted', '#64748b'),
    grid: cssVar('--fl-border', '#e2e8f0'),
    text: cssVar('--fl-text', '#0f172a'),
    surface: cssVar('--fl-surface', '#ffffff'),
    family,
    font: `11px ${family}`,
  };
}

/** How the read-out and the y axes write a value. */
export const chartNumberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });
