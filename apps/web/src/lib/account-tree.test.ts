import { describe, expect, it } from 'vitest';
import type { Account, GroupNode } from '@fieldlink/api/account';
import { findDevice, homeGroupId, scenesHomeRoute } from './account-tree';
import { treeAccount, treeDevice, treeGroup } from './tree-fixtures';

const group = treeGroup;
const account = (id: string, rootGroup: GroupNode): Account => treeAccount(rootGroup, { id, name: id });

describe('scenesHomeRoute', () => {
  it('is the first group in tree order that has scenes, never the trash', () => {
    const tree = [
      account(
        'a1',
        group('root1', {
          kind: 'root',
          groups: [group('trash', { kind: 'trash', scenes: [{ id: 's0', name: 'x' }] })],
        }),
      ),
      account(
        'a2',
        group('root2', {
          kind: 'root',
          accountId: 'a2',
          groups: [group('g2', { accountId: 'a2', scenes: [{ id: 's1', name: 'Cellar' }] })],
        }),
      ),
    ];
    expect(scenesHomeRoute(tree)).toBe('/dash/a2/g2');
  });

  it('names a customer group inside a supplier tree by its own account', () => {
    const customer = group('c1', { kind: 'root', accountId: 'cust', scenes: [{ id: 's1', name: 'Pumps' }] });
    const supplier = account(
      'sup',
      group('rootS', {
        kind: 'root',
        accountId: 'sup',
        groups: [group('customers', { accountId: 'sup', groups: [customer] })],
      }),
    );
    expect(scenesHomeRoute([supplier])).toBe('/dash/cust/c1');
  });

  it('is the first root group when no group has scenes, and null without accounts', () => {
    expect(scenesHomeRoute([account('a1', group('root1', { kind: 'root', accountId: 'a1' }))])).toBe('/dash/a1/root1');
    expect(scenesHomeRoute([])).toBeNull();
  });
});

describe('homeGroupId', () => {
  const device = treeDevice('d1', { name: 'Tank 1', thingName: 'T1' });

  it('is the group of the first device in tree order, the trash passed over', () => {
    const tree = account(
      'a1',
      group('root1', {
        kind: 'root',
        groups: [
          group('trash', { kind: 'trash', devices: [{ ...device, id: 'd0', thingName: 'T0' }] }),
          group('empty'),
          group('cellar', { devices: [device] }),
        ],
      }),
    );
    expect(homeGroupId([tree])).toBe('cellar');
  });

  // Issue 35 item 8: brew@ landed on the brewhouse's hot liquor tank, the first device in tree order.
  it('is the group of the first fermentation vessel when a vessel is tagged', () => {
    const tree = account(
      'a1',
      group('root1', {
        kind: 'root',
        groups: [
          group('brewhouse', { devices: [{ ...device, tags: [{ key: 'vessel', value: 'hot liquor tank' }] }] }),
          group('cellar', { devices: [{ ...device, id: 'd2', tags: [{ key: 'vessel', value: 'fermenter' }] }] }),
        ],
      }),
    );
    expect(homeGroupId([tree])).toBe('cellar');
  });

  it('is the root group without any device, and null without any account', () => {
    expect(homeGroupId([account('a1', group('root1', { kind: 'root' }))])).toBe('root1');
    expect(homeGroupId([])).toBeNull();
  });
});

describe('findDevice', () => {
  const device = (id: string) => treeDevice(id);
  const tree = account(
    'a1',
    group('root1', {
      kind: 'root',
      devices: [device('r1')],
      groups: [
        group('trash', { kind: 'trash', devices: [device('t1')] }),
        group('north', {
          devices: [device('n1'), device('n2')],
          groups: [group('pumps', { devices: [device('p1')] })],
        }),
      ],
    }),
  );

  it('is the first accepted device in tree order, with its group, and looks no further', () => {
    const seen: string[] = [];
    const found = findDevice([tree], (candidate) => {
      seen.push(candidate.id);
      return candidate.id.startsWith('n');
    });
    expect(found?.device.id).toBe('n1');
    expect(found?.group.id).toBe('north');
    expect(seen).toEqual(['r1', 'n1']);
  });

  it('passes over the trash unless asked, and is null when nothing is accepted', () => {
    expect(findDevice([tree], (candidate) => candidate.id === 't1')).toBeNull();
    expect(findDevice([tree], (candidate) => candidate.id === 't1', true)?.group.id).toBe('trash');
    expect(findDevice([tree], (candidate) => candidate.id === 'p1')?.group.id).toBe('pumps');
  });
});
