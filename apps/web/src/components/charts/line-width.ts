/**
 * Lines a chart draws at full width; a chart of more draws them 1 px wide. Dozens of lines read
 * better thin (less overdraw where they cross), and a line one device pixel wide is a hairline that a
 * software canvas rasterises several times faster: a live chart of 50 lines redrawn each second took
 * about 60 ms of the main thread per redraw at 1.75 px, and about 8 ms at 1 px (Chromium, no GPU).
 */
export const MAX_WIDE_LINES = 8;

/** The width (CSS px) a chart of `lineCount` lines draws each line: 1 px in a crowded chart. */
export function chartLineWidth(lineCount: number, compact: boolean): number {
  if (lineCount > MAX_WIDE_LINES) return 1;
  return compact ? 1.25 : 1.75;
}
