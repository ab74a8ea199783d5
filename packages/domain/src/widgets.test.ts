import { describe, expect, it } from 'vitest';
import {
  GRID_BREAKPOINTS,
  GRID_MIN_H,
  flowGridLayout,
  isSceneReadOnly,
  packedGridLayout,
  sceneReadOnlyReason,
  scenePageRights,
  moveInOrder,
  normaliseGridLayout,
  normaliseSceneName,
  placeNewWidget,
  removeWidgetFromLayout,
  sceneOrderRefusal,
  sceneRoute,
  widgetProblem,
  widgetRole,
  widgetSizeAt,
  widgetWithDefaults,
  type GridBreakpoint,
  type GridLayoutItem,
  type WidgetType,
} from './widgets';

describe('read-only scenes (§4)', () => {
  it.each([
    ['brew', 'customer', true],
    ['stock', 'customer', true],
    ['spray', 'customer', false],
    ['filtec', 'customer', false],
    ['filtec moe', 'customer', false],
    ['default', 'customer', false],
    ['default', 'supplier', false],
    ['default', 'demo', true],
    ['spray', 'investor', true],
  ])('app type %j, account kind %j: read-only %s', (appType, kind, readOnly) =>
    expect(isSceneReadOnly({ appType, kind })).toBe(readOnly),
  );
});

describe('widget roles', () => {
  it.each<[WidgetType, string]>([
    ['switch', 'CONTROL'],
    ['button', 'CONTROL'],
    ['slider', 'CONTROL'],
    ['chart', 'INDICATOR'],
    ['indicator', 'INDICATOR'],
    ['customText', 'INDICATOR'],
  ])('%s is a %s', (type, role) => expect(widgetRole(type)).toBe(role));
});

describe('default sizes per breakpoint', () => {
  it.each<[WidgetType, GridBreakpoint, number, number]>([
    ['value', 'lg', 2, 4],
    ['value', 'md', 2, 4],
    ['value', 'sm', 2, 4],
    ['value', 'xxs', 2, 4],
    ['chart', 'lg', 6, 12],
    ['chart', 'md', 5, 12],
    ['chart', 'sm', 3, 12],
    ['chart', 'xs', 2, 12],
    ['chart', 'xxs', 2, 12],
    ['customText', 'lg', 12, 4],
    ['customText', 'md', 10, 4],
    ['customText', 'xxs', 2, 4],
  ])('%s on %s is w%i h%i', (type, breakpoint, w, h) => expect(widgetSizeAt(type, breakpoint)).toEqual({ w, h }));
});

const item = (i: string, x: number, y: number, w: number, h: number): GridLayoutItem => ({ i, x, y, w, h });
const normal = (i: string, x: number, y: number, w: number, h: number, minW = 2): GridLayoutItem => ({
  i,
  x,
  y,
  w,
  h,
  minH: GRID_MIN_H,
  minW,
  static: false,
  moved: false,
});

