import type { Account, GroupNode, TreeDevice } from '@fieldlink/api/account';
import type { Scene, Widget } from '@fieldlink/api/scenes';

// Small account trees and scenes for the scene page's model tests.

export function device(id: string, channels: TreeDevice['channels'] = [], name = `Device ${id}`): TreeDevice {
  return {
    id,
    name,
    sn: null,
    thingName: `T_${id}`,
    isConnected: true,
    lastConnection: null,
    lastDisconnection: null,
    channels,
  };
}

export function group(id: string, partial: Partial<GroupNode> = {}): GroupNode {
  return {
    id,
    name: `Group ${id}`,
    accountId: 'acc1',
    appType: 'default',
    kind: 'group',
    relativePath: `./${id}`,
    expanded: false,
    groups: [],
    devices: [],
    deviceIds: [],
    scenes: [],
    users: [],
    fullUsers: [],
    ...partial,
  };
}

export function account(rootGroup: GroupNode, partial: Partial<Account> = {}): Account {
  return {
    id: 'acc1',
    name: 'Acme',
    appType: 'default',
    kind: 'customer',
    userVariant: null,
    theme: null,
    rootGroup,
    ...partial,
  };
}

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
