/**
 * Scenes and widgets (application spec §3 Scene and Widget, §4 scenes and dashboard visibility,
 * §9 widgets): the widget types, their roles, defaults and grid sizes. The rules that act on them
 * (read-only scenes, grid normalising, default sizes) live here too, once, for server and web.
 */

/** Every widget type of §3, in the order the specification lists them. */
export const WIDGET_TYPES = [
  'chart',
  'table',
  'radial',
  'tank',
  'tankConical',
  'therm',
  'battery',
  'verticalBar',
  'signal',
  'upDownControl',
  'button',
  'switch',
  'indicator',
  'textAndNumber',
  'value',
  'slider',
  'sliderVertical',
  'progressBar',
  'mosnixManualSpray',
  'brewOriginalGravity',
  'brewSummary',
  'lagTime',
  'customText',
  'compass',
  'fan',
] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

/** Roles of a widget (§3): it shows a value, or it writes one. */
export type WidgetRole = 'INDICATOR' | 'CONTROL';

/** Widgets that write to a device through the real-time channel; every other type only shows. */
export const CONTROL_WIDGET_TYPES: ReadonlySet<WidgetType> = new Set<WidgetType>([
  'upDownControl',
  'button',
  'switch',
  'slider',
  'sliderVertical',
  'mosnixManualSpray',
]);

/** The role of a widget type. */
export function widgetRole(type: WidgetType): WidgetRole {
  return CONTROL_WIDGET_TYPES.has(type) ? 'CONTROL' : 'INDICATOR';
}

/** Grid breakpoints and their column counts (§3). */
export const GRID_BREAKPOINT_COLUMNS = { lg: 12, md: 10, sm: 6, xs: 4, xxs: 2 } as const;
export type GridBreakpoint = keyof typeof GRID_BREAKPOINT_COLUMNS;
export const GRID_BREAKPOINTS = Object.keys(GRID_BREAKPOINT_COLUMNS) as GridBreakpoint[];

/** Every grid item is at least this tall (§3 minH 3). */
export const GRID_MIN_H = 3;

/** Widget defaults of §3. */
export const WIDGET_DEFAULTS = {
  min: 0,
  max: 100,
  switchColors: false,
  activeColor: 'red',
  inactiveColor: 'grey',
  chartName: 'Chart',
} as const;

/** Plot lines on charts (§9): colour and width. */
export const PLOT_LINE_COLOR = '#CA9D43';
export const PLOT_LINE_WIDTH = 2;

/** Default grid size of a new widget (§9: w2 h4; a chart is three times as tall; a title w12 h4). */
export const DEFAULT_WIDGET_SIZE = { w: 2, h: 4 } as const;
export const CHART_HEIGHT_FACTOR = 3;
export const TITLE_WIDGET_SIZE = { w: 12, h: 4 } as const;

/** The lg-breakpoint size a new widget of this type gets. */
export function defaultWidgetSize(type: WidgetType): { w: number; h: number } {
  if (type === 'chart' || type === 'table') return { w: 6, h: DEFAULT_WIDGET_SIZE.h * CHART_HEIGHT_FACTOR };
  if (type === 'customText') return { ...TITLE_WIDGET_SIZE };
  return { ...DEFAULT_WIDGET_SIZE };
}
