import { describe, expect, it } from 'vitest';
import { DEMO_ACCOUNT_KIND } from './demo';
import { widgetPath } from './group-path';
import { sceneView, sceneWidget } from './scene-view';
import { defaultWidgetSize, GRID_BREAKPOINTS } from './widgets';

const group = (appType: string, accountKind: string) => ({ id: 'g1', accountId: 'acc', appType, accountKind });
const scene = { id: 's1', name: 'Overview', isGridLocked: false, gridLayout: {} };

describe('a scene as answered', () => {
  it('places each widget in its scene, its size its type’s default when none was stored', () => {
    expect(sceneWidget('g1', 's1', { id: 'w1', type: 'chart', name: 'Flow' })).toEqual({
      id: 'w1',
      type: 'chart',
      name: 'Flow',
      size: defaultWidgetSize('chart'),
      path: widgetPath('g1', 's1', 'w1'),
      groupId: 'g1',
      sceneId: 's1',
    });
    expect(sceneWidget('g1', 's1', { id: 'w1', type: 'value', size: { w: 4, h: 5 } }).size).toEqual({ w: 4, h: 5 });
  });

  it('places every widget on every breakpoint of its layout', () => {
    const view = sceneView({
      group: group('generic', 'customer'),
      scene,
      widgets: [{ id: 'w1', type: 'value' }],
      index: 2,
      mayEdit: true,
    });
    expect(view).toMatchObject({
      id: 's1',
      index: 2,
      accountId: 'acc',
      groupId: 'g1',
      type: 'grid',
      appType: 'generic',
    });
    for (const breakpoint of GRID_BREAKPOINTS)
      expect(view.gridLayout[breakpoint].map((item) => item.i)).toEqual(['w1']);
  });

  it.each([
    ['a customer who may edit', 'generic', 'customer', true, false],
    ['a customer who may not', 'generic', 'customer', false, true],
    ['a demo account', 'generic', DEMO_ACCOUNT_KIND, true, true],
    ['an investor account', 'generic', 'investor', true, true],
    ['a brewing account', 'brew', 'customer', true, true],
  ])('is read-only for %s: %s', (_name, appType, kind, mayEdit, readOnly) => {
    expect(sceneView({ group: group(appType, kind), scene, widgets: [], index: 0, mayEdit }).readOnly).toBe(readOnly);
  });
});
