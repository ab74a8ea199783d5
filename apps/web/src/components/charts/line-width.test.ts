import { describe, expect, it } from 'vitest';
import { chartLineWidth, MAX_WIDE_LINES } from './line-width';

describe('chartLineWidth', () => {
  it.each([
    { lineCount: 1, compact: false, width: 1.75 },
    { lineCount: MAX_WIDE_LINES, compact: false, width: 1.75 },
    { lineCount: 1, compact: true, width: 1.25 },
    { lineCount: MAX_WIDE_LINES, compact: true, width: 1.25 },
    { lineCount: MAX_WIDE_LINES + 1, compact: false, width: 1 },
    { lineCount: MAX_WIDE_LINES + 1, compact: true, width: 1 },
    { lineCount: 50, compact: false, width: 1 },
  ])('$lineCount lines (compact $compact): $width px', ({ lineCount, compact, width }) => {
    expect(chartLineWidth(lineCount, compact)).toBe(width);
  });
});
