import { describe, expect, it } from 'vitest';
import { markerLabelX } from './label-placement';

describe('marker label placement', () => {
  it.each([
    ['room after the marker: to its right', 100, 4, 50, 0, 500, 104],
    ['just fits at the right edge', 446, 4, 50, 0, 500, 450],
    ['would run past the right edge: to its left', 490, 4, 50, 0, 500, 436],
    ['a marker on the right edge: to its left, whole', 500, 4, 80, 0, 500, 416],
    ['wider than the room on both sides: from the left edge', 30, 4, 80, 10, 100, 10],
  ])('%s', (_, anchor, gap, width, left, right, x) => {
    expect(markerLabelX(anchor, gap, width, left, right)).toBe(x);
  });
});