describe('normaliseGridLayout', () => {
  const widgets = [
    { id: 'a', type: 'value' as const },
    { id: 'b', type: 'chart' as const },
  ];

  it.each<[string, GridLayoutItem[], GridLayoutItem[]]>([
    ['keeps a valid item, adding minH, minW, static and moved', [item('a', 0, 0, 2, 4)], [normal('a', 0, 0, 2, 4)]],
    ['raises a low item to minH 3', [item('a', 0, 0, 2, 1)], [normal('a', 0, 0, 2, 3)]],
    ['widens a narrow item to the minimum width', [item('a', 0, 0, 1, 4)], [normal('a', 0, 0, 2, 4)]],
    ['pulls an item back inside the columns', [item('a', 11, 2, 4, 4)], [normal('a', 8, 2, 4, 4)]],
    ['cuts an item wider than the grid', [item('a', 0, 0, 12, 4)], [normal('a', 0, 0, 12, 4)]],
    [
      'drops items of widgets that no longer exist',
      [item('a', 0, 0, 2, 4), item('gone', 2, 0, 2, 4)],
      [normal('a', 0, 0, 2, 4)],
    ],
    ['keeps one item per widget, the first', [item('a', 0, 0, 2, 4), item('a', 4, 4, 2, 4)], [normal('a', 0, 0, 2, 4)]],
    [
      'forces static and moved false',
      [{ ...item('a', 0, 0, 2, 4), static: true, moved: true }],
      [normal('a', 0, 0, 2, 4)],
    ],
  ])('lg: %s', (_case, lg, expected) => {
    const result = normaliseGridLayout({ lg: [...lg, item('b', 0, 10, 6, 12)] }, widgets);
    expect(result.lg.filter((entry) => entry.i === 'a')).toEqual(expected);
  });

  it.each<[GridBreakpoint, GridLayoutItem, GridLayoutItem]>([
    ['md', item('a', 9, 0, 2, 4), normal('a', 8, 0, 2, 4)],
    ['sm', item('a', 0, 0, 8, 4), normal('a', 0, 0, 6, 4)],
    ['xs', item('a', 3, 0, 2, 4), normal('a', 2, 0, 2, 4)],
    ['xxs', item('a', 1, 0, 1, 2), normal('a', 0, 0, 2, 3)],
  ])('%s: %j becomes %j', (breakpoint, given, expected) => {
    const result = normaliseGridLayout({ [breakpoint]: [given] }, [widgets[0]!]);
    expect(result[breakpoint]).toEqual([expected]);
  });

  it('places a widget missing from the layout at its own size (§3 size)', () => {
    const result = normaliseGridLayout({}, [{ id: 'a', type: 'value', size: { w: 4, h: 6 } }]);
    expect(result.lg).toEqual([normal('a', 0, 0, 4, 6)]);
  });

  it('places a widget missing from a breakpoint below the others, on every breakpoint', () => {
    const result = normaliseGridLayout({ lg: [item('a', 0, 0, 2, 5)] }, widgets);
    expect(result.lg).toEqual([normal('a', 0, 0, 2, 5), normal('b', 0, 5, 6, 12)]);
    expect(result.xxs).toEqual([normal('a', 0, 0, 2, 4), normal('b', 0, 4, 2, 12)]);
    expect(Object.keys(result)).toEqual(GRID_BREAKPOINTS);
  });
});

describe('placeNewWidget', () => {
  it.each<[string, GridLayoutItem[], WidgetType, GridLayoutItem]>([
    ['an empty grid: top left', [], 'value', normal('n', 0, 0, 2, 4)],
    ['the first gap that fits', [item('a', 0, 0, 2, 4), item('b', 4, 2, 2, 6)], 'value', normal('n', 2, 0, 2, 4)],
    ['beside a row, left to right', [item('a', 0, 0, 6, 4), item('b', 6, 0, 2, 4)], 'value', normal('n', 8, 0, 2, 4)],
    [
      'a gap too narrow is passed over',
      [item('a', 0, 0, 5, 4), item('b', 6, 0, 6, 4)],
      'value',
      normal('n', 0, 4, 2, 4),
    ],
    [
      'below everything when no gap fits',
      [item('a', 0, 0, 12, 4), item('b', 0, 4, 12, 3)],
      'value',
      normal('n', 0, 7, 2, 4),
    ],
    ['a chart: six columns, three times as tall', [], 'chart', normal('n', 0, 0, 6, 12)],
    ['a title: the full width', [item('a', 0, 0, 2, 4)], 'customText', normal('n', 0, 4, 12, 4)],
    ['replacing an item the widget had', [item('n', 6, 20, 2, 4)], 'value', normal('n', 0, 0, 2, 4)],
  ])('lg: %s', (_case, lg, type, expected) => {
    const result = placeNewWidget({ lg }, 'n', type);
    expect(result.lg.filter((entry) => entry.i === 'n')).toEqual([expected]);
  });

  it('places a widget at its own size (§3 size) rather than its type’s', () => {
    const result = placeNewWidget({ lg: [item('a', 0, 0, 2, 4)] }, 'n', 'value', { w: 4, h: 6 });
    expect(result.lg.at(-1)).toEqual(normal('n', 2, 0, 4, 6));
    expect(result.sm.at(-1)).toEqual(normal('n', 0, 0, 2, 6));
  });

  it('places the widget on every breakpoint, scaled to its columns', () => {
    const result = placeNewWidget({ md: [item('a', 0, 0, 10, 4)] }, 'n', 'chart');
    expect(GRID_BREAKPOINTS.map((breakpoint) => result[breakpoint].at(-1))).toEqual([
      normal('n', 0, 0, 6, 12),
      normal('n', 0, 4, 5, 12),
      normal('n', 0, 0, 3, 12),
      normal('n', 0, 0, 2, 12),
      normal('n', 0, 0, 2, 12),
    ]);
  });

  it('removeWidgetFromLayout takes a widget out of every breakpoint', () => {
    expect(
      removeWidgetFromLayout({ lg: [item('a', 0, 0, 2, 4), item('b', 2, 0, 2, 4)], xs: [item('a', 0, 0, 2, 4)] }, 'a'),
    ).toEqual({
      lg: [item('b', 2, 0, 2, 4)],
      xs: [],
    });
  });
});

