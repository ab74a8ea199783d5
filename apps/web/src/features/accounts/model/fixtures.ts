import type { Account, GroupNode, TreeDevice } from '@fieldlink/api/account';
import { treeAccount, treeDevice, treeGroup } from '../../../lib/tree-fixtures';

// A small account tree for the model tests.

export const device = (id: string, name: string, isConnected = true, channels: { code: string }[] = []): TreeDevice =>
  treeDevice(id, { name, sn: `SN-${id}`, thingName: `T-${id}`, isConnected, channels });

export const group = (
  id: string,
  name: string,
  path: string,
  contents: Partial<GroupNode> = {},
  kind: GroupNode['kind'] = 'group',
  accountId = 'acme',
): GroupNode => treeGroup(id, { name, accountId, kind, relativePath: path, expanded: kind === 'root', ...contents });

export function acmeTree(): Account {
  const boilers = group('boilers', 'Boiler Room', './root/boilers', {
    devices: [device('b2', 'Boiler 2', false), device('b1', 'Boiler 1', true, [{ code: 'c1' }, { code: 'sp1' }])],
    scenes: [{ id: 'lobby', name: 'Lobby' }],
  });
  const cold = group('cold', 'Cold Store', './root/cold', {
    devices: [device('f1', 'Freezer')],
    fullUsers: [{ firstName: 'Ann', lastName: 'Alarm', email: 'ann@acme.test', itemKind: 'alarmUser' }],
    users: ['ann@acme.test'],
  });
  const trash = group('trash', 'Trash', './root/trash', { devices: [device('old', 'Old boiler')] }, 'trash');
  const inbox = group('new', 'New Devices', './root/new', { devices: [device('spare', 'Spare')] }, 'new');
  const root = group(
    'root',
    'Acme',
    './root',
    {
      groups: [trash, cold, boilers, inbox],
      fullUsers: [{ firstName: 'Olive', lastName: 'Ops', email: 'ops@acme.test', itemKind: 'user' }],
      users: ['ops@acme.test'],
    },
    'root',
  );
  return treeAccount(root, { id: 'acme', userVariant: '5' });
}
