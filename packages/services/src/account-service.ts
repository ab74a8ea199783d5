import type { Account } from '@fieldlink/api/account';
import { groupTree, type TreeGroup, type TreeGroupSource, type TreeUserSource } from '@fieldlink/domain/account-view';
import { isGroupHidden } from '@fieldlink/domain/app-variant';
import { isUnderPath } from '@fieldlink/domain/group-path';
import { can, type PermissionSubject } from '@fieldlink/domain/permissions';

/** A place the caller is attached at: an account and a group's path in it. */
export interface ViewerPoint {
  accountId: string;
  path: string;
}

/**
 * What the account tree (`GET /account`) reads from a backend's storage: the server's rows, or the
 * demo's dataset. `R` is the backend's device, placed in the tree by the backend.
 */
export interface AccountTreeStore<R> {
  account(accountId: string): Promise<Omit<Account, 'rootGroup'> | undefined>;
  /** The group at `path` and every group beneath it. */
  groupsUnder(path: string): Promise<TreeGroupSource[]>;
  devicesIn(groupIds: readonly string[]): Promise<R[]>;
  /** A device row's id and group. */
  placeOf(device: R): { id: string; groupId: string };
  scenesOf(groupIds: readonly string[]): Promise<{ id: string; name: string; groupId: string }[]>;
  /** The users attached at these paths, each with the permissions of their first attachment point. */
  usersAt(paths: readonly string[]): Promise<TreeUserSource[]>;
  invitationsAt(paths: readonly string[]): Promise<{ email: string; expiresAt: number; path: string }[]>;
}

/** A tree of an account as {@link accountTrees} builds it, before the backend places its devices. */
export interface BuiltTree<D, R> {
  root: TreeGroup<D>;
  /** Every group's node by id, to place devices in. */
  groups: Map<string, TreeGroup<D>>;
  devices: R[];
}

/**
 * The caller's account trees (`GET /account`), one per attachment point not inside another of theirs:
 * the group at the point with everything beneath it (domain `groupTree`), the groups hidden for the
 * account's kind (an investor's New Devices and Trash) and what they hold left out, the invitations
 * only when the caller may invite. `place` puts the tree's devices in it, in the backend's form.
 */
export async function accountTrees<R, D, Root>(
  store: AccountTreeStore<R>,
  viewer: { subject: PermissionSubject; attachmentPoints: readonly ViewerPoint[] },
  place: (tree: BuiltTree<D, R>) => Root,
): Promise<(Omit<Account, 'rootGroup'> & { rootGroup: Root })[]> {
  const accounts: (Omit<Account, 'rootGroup'> & { rootGroup: Root })[] = [];
  const showInvitations = can(viewer.subject, 'inviteUsers');
  // A point inside another of the caller's points is already part of that tree: shown once.
  const points = viewer.attachmentPoints.filter(
    (point, index, all) =>
      !all.some(
        (other, otherIndex) =>
          otherIndex !== index &&
          isUnderPath(point.path, other.path) &&
          (other.path !== point.path || otherIndex < index),
      ),
  );
  for (const point of points) {
    const account = await store.account(point.accountId);
    const tree = account && (await subtree<R, D>(store, point.path, showInvitations, account.kind));
    if (account && tree) accounts.push({ ...account, rootGroup: place(tree) });
  }
  return accounts;
}

async function subtree<R, D>(
  store: AccountTreeStore<R>,
  path: string,
  showInvitations: boolean,
  accountKind: string,
): Promise<BuiltTree<D, R> | null> {
  const every = await store.groupsUnder(path);
  const hidden = every.filter((group) => isGroupHidden(accountKind, group.kind));
  const groups = every.filter((group) => !hidden.some((placeholder) => isUnderPath(group.path, placeholder.path)));
  const ids = groups.map((group) => group.id);
  const paths = groups.map((group) => group.path);
  const [devices, users, invitations, scenes] = await Promise.all([
    store.devicesIn(ids),
    store.usersAt(paths),
    showInvitations ? store.invitationsAt(paths) : Promise.resolve(null),
    store.scenesOf(ids),
  ]);
  const tree = groupTree<D>({
    topPath: path,
    groups,
    devices: devices.map((device) => store.placeOf(device)),
    scenes,
    users,
    invitations,
  });
  return tree && { ...tree, devices };
}
