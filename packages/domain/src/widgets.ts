import { isPlaceholderGroup, type GroupKind } from './account-tree';
import { DEMO_ACCOUNT_KIND } from './demo';

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

/** A widget's own size (§3 `size`): grid columns at lg and rows. */
export interface WidgetSize {
  w: number;
  h: number;
}

/** The lg-breakpoint size a new widget of this type gets. */
export function defaultWidgetSize(type: WidgetType): WidgetSize {
  if (type === 'chart' || type === 'table') return { w: 6, h: DEFAULT_WIDGET_SIZE.h * CHART_HEIGHT_FACTOR };
  if (type === 'customText') return { ...TITLE_WIDGET_SIZE };
  return { ...DEFAULT_WIDGET_SIZE };
}

/**
 * Every grid item is at least this wide, in columns (§5 "forced to a minimum height and width",
 * values not shown; ours): two columns is the narrowest a gauge or value stays readable at lg
 * (2/12 of the width); on xxs (2 columns) that is the full width.
 */
export const GRID_MIN_W = 2;

/** The column count every default size is given for (lg). */
const DEFAULT_SIZE_COLUMNS = GRID_BREAKPOINT_COLUMNS.lg;

/** At most this many widgets on one scene (a layout holds at most 200 items per breakpoint). */
export const MAX_WIDGETS_PER_SCENE = 200;
/** At most this many scenes in one group (`PUT /scenes/order` names at most 500). */
export const MAX_SCENES_PER_GROUP = 500;

/** One item of a grid layout (§3): widget id `i`, place and size in grid units. */
export interface GridLayoutItem {
  i: string;
  x: number;
  y: number;
  w: number;
  h: number;
  minH?: number;
  minW?: number;
  static?: boolean;
  moved?: boolean;
}

/** A grid layout per breakpoint; a breakpoint may be missing. */
export type GridLayoutSet = Partial<Record<GridBreakpoint, GridLayoutItem[]>>;

/** The account a scene belongs to, as far as §4's read-only rule goes. */
export interface SceneAccount {
  /** `brew`, `spray`, `stock`, `filtec`, `filtec moe`, `default`. */
  appType: string;
  /** `supplier`, `customer`; `demo` and `investor` are the kinds §4 and core §1 name. */
  kind: string;
}

/** App types whose scenes are read-only (§4): the brewing app, and the inventory (stock) app. */
export const READ_ONLY_SCENE_APP_TYPES: readonly string[] = ['brew', 'stock'];
/** Account kinds whose scenes are read-only (§4 "certain account kinds", "demo accounts"). */
export const READ_ONLY_SCENE_ACCOUNT_KINDS: readonly string[] = [DEMO_ACCOUNT_KIND, 'investor'];
/** The answer to a change of a read-only scene. */
export const READ_ONLY_SCENE_MESSAGE = 'Dashboards of this account are read-only.';

/**
 * True when the account's scenes may not be changed by anyone (§4): the brewing and inventory app
 * types, demo (simulation) accounts and investor accounts. Their dashboards are shown, never edited.
 */
export function isSceneReadOnly(account: SceneAccount): boolean {
  return READ_ONLY_SCENE_APP_TYPES.includes(account.appType) || READ_ONLY_SCENE_ACCOUNT_KINDS.includes(account.kind);
}

/** What a user may change of a scene, for {@link sceneReadOnlyReason}. */
export interface SceneEditRights {
  canEditScenes: boolean;
  canEditWidgets: boolean;
}

/**
 * Why a user cannot change a scene, in one line, or null when they can. The account's rule comes
 * first (it binds everyone), then the user's permissions, then the scene's own flag: a read-only
 * dashboard says why instead of silently missing its buttons.
 */
