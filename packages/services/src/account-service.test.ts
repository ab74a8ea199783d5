import { describe, expect, it } from 'vitest';
import type { GroupKind } from '@fieldlink/api/account';
import type { TreeGroup, TreeGroupSource } from '@fieldlink/domain/account-view';
import { isUnderPath } from '@fieldlink/domain/group-path';
import type { Permission } from '@fieldlink/domain/permissions';
import { accountTrees, type AccountTreeStore } from './account-service';

interface Row {
  id: string;
  group: string;
}

const group = (id: string, path: string, kind: GroupKind, accountKind = 'customer'): TreeGroupSource => ({
  id,
  name: id,
  accountId: 'a1',
  appType: 'default',
  accountKind,
  kind,
  simulation: false,
  path,
  parentId: path.split('/').slice(1).at(-2) ?? null,
});

/** Account a1 (of `accountKind`): root ./r with New Devices n, Trash t and group g, a device in each. */
function memoryStore(accountKind = 'customer') {
  const asked: string[] = [];
  const groups = [
    group('r', './r', 'root', accountKind),
    group('n', './r/n', 'new', accountKind),
    group('t', './r/t', 'trash', accountKind),
    group('g', './r/g', 'group', accountKind),
  ];
  const rows: Row[] = ['r', 'n', 't', 'g'].map((id) => ({ id: `d-${id}`, group: id }));
  const store: AccountTreeStore<Row> = {
    account: async (accountId) =>
      accountId === 'a1'
        ? { id: 'a1', name: 'Acme', appType: 'default', kind: accountKind, userVariant: null, theme: null }
        : undefined,
    groupsUnder: async (path) => (
      asked.push(`groups ${path}`),
      groups.filter((entry) => isUnderPath(entry.path, path))
    ),
    devicesIn: async (ids) => rows.filter((row) => ids.includes(row.group)),
    placeOf: (row) => ({ id: row.id, groupId: row.group }),
    scenesOf: async (ids) => (ids.includes('g') ? [{ id: 's1', name: 'Pumps', groupId: 'g' }] : []),
    usersAt: async (paths) =>
      paths.includes('./r/g')
        ? [{ email: 'u@x', firstName: 'U', lastName: 'X', path: './r/g', subject: { permissions: ['VIEW_DASH'] } }]
        : [],
    invitationsAt: async (paths) => (
      asked.push(`invitations ${paths.length}`),
      [{ email: 'i@x', expiresAt: 1, path: './r/g' }]
    ),
  };
  return { store, asked };
}

const viewer = (paths: string[], permissions: Permission[] = ['VIEW_DASH']) => ({
  subject: { permissions },
  attachmentPoints: paths.map((path) => ({ accountId: 'a1', path })),
});

/** The tree's groups by path, each with its device ids. */
function shape(root: TreeGroup<never>): string[] {
  return [`${root.relativePath} ${root.deviceIds.join(',')}`, ...root.groups.flatMap((child) => shape(child))];
}

describe('the account tree', () => {
  it('builds one tree per point, a point inside another shown once, devices placed by the backend', async () => {
    const { store } = memoryStore();
    const placed: string[] = [];
    const accounts = await accountTrees<Row, never, TreeGroup<never>>(
      store,
      viewer(['./r/g', './r', './r']),
      (tree) => {
        placed.push(...tree.devices.map((row) => row.id));
        return tree.root;
      },
    );
    expect(accounts.map((account) => account.rootGroup.relativePath)).toEqual(['./r']);
    expect(accounts[0]).toMatchObject({ id: 'a1', name: 'Acme' });
    expect(shape(accounts[0]!.rootGroup)).toEqual(['./r d-r', './r/n d-n', './r/t d-t', './r/g d-g']);
    expect(placed).toEqual(['d-r', 'd-n', 'd-t', 'd-g']);
    const g = accounts[0]!.rootGroup.groups.find((child) => child.id === 'g')!;
    expect(g.scenes).toEqual([{ id: 's1', name: 'Pumps' }]);
    expect(g.fullUsers).toMatchObject([{ email: 'u@x' }]);
  });

  it("leaves out an investor's New Devices and Trash, and what they hold", async () => {
    const { store } = memoryStore('investor');
    const [account] = await accountTrees<Row, never, TreeGroup<never>>(store, viewer(['./r']), (tree) => tree.root);
    expect(shape(account!.rootGroup)).toEqual(['./r d-r', './r/g d-g']);
  });

  it.each([
    [
      'may invite',
      ['VIEW_DASH', 'VIEW_ACCOUNTS', 'INVITE_USERS'] as Permission[],
      [{ email: 'i@x', expiresAt: 1 }],
      ['invitations 4'],
    ],
    ['may not invite', ['VIEW_DASH'] as Permission[], undefined, []],
  ])('shows the invitations only to a caller who %s', async (_name, permissions, shown, reads) => {
    const { store, asked } = memoryStore();
    const [account] = await accountTrees<Row, never, TreeGroup<never>>(
      store,
      viewer(['./r'], permissions),
      (tree) => tree.root,
    );
    expect(account!.rootGroup.groups.find((child) => child.id === 'g')!.invitations).toEqual(shown);
    expect(asked.filter((entry) => entry.startsWith('invitations'))).toEqual(reads);
  });

  it('answers no tree for an account or a point that does not exist', async () => {
    const { store } = memoryStore();
    const points = [
      { accountId: 'a2', path: './r' },
      { accountId: 'a1', path: './x' },
    ];
    const accounts = await accountTrees(
      store,
      { subject: { permissions: [] }, attachmentPoints: points },
      (tree) => tree.root,
    );
    expect(accounts).toEqual([]);
  });
});
