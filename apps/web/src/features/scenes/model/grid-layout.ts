import type { GridItem, GridLayouts, Scene } from '@fieldlink/api/scenes';
import {
  GRID_BREAKPOINTS,
  GRID_MIN_H,
  gridMinWidth,
  normaliseGridLayout,
  type GridBreakpoint,
  type GridLayoutItem,
} from '@fieldlink/domain/widgets';

/**
 * Between a scene's stored `gridLayout` and react-grid-layout. The rules (minimum sizes, items inside
 * the columns, every widget placed) are the domain's `normaliseGridLayout`; here only what the grid
 * needs besides: which breakpoints to hand it, and one breakpoint's layout written back after a drag
 * or resize.
 */

/** Container widths (px) where each breakpoint starts: the grid library's defaults. */
export const GRID_BREAKPOINT_WIDTHS: Record<GridBreakpoint, number> = { lg: 1200, md: 996, sm: 768, xs: 480, xxs: 0 };

/** A layout item as the grid takes it: the domain's item without the stored-only flags. */
export type LayoutItem = Omit<GridLayoutItem, 'static' | 'moved'>;

export type SceneLayouts = Partial<Record<GridBreakpoint, LayoutItem[]>>;

/**
 * The layouts to give the grid: every stored breakpoint (and lg always) made valid for the scene's
 * widgets. A breakpoint never stored is left out, so the grid derives it from the nearest wider one
 * (keeping that arrangement) rather than stacking every widget at the left edge.
 */
export function sceneLayouts(scene: Pick<Scene, 'widgets' | 'gridLayout'>): SceneLayouts {
  const normalised = normaliseGridLayout(scene.gridLayout, scene.widgets);
  const layouts: SceneLayouts = {};
  for (const breakpoint of GRID_BREAKPOINTS) {
    if (breakpoint !== 'lg' && !scene.gridLayout[breakpoint]?.length) continue;
    layouts[breakpoint] = normalised[breakpoint].map(({ i, x, y, w, h, minH, minW }) => ({
      i,
      x,
      y,
      w,
      h,
      minH: minH ?? GRID_MIN_H,
      minW: minW ?? gridMinWidth(breakpoint),
    }));
  }
  return layouts;
}

/** True when both layouts place the same items at the same places and sizes. */
export function sameLayout(a: readonly LayoutItem[] | undefined, b: readonly LayoutItem[] | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.length !== b.length) return false;
  const byId = new Map(a.map((item) => [item.i, item]));
  return b.every((item) => {
    const other = byId.get(item.i);
    return other !== undefined && other.x === item.x && other.y === item.y && other.w === item.w && other.h === item.h;
  });
}

/**
 * The scene's stored layouts with one breakpoint replaced by the grid's layout after a drag or
 * resize, as stored items (§3: i, x, y, w, h, minH 3, static false, moved false). Other breakpoints
 * keep what was stored: each screen size keeps its own arrangement.
 */
export function withBreakpointLayout(
  scene: Pick<Scene, 'widgets' | 'gridLayout'>,
  breakpoint: GridBreakpoint,
  layout: readonly LayoutItem[],
): GridLayouts {
  const items: GridItem[] = layout.map(({ i, x, y, w, h }) => ({ i, x, y, w, h }));
  const valid = normaliseGridLayout({ [breakpoint]: items }, scene.widgets)[breakpoint];
  return { ...scene.gridLayout, [breakpoint]: valid };
}
