import type { Account, GroupNode, TreeDevice } from '@fieldlink/api/account';
import { isFermentationVessel } from '@fieldlink/domain/brew';
import { sceneRoute } from '@fieldlink/domain/widgets';

/** A device of the account tree with where it sits. */
export interface PlacedDevice {
  device: TreeDevice;
  account: Account;
  group: GroupNode;
}

/**
 * The first device of the accounts in tree order (a group's own devices before its subgroups') that
 * `test` accepts, with where it sits, or null. Devices in the trash are left out unless asked for:
 * they are not on any dashboard. The walk stops at the device accepted and makes no object for those
 * passed over: at 100,000 devices the shell's first render asks this (issue 41 item 5).
 */
export function findDevice(
  accounts: readonly Account[],
  test: (device: TreeDevice, group: GroupNode, account: Account) => boolean,
  includeTrash = false,
): PlacedDevice | null {
  // A plain walk: at 100,000 devices, a generator per group and spreading its output into push()
  // took a tenth of a second for each screen that lists the devices at start-up.
  const walk = (account: Account, group: GroupNode): PlacedDevice | null => {
    if (group.kind === 'trash' && !includeTrash) return null;
    for (const device of group.devices) if (test(device, group, account)) return { device, account, group };
    for (const child of group.groups) {
      const found = walk(account, child);
      if (found) return found;
    }
    return null;
  };
  for (const account of accounts) {
    const found = walk(account, account.rootGroup);
    if (found) return found;
  }
  return null;
}

/**
 * Calls `visit` for every device of the accounts in tree order, as {@link findDevice} walks them,
 * without making an object per device: at 100,000 devices a screen that keeps a few of them (or only
 * the devices) spares the start-up that many objects and their collection.
 */
export function forEachDevice(
  accounts: readonly Account[],
  visit: (device: TreeDevice, account: Account, group: GroupNode) => void,
  includeTrash = false,
): void {
  const visitAll = (device: TreeDevice, group: GroupNode, account: Account) => {
    visit(device, account, group);
    return false;
  };
  findDevice(accounts, visitAll, includeTrash);
}

/** Every device of the accounts in tree order, as {@link findDevice} walks them. */
export function listDevices(accounts: readonly Account[], includeTrash = false): PlacedDevice[] {
  const placed: PlacedDevice[] = [];
  forEachDevice(accounts, (device, account, group) => placed.push({ device, account, group }), includeTrash);
  return placed;
}

/** A device by its thing name, wherever it sits (the trash too). */
export function findDeviceByThingName(accounts: readonly Account[], thingName: string): PlacedDevice | null {
  return findDevice(accounts, (device) => device.thingName === thingName, true);
}

/** The group names from the root to a group, for a breadcrumb (`Acme / North / Pumps`). */
export function groupTrail(account: Account, groupId: string): string[] {
  const trail: string[] = [];
  const visit = (group: GroupNode): boolean => {
    trail.push(group.name);
    if (group.id === groupId) return true;
    for (const child of group.groups) if (visit(child)) return true;
    trail.pop();
    return false;
  };
  return visit(account.rootGroup) ? trail : [];
}

/**
 * Where the shell's Scenes tab leads: the first group, in tree order, that has scene dashboards, else
 * the first account's root group (whose page offers to create one). Null before the tree is read.
 */
export function scenesHomeRoute(accounts: readonly Account[]): string | null {
  const withScenes = (group: GroupNode): GroupNode | null => {
    if (group.kind === 'trash' || group.kind === 'new') return null;
    if (group.scenes.length > 0) return group;
    for (const child of group.groups) {
      const found = withScenes(child);
      if (found) return found;
    }
    return null;
  };
  for (const account of accounts) {
    const group = withScenes(account.rootGroup);
    // A supplier's tree holds its customers' accounts as groups: a group names its own account.
    if (group) return sceneRoute(group.accountId, group.id);
  }
  const first = accounts[0];
  return first ? sceneRoute(first.rootGroup.accountId, first.rootGroup.id) : null;
}

/**
 * The group an app page (the brew summary) opens on: the group of the first fermentation vessel in
 * tree order (domain `isFermentationVessel` by its tag: the tree carries no firmware), else of the
 * first device, else the first account's root group. Null before the tree is read or without any
 * account. A brewhouse group named first (its hot liquor tank) is not where a brewer's tanks are.
 */
export function homeGroupId(accounts: readonly Account[]): string | null {
  const vessel = findDevice(accounts, (device) => isFermentationVessel({ tags: device.tags ?? [] }));
  return (vessel ?? findDevice(accounts, () => true))?.group.id ?? accounts[0]?.rootGroup.id ?? null;
}
