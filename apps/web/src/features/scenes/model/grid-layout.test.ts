import { describe, expect, it } from 'vitest';
import { GRID_MIN_H } from '@fieldlink/domain/widgets';
import { scene, widget } from './fixtures';
import { sameLayout, sceneLayouts, withBreakpointLayout } from './grid-layout';

describe('sceneLayouts', () => {
  it('gives lg always, and only the other breakpoints that were stored', () => {
    const layouts = sceneLayouts(
      scene('s1', { widgets: [widget('a')], gridLayout: { sm: [{ i: 'a', x: 0, y: 0, w: 3, h: 4 }] } }),
    );
    expect(Object.keys(layouts).sort()).toEqual(['lg', 'sm']);
    expect(layouts.sm).toEqual([{ i: 'a', x: 0, y: 0, w: 3, h: 4, minH: GRID_MIN_H, minW: 2 }]);
  });

  it('drops items of deleted widgets, places widgets without an item below the others, keeps minH 3', () => {
    const layouts = sceneLayouts(
      scene('s1', {
        widgets: [widget('a'), widget('b', { type: 'chart' })],
        gridLayout: {
          lg: [
            { i: 'a', x: 11, y: 0, w: 4, h: 1 },
            { i: 'deleted', x: 0, y: 0, w: 2, h: 4 },
          ],
        },
      }),
    );
    expect(layouts.lg).toEqual([
      { i: 'a', x: 8, y: 0, w: 4, h: 3, minH: 3, minW: 2 },
      { i: 'b', x: 0, y: 3, w: 6, h: 12, minH: 3, minW: 2 },
    ]);
  });
});

describe('sameLayout', () => {
  const a = [{ i: 'a', x: 0, y: 0, w: 2, h: 4 }];
  it('compares places and sizes, in any order', () => {
    expect(sameLayout(a, [{ i: 'a', x: 0, y: 0, w: 2, h: 4, minH: 3 }])).toBe(true);
    expect(sameLayout(a, [{ i: 'a', x: 1, y: 0, w: 2, h: 4 }])).toBe(false);
    expect(sameLayout(a, undefined)).toBe(false);
    expect(sameLayout(undefined, undefined)).toBe(true);
  });
});

describe('withBreakpointLayout', () => {
  it('replaces one breakpoint with stored items (minH 3, static and moved false) and keeps the others', () => {
    const s = scene('s1', {
      widgets: [widget('a'), widget('b')],
      gridLayout: { lg: [{ i: 'a', x: 0, y: 0, w: 2, h: 4 }], xs: [{ i: 'a', x: 0, y: 0, w: 4, h: 4 }] },
    });
    const next = withBreakpointLayout(s, 'md', [
      { i: 'a', x: 2, y: 0, w: 3, h: 5 },
      { i: 'b', x: 0, y: 5, w: 2, h: 4 },
    ]);
    expect(next.lg).toBe(s.gridLayout.lg);
    expect(next.xs).toBe(s.gridLayout.xs);
    expect(next.md).toEqual([
      { i: 'a', x: 2, y: 0, w: 3, h: 5, minH: 3, minW: 2, static: false, moved: false },
      { i: 'b', x: 0, y: 5, w: 2, h: 4, minH: 3, minW: 2, static: false, moved: false },
    ]);
  });
});