export function sceneReadOnlyReason(
  account: SceneAccount,
  scene: { readOnly?: boolean | null },
  rights: SceneEditRights,
): string | null {
  if (account.appType === 'brew')
    return 'Read-only: dashboards of the brewing app are set up for you and cannot be changed.';
  if (account.appType === 'stock')
    return 'Read-only: dashboards of the inventory app are set up for you and cannot be changed.';
  if (account.kind === 'demo') return 'Read-only: this is a demo account, so its dashboards cannot be changed.';
  if (account.kind === 'investor') return 'Read-only: investor accounts view dashboards but do not change them.';
  if (!rights.canEditScenes && !rights.canEditWidgets) {
    return 'Read-only: your permissions let you view dashboards; ask an administrator to change them.';
  }
  if (scene.readOnly) return 'Read-only: this dashboard is marked read-only for everyone.';
  return null;
}

/** What the scene page offers a user: each button shown only where the server would take it. */
export interface ScenePageRights {
  /** A new scene in the group: not in New Devices or Trash, which hold devices only. */
  canAddScene: boolean;
  /** Renaming, deleting, reordering and locking this scene. */
  canEditScene: (scene: { readOnly?: boolean | null }) => boolean;
  /** Adding, changing and deleting the shown scene's widgets. */
  widgetsEditable: boolean;
  /** Moving and resizing them: editable and not locked. */
  arrangeable: boolean;
  /** Why the shown scene cannot be changed, in one line, or null. */
  readOnlyReason: string | null;
}

/**
 * The scene page's rights for a user with `rights` in a group of kind `groupKind` of `account`,
 * showing `scene` (null when none is shown): the account's read-only rule (§4) binds everyone, then
 * the user's permissions, then the scene's own flags.
 */