describe('widgetWithDefaults (§3)', () => {
  it.each([
    [
      { type: 'radial' as const },
      { name: '', min: 0, max: 100, switchColors: false, activeColor: 'red', inactiveColor: 'grey' },
    ],
    [{ type: 'chart' as const }, { name: 'Chart' }],
    [{ type: 'chart' as const, name: '  ' }, { name: 'Chart' }],
    [{ type: 'chart' as const, name: 'Temperatures' }, { name: 'Temperatures' }],
    [
      { type: 'value' as const, name: 'Flow', min: -5, max: 5 },
      { name: 'Flow', min: -5, max: 5 },
    ],
    [
      { type: 'switch' as const, switchColors: true, activeColor: 'green' },
      { switchColors: true, activeColor: 'green', inactiveColor: 'grey' },
    ],
    [{ type: 'value' as const }, { size: { w: 2, h: 4 } }],
    [{ type: 'chart' as const }, { size: { w: 6, h: 12 } }],
    [{ type: 'customText' as const }, { size: { w: 12, h: 4 } }],
    [{ type: 'radial' as const, size: { w: 3, h: 5 } }, { size: { w: 3, h: 5 } }],
  ])('%j', (given, expected) => expect(widgetWithDefaults(given)).toMatchObject({ ...given, ...expected }));
});

describe('widgetProblem', () => {
  it.each([
    [{ min: 0, max: 100, yAxis: [] }, null],
    [{ min: 5, max: 5, yAxis: [] }, 'The minimum must be less than the maximum.'],
    [{ min: 10, max: 0, yAxis: [] }, 'The minimum must be less than the maximum.'],
    [{ min: 0, max: 1, yAxis: [{ name: 'a', hasFixRange: false }] }, null],
    [{ min: 0, max: 1, yAxis: [{ name: 'a', hasFixRange: true, min: 0, max: 6 }] }, null],
    [
      { min: 0, max: 1, yAxis: [{ name: 'a', hasFixRange: true, min: 0 }] },
      'A fixed axis range needs a minimum and a maximum.',
    ],
    [
      { min: 0, max: 1, yAxis: [{ name: 'a', hasFixRange: true, min: 6, max: 0 }] },
      'The minimum must be less than the maximum.',
    ],
  ])('%j -> %j', (widget, problem) => expect(widgetProblem(widget)).toBe(problem));
});

describe('scene names and routes (§2)', () => {
  it.each([
    ['  Boiler   room ', 'Boiler room'],
    ['', ''],
    ['   ', ''],
  ])('%j is stored as %j', (name, stored) => expect(normaliseSceneName(name)).toBe(stored));

  it.each([
    ['acc1', 'g1', { id: 's1', name: 'Overview' }, '/dash/acc1/g1/s1'],
    ['acc1', 'g1', { id: 's1', name: '' }, '/dash/acc1/g1'],
    ['acc1', 'g1', { id: 's1', name: '  ' }, '/dash/acc1/g1'],
    ['acc1', 'g1', null, '/dash/acc1/g1'],
    ['a c', 'g/1', { id: 's?1', name: 'x' }, '/dash/a%20c/g%2F1/s%3F1'],
  ])('%s %s %j -> %s', (accountId, groupId, scene, route) => expect(sceneRoute(accountId, groupId, scene)).toBe(route));
});

