import { userItemKind, type GroupKind } from './account-tree';
import { DEMO_ACCOUNT_KIND } from './demo';
import { childPath, groupPath, newDevicesGroupName, TRASH_GROUP_NAME } from './group-path';
import type { PermissionSubject } from './permissions';

/**
 * The account tree as `GET /account` answers it (core §3): one group's subtree, nested, with each
 * group's device ids, scenes, users and invitations. Assembled here once from plain values: the
 * server passes the rows it read, the browser demo its fleet, so both trees follow the same rules
 * (which group opens first, what kind of user each is, what a device's channel carries).
 */

/** What a group of the tree says of itself, as read and as answered. */
interface TreeGroupFields {
  id: string;
  name: string;
  accountId: string;
  appType: string;
  accountKind: string;
  kind: GroupKind;
  /** A group of devices simulated in the browser (core §3 `simulation`). */
  simulation: boolean;
}

/** A group as the tree is built from it. */
export interface TreeGroupSource extends TreeGroupFields {
  path: string;
  parentId: string | null;
}

/** A user attached at a group (`path`), with the permissions of their first attachment point. */
export interface TreeUserSource {
  email: string;
  firstName: string;
  lastName: string;
  path: string;
  subject: PermissionSubject;
}

/** A group of the tree (the API's `GroupNode`), its devices of type `D` placed by the caller. */
export interface TreeGroup<D> extends TreeGroupFields {
  relativePath: string;
  expanded: boolean;
  groups: TreeGroup<D>[];
  devices: D[];
  deviceIds: string[];
  scenes: { id: string; name: string }[];
  users: string[];
  fullUsers: { firstName: string; lastName: string; email: string; itemKind: ReturnType<typeof userItemKind> }[];
  invitations?: { email: string; expiresAt: number }[];
}

/**
 * The subtree of the group at `topPath`: groups under their parents (in the order given), each
 * group's devices by id, scenes (in the order given), users with their tree item kind, and, when
 * `invitations` is not null (the caller may invite), the invitations pending at each group. The tree
 * opens on its top group (`expanded`, docs/decisions.md). Null when no group is at `topPath`.
 * `groups` maps every group's id to its node, for the caller to place devices in.
 */
export function groupTree<D>(input: {
  topPath: string;
  groups: readonly TreeGroupSource[];
  devices: readonly { id: string; groupId: string }[];
  scenes: readonly { id: string; name: string; groupId: string }[];
  users: readonly TreeUserSource[];
  invitations: readonly { email: string; expiresAt: number; path: string }[] | null;
}): { root: TreeGroup<D>; groups: Map<string, TreeGroup<D>> } | null {
  const { topPath } = input;
  const nodes = new Map<string, TreeGroup<D>>();
  const byPath = new Map<string, TreeGroup<D>>();
  for (const group of input.groups) {
    const node: TreeGroup<D> = {
      id: group.id,
      name: group.name,
      accountId: group.accountId,
      appType: group.appType,
      accountKind: group.accountKind,
      kind: group.kind,
      simulation: group.simulation,
      relativePath: group.path,
      expanded: group.path === topPath,
      groups: [],
      devices: [],
      deviceIds: [],
      scenes: [],
      users: [],
      fullUsers: [],
      ...(input.invitations && { invitations: [] }),
    };
    nodes.set(group.id, node);
    byPath.set(group.path, node);
  }
  for (const group of input.groups) {
    const parent = group.parentId ? nodes.get(group.parentId) : undefined;
    if (parent && group.path !== topPath) parent.groups.push(nodes.get(group.id)!);
  }
  for (const device of input.devices) nodes.get(device.groupId)?.deviceIds.push(device.id);
  for (const scene of input.scenes) nodes.get(scene.groupId)?.scenes.push({ id: scene.id, name: scene.name });
  for (const user of input.users) {
    const node = byPath.get(user.path);
    node?.users.push(user.email);
    const { firstName, lastName, email } = user;
    node?.fullUsers.push({ firstName, lastName, email, itemKind: userItemKind(user.subject) });
  }
  for (const { email, expiresAt, path } of input.invitations ?? []) {
    byPath.get(path)?.invitations?.push({ email, expiresAt });
  }
  const root = byPath.get(topPath);
  return root ? { root, groups: nodes } : null;
}

/** A device's channel in the tree: its code, and its name and unit when it has them. */
export function treeChannel({ code, name, units }: { code: string; name?: string; units?: string }): {
  code: string;
  name?: string;
  units?: string;
} {
  return { code, ...(name === undefined ? {} : { name }), ...(units === undefined ? {} : { units }) };
}

/** An account's own group as described (the seed's accounts, a demo fleet): its devices and subgroups. */
export interface GroupOutline<D> {
  name: string;
  devices: readonly D[];
  groups?: readonly GroupOutline<D>[];
}

/** A group of an account as it is set up: where it sits, and the devices it starts with. */
export interface LaidOutGroup<D> {
  id: string;
  name: string;
  kind: GroupKind;
  path: string;
  parentId: string | null;
  /** A group of devices simulated in the browser: every group of a demo account (core §3). */
  simulation: boolean;
  devices: readonly D[];
}

/**
 * The groups of an account as it is set up (core §3): its root, named as the account, at the top or
 * under `parent`; New Devices (named for its user variant) and Trash under the root; then its own
 * groups, each before its subgroups. `newId` names each group (it is told the group's kind). The
 * server's seed stores these groups and the browser demo answers its account tree from them.
 */
export function accountGroups<D>(
  account: { name: string; kind: string; userVariant: string | null; groups: readonly GroupOutline<D>[] },
  newId: (kind: GroupKind) => string,
  parent: { id: string; path: string } | null = null,
): LaidOutGroup<D>[] {
  const simulation = account.kind === DEMO_ACCOUNT_KIND;
  const rootId = newId('root');
  const root = {
    id: rootId,
    name: account.name,
    kind: 'root' as const,
    parentId: parent?.id ?? null,
    simulation,
    path: parent ? childPath(parent.path, rootId) : groupPath([rootId]),
    devices: [],
  };
  const laidOut: LaidOutGroup<D>[] = [root];
  const add = (name: string, kind: GroupKind, under: LaidOutGroup<D>, devices: readonly D[] = []) => {
    const id = newId(kind);
    const group = { id, name, kind, path: childPath(under.path, id), parentId: under.id, simulation, devices };
    laidOut.push(group);
    return group;
  };
  add(newDevicesGroupName(account.userVariant), 'new', root);
  add(TRASH_GROUP_NAME, 'trash', root);
  const addOwn = (outlines: readonly GroupOutline<D>[], under: LaidOutGroup<D>) => {
    for (const outline of outlines) addOwn(outline.groups ?? [], add(outline.name, 'group', under, outline.devices));
  };
  addOwn(account.groups, root);
  return laidOut;
}