export function scenePageRights(
  rights: SceneEditRights,
  account: SceneAccount,
  groupKind: GroupKind,
  scene: { readOnly?: boolean | null; isGridLocked?: boolean | null } | null,
): ScenePageRights {
  const accountReadOnly = isSceneReadOnly(account);
  const canEditScene = (target: { readOnly?: boolean | null }) =>
    rights.canEditScenes && !target.readOnly && !accountReadOnly;
  const widgetsEditable = scene !== null && rights.canEditWidgets && !scene.readOnly && !accountReadOnly;
  return {
    canAddScene: rights.canEditScenes && !accountReadOnly && !isPlaceholderGroup(groupKind),
    canEditScene,
    widgetsEditable,
    arrangeable: widgetsEditable && !scene.isGridLocked,
    readOnlyReason: scene === null ? null : sceneReadOnlyReason(account, scene, rights),
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}

/** The narrowest an item may be on a breakpoint: {@link GRID_MIN_W}, or every column when fewer. */
export function gridMinWidth(breakpoint: GridBreakpoint): number {
  return Math.min(GRID_MIN_W, GRID_BREAKPOINT_COLUMNS[breakpoint]);
}

/** One item made valid for its breakpoint: minimum size, inside the columns, never static or moved. */
function normaliseItem(item: GridLayoutItem, breakpoint: GridBreakpoint): GridLayoutItem {
  const columns = GRID_BREAKPOINT_COLUMNS[breakpoint];
  const minW = gridMinWidth(breakpoint);
  const w = clamp(Math.round(item.w), minW, columns);
  return {
    i: item.i,
    x: clamp(Math.round(item.x), 0, columns - w),
    y: Math.max(0, Math.round(item.y)),
    w,
    h: Math.max(Math.round(item.h), GRID_MIN_H),
    minH: GRID_MIN_H,
    minW,
    static: false,
    moved: false,
  };
}

/** An lg width scaled to a breakpoint's columns, held between its narrowest and its full width. */
function scaledWidth(lgWidth: number, breakpoint: GridBreakpoint): number {
  const columns = GRID_BREAKPOINT_COLUMNS[breakpoint];
  return clamp(Math.round((lgWidth * columns) / DEFAULT_SIZE_COLUMNS), gridMinWidth(breakpoint), columns);
}

/**
 * The size a new widget gets on a breakpoint: its own `size` (else its type's default) at lg, scaled
 * to the breakpoint's columns.
 */
export function widgetSizeAt(type: WidgetType, breakpoint: GridBreakpoint, own?: WidgetSize): WidgetSize {
  const size = own ?? defaultWidgetSize(type);
  return { w: scaledWidth(size.w, breakpoint), h: Math.max(size.h, GRID_MIN_H) };
}

/** The first free row below every item of a layout. */
function bottomOf(items: readonly GridLayoutItem[]): number {
  return items.reduce((bottom, item) => Math.max(bottom, item.y + item.h), 0);
}

/**
 * A layout made valid for the scene's widgets (§3, §5), on every breakpoint: items of widgets that
 * no longer exist are dropped, a widget's second item is dropped, each item gets minH 3, at least
 * {@link GRID_MIN_W} columns, x + w within the breakpoint's columns, static and moved false. A widget
 * without an item on a breakpoint is placed below the others there, at its default size, so a stored
 * layout always places every widget and the grid never has to guess.
 */
export function normaliseGridLayout(
  layouts: GridLayoutSet,
  widgets: readonly { id: string; type: WidgetType; size?: WidgetSize }[],
): Record<GridBreakpoint, GridLayoutItem[]> {
  const types = new Map(widgets.map((widget) => [widget.id, widget.type]));
  const result = {} as Record<GridBreakpoint, GridLayoutItem[]>;
  for (const breakpoint of GRID_BREAKPOINTS) {
    const seen = new Set<string>();
    const items: GridLayoutItem[] = [];
    for (const item of layouts[breakpoint] ?? []) {
      if (!types.has(item.i) || seen.has(item.i)) continue;
      seen.add(item.i);
      items.push(normaliseItem(item, breakpoint));
    }
    for (const widget of widgets) {
      if (!seen.has(widget.id)) items.push(placedItem(items, widget.id, widget.type, breakpoint, widget.size));
      seen.add(widget.id);
    }
    result[breakpoint] = items;
  }
  return result;
}

function placedItem(
  items: readonly GridLayoutItem[],
  widgetId: string,
  type: WidgetType,
  breakpoint: GridBreakpoint,
  size?: WidgetSize,
): GridLayoutItem {
  return normaliseItem({ i: widgetId, x: 0, y: bottomOf(items), ...widgetSizeAt(type, breakpoint, size) }, breakpoint);
}

/** A new widget's item in the first free place that fits, top to bottom, then left to right. */
function firstFreeItem(
  items: readonly GridLayoutItem[],
  widgetId: string,
  type: WidgetType,
  breakpoint: GridBreakpoint,
  size?: WidgetSize,
): GridLayoutItem {
  const sized = normaliseItem({ i: widgetId, x: 0, y: 0, ...widgetSizeAt(type, breakpoint, size) }, breakpoint);
  const columns = GRID_BREAKPOINT_COLUMNS[breakpoint];
  const free = (x: number, y: number) =>
    items.every(
      (item) => x + sized.w <= item.x || item.x + item.w <= x || y + sized.h <= item.y || item.y + item.h <= y,
    );
  // Below every item there always is a place.
  for (let y = 0; y <= bottomOf(items); y += 1) {
    for (let x = 0; x + sized.w <= columns; x += 1) if (free(x, y)) return { ...sized, x, y };
  }
  return { ...sized, y: bottomOf(items) };
}

/**
 * The layouts with a new widget placed on every breakpoint: in the first free place that fits,
 * top to bottom and left to right, at the widget's own size (else its type's default,
 * {@link defaultWidgetSize}) scaled to the breakpoint's columns.
 * An item the widget already had is replaced.
 */
export function placeNewWidget(
  layouts: GridLayoutSet,
  widgetId: string,
  type: WidgetType,
  size?: WidgetSize,
): Record<GridBreakpoint, GridLayoutItem[]> {
  const result = {} as Record<GridBreakpoint, GridLayoutItem[]>;
  for (const breakpoint of GRID_BREAKPOINTS) {
    const others = (layouts[breakpoint] ?? []).filter((item) => item.i !== widgetId);
    result[breakpoint] = [...others, firstFreeItem(others, widgetId, type, breakpoint, size)];
  }
  return result;
}

/**
 * A layout for a whole set of widgets at once (a generated or demo dashboard): on every breakpoint
 * the widgets are laid left to right in the given order, a new row starting when the next one does
 * not fit; a row is as tall as its tallest widget. A widget may ask for its own lg size (scaled to
 * each breakpoint's columns like the default sizes).
 */
export function flowGridLayout(widgets: readonly LaidOutWidget[]): Record<GridBreakpoint, GridLayoutItem[]> {
  const result = {} as Record<GridBreakpoint, GridLayoutItem[]>;
  for (const breakpoint of GRID_BREAKPOINTS) {
    const columns = GRID_BREAKPOINT_COLUMNS[breakpoint];
    const items: GridLayoutItem[] = [];
    let x = 0;
    let y = 0;
    let rowHeight = 0;
    for (const widget of widgets) {
      const { w, h } = laidOutSize(widget, breakpoint);
      if (x + w > columns) {
        x = 0;
        y += rowHeight;
        rowHeight = 0;
      }
      items.push(normaliseItem({ i: widget.id, x, y, w, h }, breakpoint));
      x += w;
      rowHeight = Math.max(rowHeight, h);
    }
    result[breakpoint] = items;
  }
  return result;
}

/** A widget of a whole-set layout: its type's default size, or its own lg size. */
interface LaidOutWidget {
  id: string;
  type: WidgetType;
  w?: number;
  h?: number;
}

/** The size of a widget of a whole-set layout on a breakpoint (its own lg width scaled like the defaults). */
function laidOutSize(widget: LaidOutWidget, breakpoint: GridBreakpoint): { w: number; h: number } {
  const size = widgetSizeAt(widget.type, breakpoint);
  return {
    w: Math.min(
      widget.w === undefined ? size.w : scaledWidth(widget.w, breakpoint),
      GRID_BREAKPOINT_COLUMNS[breakpoint],
    ),
    h: Math.max(widget.h ?? size.h, GRID_MIN_H),
  };
}

/**
 * A layout for a whole set of widgets that packs them (the generated plant dashboards): in the given
 * order, each widget goes where it sits highest, leftmost on a tie, so small tiles fill the space
 * beside a tall chart instead of leaving a hole under them as a row layout does.
 */
export function packedGridLayout(widgets: readonly LaidOutWidget[]): Record<GridBreakpoint, GridLayoutItem[]> {
  const result = {} as Record<GridBreakpoint, GridLayoutItem[]>;
  for (const breakpoint of GRID_BREAKPOINTS) {
    const columns = GRID_BREAKPOINT_COLUMNS[breakpoint];
    /** The free top of each column. */
    const tops = new Array<number>(columns).fill(0);
    result[breakpoint] = widgets.map((widget) => {
      const { w, h } = laidOutSize(widget, breakpoint);
      let x = 0;
      let y = Number.POSITIVE_INFINITY;
      for (let at = 0; at + w <= columns; at += 1) {
        const top = Math.max(...tops.slice(at, at + w));
        if (top < y) [x, y] = [at, top];
      }
      tops.fill(y + h, x, x + w);
      return normaliseItem({ i: widget.id, x, y, w, h }, breakpoint);
    });
  }
  return result;
}

/** The layouts without a widget's items. */
export function removeWidgetFromLayout(layouts: GridLayoutSet, widgetId: string): GridLayoutSet {
  return Object.fromEntries(
    Object.entries(layouts).map(([breakpoint, items]) => [breakpoint, items.filter((item) => item.i !== widgetId)]),
  ) as GridLayoutSet;
}

/** The widget fields §3 gives defaults for. */
export interface WidgetDefaultedFields {
  name: string;
  min: number;
  max: number;
  switchColors: boolean;
  activeColor: string;
  inactiveColor: string;
  /** The widget's size at lg (§3 `size`): where a layout has no place for it, it is placed this big. */
  size: WidgetSize;
}

/**
 * A widget with §3's defaults filled where a field is missing: min 0, max 100, switchColors false,
 * activeColor red, inactiveColor grey, the type's default size (§9); a chart without a name is called
 * "Chart". Given fields stay.
 */
export function widgetWithDefaults<T extends { type: WidgetType } & Partial<WidgetDefaultedFields>>(
  widget: T,
): T & WidgetDefaultedFields {
  const blankName = widget.name === undefined || widget.name.trim() === '';
  return {
    ...widget,
    name: blankName && widget.type === 'chart' ? WIDGET_DEFAULTS.chartName : (widget.name ?? ''),
    min: widget.min ?? WIDGET_DEFAULTS.min,
    max: widget.max ?? WIDGET_DEFAULTS.max,
    switchColors: widget.switchColors ?? WIDGET_DEFAULTS.switchColors,
    activeColor: widget.activeColor ?? WIDGET_DEFAULTS.activeColor,
    inactiveColor: widget.inactiveColor ?? WIDGET_DEFAULTS.inactiveColor,
    size: widget.size ?? defaultWidgetSize(widget.type),
  };
}

/** What a widget must satisfy beyond its shape, or null when it does. */
export function widgetProblem(widget: {
  min: number;
  max: number;
  yAxis: readonly { name: string; hasFixRange: boolean; min?: number; max?: number }[];
}): string | null {
  if (!(widget.min < widget.max)) return 'The minimum must be less than the maximum.';
  for (const axis of widget.yAxis) {
    if (!axis.hasFixRange) continue;
    if (axis.min === undefined || axis.max === undefined) return 'A fixed axis range needs a minimum and a maximum.';
    if (!(axis.min < axis.max)) return 'The minimum must be less than the maximum.';
  }
  return null;
}

/** A scene name as stored: trimmed, runs of white space made one. An empty name is allowed (§2). */
export function normaliseSceneName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

/**
 * The route of a scene dashboard (§2): `/dash/{accountId}/{groupId}/{sceneId}`, without the scene
 * segment when the scene's name is empty (or there is no scene): `/dash/{accountId}/{groupId}`.
 */
export function sceneRoute(accountId: string, groupId: string, scene?: { id: string; name: string } | null): string {
  const base = `/dash/${encodeURIComponent(accountId)}/${encodeURIComponent(groupId)}`;
  return scene && scene.name.trim() !== '' ? `${base}/${encodeURIComponent(scene.id)}` : base;
}

/** The list with the item at `from` moved to `to` (both clamped to the list), for drag reordering. */
export function moveInOrder<T>(items: readonly T[], from: number, to: number): T[] {
  const result = [...items];
  if (from < 0 || from >= result.length) return result;
  const [moved] = result.splice(from, 1);
  result.splice(clamp(to, 0, result.length), 0, moved as T);
  return result;
}

/** A refused scene order: the status and message the server answers. */
export interface SceneOrderRefusal {
  status: 400 | 409;
  message: string;
}

/**
 * Why a new scene order cannot be applied, or null when it can (§4 "scene ordering is changed by
 * supplying scene ids"). The ids must be exactly the group's scenes, each once: a repeated id is a
 * malformed request (400); a missing or unknown id means the caller's list is stale or names a scene
 * of another group (409), and nothing is reordered: a partial order would silently shuffle scenes
 * the caller did not see.
 */
export function sceneOrderRefusal(current: readonly string[], requested: readonly string[]): SceneOrderRefusal | null {
  if (new Set(requested).size !== requested.length) return { status: 400, message: 'A scene is named twice.' };
  const known = new Set(current);
  if (requested.length !== current.length || requested.some((id) => !known.has(id))) {
    return { status: 409, message: 'The dashboards of this group have changed. Reload and try again.' };
  }
  return null;
}