describe('scene order', () => {
  it.each([
    [['a', 'b', 'c'], 0, 2, ['b', 'c', 'a']],
    [['a', 'b', 'c'], 2, 0, ['c', 'a', 'b']],
    [['a', 'b', 'c'], 1, 1, ['a', 'b', 'c']],
    [['a', 'b', 'c'], 0, 9, ['b', 'c', 'a']],
    [['a', 'b', 'c'], 5, 0, ['a', 'b', 'c']],
  ])('moveInOrder(%j, %i, %i) -> %j', (items, from, to, expected) =>
    expect(moveInOrder(items, from, to)).toEqual(expected),
  );

  it.each([
    [['a', 'b'], ['b', 'a'], null],
    [['a', 'b'], ['a', 'b'], null],
    [['a', 'b'], ['a', 'a'], 400],
    [['a', 'b'], ['a'], 409],
    [['a', 'b'], ['a', 'b', 'c'], 409],
    [['a', 'b'], ['a', 'c'], 409],
    [[], ['a'], 409],
  ])('current %j, requested %j -> %j', (current, requested, status) =>
    expect(sceneOrderRefusal(current, requested)?.status ?? null).toBe(status),
  );
});

describe('flowGridLayout', () => {
  const widgets = [
    { id: 'title', type: 'customText' as const },
    { id: 'a', type: 'value' as const },
    { id: 'b', type: 'radial' as const, w: 3, h: 6 },
    { id: 'chart', type: 'chart' as const },
    { id: 'c', type: 'value' as const },
  ];

  it.each<[GridBreakpoint, GridLayoutItem[]]>([
    [
      'lg',
      [
        normal('title', 0, 0, 12, 4),
        normal('a', 0, 4, 2, 4),
        normal('b', 2, 4, 3, 6),
        normal('chart', 5, 4, 6, 12),
        normal('c', 0, 16, 2, 4),
      ],
    ],
    [
      'sm',
      [
        normal('title', 0, 0, 6, 4),
        normal('a', 0, 4, 2, 4),
        normal('b', 2, 4, 2, 6),
        normal('chart', 0, 10, 3, 12),
        normal('c', 3, 10, 2, 4),
      ],
    ],
    [
      'xxs',
      [
        normal('title', 0, 0, 2, 4),
        normal('a', 0, 4, 2, 4),
        normal('b', 0, 8, 2, 6),
        normal('chart', 0, 14, 2, 12),
        normal('c', 0, 26, 2, 4),
      ],
    ],
  ])('%s', (breakpoint, expected) => expect(flowGridLayout(widgets)[breakpoint]).toEqual(expected));
});

describe('packedGridLayout', () => {
  const widgets = [
    { id: 'chart', type: 'chart' as const },
    { id: 'a', type: 'value' as const },
    { id: 'b', type: 'value' as const },
    { id: 'c', type: 'value' as const },
    { id: 'd', type: 'radial' as const, w: 3, h: 6 },
    { id: 'e', type: 'value' as const },
    { id: 'wide', type: 'chart' as const, w: 12 },
  ];

  it.each<[GridBreakpoint, GridLayoutItem[]]>([
    [
      'lg',
      [
        // The tiles fill the columns beside the chart, each where it sits highest.
        normal('chart', 0, 0, 6, 12),
        normal('a', 6, 0, 2, 4),
        normal('b', 8, 0, 2, 4),
        normal('c', 10, 0, 2, 4),
        normal('d', 6, 4, 3, 6),
        normal('e', 9, 4, 2, 4),
        normal('wide', 0, 12, 12, 12),
      ],
    ],
    [
      'xxs',
      [
        normal('chart', 0, 0, 2, 12),
        normal('a', 0, 12, 2, 4),
        normal('b', 0, 16, 2, 4),
        normal('c', 0, 20, 2, 4),
        normal('d', 0, 24, 2, 6),
        normal('e', 0, 30, 2, 4),
        normal('wide', 0, 34, 2, 12),
      ],
    ],
  ])('%s', (breakpoint, expected) => expect(packedGridLayout(widgets)[breakpoint]).toEqual(expected));

  it('never overlaps two widgets on any breakpoint', () => {
    for (const items of Object.values(packedGridLayout(widgets))) {
      for (const [index, one] of items.entries()) {
        for (const other of items.slice(index + 1)) {
          const apart =
            one.x + one.w <= other.x ||
            other.x + other.w <= one.x ||
            one.y + one.h <= other.y ||
            other.y + other.h <= one.y;
          expect(apart, `${one.i} / ${other.i}`).toBe(true);
        }
      }
    }
  });
});

