import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import type { AccountAnswer, GroupNode, TreeDevice } from './account';
import { AccountColumnsAnswer, decodeAccountColumns, encodeAccountColumns } from './account-columns';

const PUMP_CHANNELS = [{ code: 'c1', name: 'Flow', units: 'L/min' }, { code: 'do1' }];

function device(id: string, extra: Partial<TreeDevice> = {}): TreeDevice {
  return {
    id,
    name: `Device ${id}`,
    sn: `SN-${id}`,
    thingName: `T_${id}`,
    isConnected: true,
    lastConnection: 1_700_000_000_000,
    lastDisconnection: null,
    channels: PUMP_CHANNELS,
    tags: [],
    ...extra,
  };
}

function group(id: string, devices: TreeDevice[], groups: GroupNode[] = [], extra: Partial<GroupNode> = {}): GroupNode {
  return {
    id,
    name: `Group ${id}`,
    accountId: 'acc-1',
    appType: 'default',
    kind: 'group',
    simulation: false,
    relativePath: `./${id}`,
    expanded: false,
    groups,
    devices,
    deviceIds: devices.map((entry) => entry.id),
    scenes: [{ id: `scene-${id}`, name: 'Overview' }],
    users: [],
    fullUsers: [],
    ...extra,
  };
}

/** Two accounts; devices at every level, before and after subgroups, with shared and own lists. */
const TREE: AccountAnswer = {
  accounts: [
    {
      id: 'acc-1',
      name: 'Acme',
      appType: 'default',
      kind: 'customer',
      userVariant: '5',
      theme: null,
      rootGroup: group(
        'root',
        [device('r1'), device('r2', { sn: null, isConnected: false, lastDisconnection: 1_700_000_100_000 })],
        [
          group(
            'a',
            [device('a1', { tags: [{ key: 'filtecConfig', value: 'uf,ro' }] })],
            [group('a-x', [device('ax1')])],
          ),
          group('empty', [], [], { kind: 'trash', invitations: [{ email: 'new@example.com', expiresAt: 1 }] }),
          group('b', [
            device('b1', { channels: [{ code: 'c1', name: 'Flow', units: 'L/min' }, { code: 'do1' }] }),
            device('b2', { channels: undefined, tags: undefined }),
          ]),
        ],
        {
          kind: 'root',
          users: ['ops@example.com'],
          fullUsers: [{ firstName: 'Olive', lastName: 'Ops', email: 'ops@example.com', itemKind: 'user' }],
        },
      ),
    },
    {
      id: 'acc-2',
      name: 'Other',
      appType: 'stock',
      kind: 'customer',
      userVariant: '2',
      theme: 'bp',
      rootGroup: group('root-2', [device('z1', { channels: [] })], [], { accountId: 'acc-2', kind: 'root' }),
    },
  ],
};

describe('the compact form of GET /account', () => {
  const compact = encodeAccountColumns(TREE);

  it('decodes to exactly the plain tree: every group, device, list and deviceIds', () => {
    expect(decodeAccountColumns(compact)).toEqual(TREE);
    // Through JSON, as it travels.
    expect(decodeAccountColumns(JSON.parse(JSON.stringify(compact)) as AccountColumnsAnswer)).toEqual(TREE);
  });

  it('matches its schema', () => {
    expect(Value.Check(AccountColumnsAnswer, compact)).toBe(true);
  });

  it('lists the devices once, in pre-order: a group’s own devices before its subgroups’', () => {
    expect(compact.devices.id).toEqual(['r1', 'r2', 'a1', 'ax1', 'b1', 'b2', 'z1']);
    expect(compact.accounts[0]!.rootGroup.deviceCount).toBe(2);
    expect(compact.accounts[0]!.rootGroup.groups.map((entry) => entry.deviceCount)).toEqual([1, 0, 2]);
    expect(compact.devices.isConnected).toEqual([1, 0, 1, 1, 1, 1, 1]);
  });

  it('sends each distinct channel and tag list once; an absent list stays absent', () => {
    // b1's list is equal to the shared one though it is another array.
    expect(compact.devices.channelLists).toEqual([PUMP_CHANNELS, []]);
    expect(compact.devices.channels).toEqual([0, 0, 0, 0, 0, -1, 1]);
    expect(compact.devices.tagLists).toEqual([[], [{ key: 'filtecConfig', value: 'uf,ro' }]]);
    expect(compact.devices.tags).toEqual([0, 0, 1, 0, 0, -1, 0]);
    const decoded = decodeAccountColumns(compact).accounts[0]!.rootGroup.groups[2]!.devices[1]!;
    expect('channels' in decoded || 'tags' in decoded).toBe(false);
  });

  it('carries no per-device copy of the group fields', () => {
    const group = compact.accounts[0]!.rootGroup;
    expect(group).not.toHaveProperty('devices');
    expect(group).not.toHaveProperty('deviceIds');
  });
});
