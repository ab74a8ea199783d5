import type { GroupNode, TreeDevice } from '@fieldlink/api/account';
import type { Scene, Widget } from '@fieldlink/api/scenes';
import { treeAccount, treeDevice, treeGroup } from '../../../lib/tree-fixtures';

// Small account trees and scenes for the scene page's model tests.

export const device = (id: string, channels: TreeDevice['channels'] = [], name = `Device ${id}`): TreeDevice =>
  treeDevice(id, { name, thingName: `T_${id}`, channels });

export const group = (id: string, partial: Partial<GroupNode> = {}): GroupNode =>
  treeGroup(id, { name: `Group ${id}`, ...partial });

export const account = treeAccount;

export function widget(id: string, partial: Partial<Widget> = {}): Widget {
  return {
    id,
    name: `Widget ${id}`,
    doesInheritName: false,
    type: 'radial',
    channels: [],
    arcSegments: [],
    min: 0,
    max: 100,
    switchColors: false,
    activeColor: 'red',
    inactiveColor: 'grey',
    annotations: [],
    yAxis: [],
    path: `g1|scene:s1|widget:${id}`,
    groupId: 'g1',
    sceneId: 's1',
    ...partial,
  };
}

export function scene(id: string, partial: Partial<Scene> = {}): Scene {
  return {
    id,
    name: `Scene ${id}`,
    type: 'grid',
    index: 0,
    accountId: 'acc1',
    path: `g1|scene:${id}`,
    groupId: 'g1',
    isGridLocked: false,
    widgets: [],
    gridLayout: {},
    appType: 'default',
    readOnly: false,
    ...partial,
  };
}