describe('sceneReadOnlyReason: why a scene cannot be changed, in one line', () => {
  const editor = { canEditScenes: true, canEditWidgets: true };
  const viewer = { canEditScenes: false, canEditWidgets: false };
  it.each<[string, { appType: string; kind: string }, boolean, typeof editor, RegExp | null]>([
    ['brewing app', { appType: 'brew', kind: 'customer' }, false, editor, /brewing app/],
    ['inventory app', { appType: 'stock', kind: 'customer' }, false, editor, /inventory app/],
    ['demo account', { appType: 'default', kind: 'demo' }, false, editor, /demo account/],
    ['investor account', { appType: 'filtec', kind: 'investor' }, false, editor, /investor accounts/],
    ['a read-only scene', { appType: 'default', kind: 'customer' }, true, editor, /marked read-only/],
    ['no permission to change', { appType: 'default', kind: 'customer' }, false, viewer, /your permissions/],
    ['no permission, on a read-only scene', { appType: 'default', kind: 'customer' }, true, viewer, /your permissions/],
    [
      'widgets only is enough to change',
      { appType: 'spray', kind: 'customer' },
      false,
      { ...viewer, canEditWidgets: true },
      null,
    ],
    ['an editor of an editable scene', { appType: 'default', kind: 'customer' }, false, editor, null],
  ])('%s', (_name, account, readOnly, rights, expected) => {
    const reason = sceneReadOnlyReason(account, { readOnly }, rights);
    if (expected === null) expect(reason).toBeNull();
    else expect(reason).toMatch(expected);
  });
});

describe('scenePageRights: what the scene page offers', () => {
  const editor = { canEditScenes: true, canEditWidgets: true };
  const widgetsOnly = { canEditScenes: false, canEditWidgets: true };
  const viewer = { canEditScenes: false, canEditWidgets: false };
  const customer = { appType: 'default', kind: 'customer' };
  const open = { readOnly: false, isGridLocked: false };
  type Row = [string, typeof editor, typeof customer, 'root' | 'group' | 'new' | 'trash', typeof open | null];
  type Offered = [addScene: boolean, editScene: boolean, widgets: boolean, arrange: boolean, reason: RegExp | null];
  it.each<[...Row, Offered]>([
    ['an editor of an open scene', editor, customer, 'group', open, [true, true, true, true, null]],
    [
      'an editor of a locked scene',
      editor,
      customer,
      'group',
      { ...open, isGridLocked: true },
      [true, true, true, false, null],
    ],
    [
      'an editor of a read-only scene',
      editor,
      customer,
      'group',
      { ...open, readOnly: true },
      [true, false, false, false, /marked read-only/],
    ],
    ['an editor with no scene shown', editor, customer, 'root', null, [true, true, false, false, null]],
    ['an editor in New Devices', editor, customer, 'new', null, [false, true, false, false, null]],
    ['an editor in Trash', editor, customer, 'trash', null, [false, true, false, false, null]],
    ['widgets only', widgetsOnly, customer, 'group', open, [false, false, true, true, null]],
    ['a viewer', viewer, customer, 'group', open, [false, false, false, false, /your permissions/]],
    [
      'an editor of the brewing app',
      editor,
      { appType: 'brew', kind: 'customer' },
      'group',
      open,
      [false, false, false, false, /brewing app/],
    ],
    [
      'an editor of a demo account',
      editor,
      { appType: 'default', kind: 'demo' },
      'group',
      open,
      [false, false, false, false, /demo account/],
    ],
  ])('%s', (_name, rights, account, groupKind, scene, [addScene, editScene, widgets, arrange, reason]) => {
    const offered = scenePageRights(rights, account, groupKind, scene);
    expect(offered.canAddScene).toBe(addScene);
    expect(offered.canEditScene(scene ?? open)).toBe(editScene);
    expect(offered.widgetsEditable).toBe(widgets);
    expect(offered.arrangeable).toBe(arrange);
    if (reason === null) expect(offered.readOnlyReason).toBeNull();
    else expect(offered.readOnlyReason).toMatch(reason);
  });
});
