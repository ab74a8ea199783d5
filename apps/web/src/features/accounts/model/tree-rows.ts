import type { Account, FullUser, GroupNode, TreeDevice } from '@fieldlink/api/account';
import { deviceItemKind, groupItemKind } from '@fieldlink/domain/account-tree';
import { channelName } from '@fieldlink/domain/channels';
import type { TreeItemKind } from '@fieldlink/domain/tree-menu';
import type { TreeSearchResult } from '@fieldlink/domain/tree-search';

/** What a row of the account tree stands for. */
export type TreeTarget =
  | { type: 'group'; group: GroupNode; parent: GroupNode | null; account: Account }
  | { type: 'device'; device: TreeDevice; group: GroupNode; account: Account }
  | { type: 'user'; user: FullUser; group: GroupNode; account: Account }
  | { type: 'scene'; scene: { id: string; name: string }; group: GroupNode; account: Account }
  | {
      type: 'channel';
      channel: { code: string; name?: string };
      device: TreeDevice;
      group: GroupNode;
      account: Account;
    };

/** One visible row of the tree. */
export interface TreeRow {
  key: string;
  depth: number;
  kind: TreeItemKind;
  label: string;
  /** Muted second text: a serial number, an e-mail, a channel code. */
  detail: string | null;
  expandable: boolean;
  expanded: boolean;
  /** Position among its siblings, 1-based, and their number (for assistive technology). */
  position: number;
  siblings: number;
  target: TreeTarget;
}

export const groupKey = (id: string) => `group:${id}`;
export const deviceKey = (id: string) => `device:${id}`;
export const userKey = (groupId: string, email: string) => `user:${groupId}:${email}`;
export const sceneKey = (id: string) => `scene:${id}`;
export const channelKey = (deviceId: string, code: string) => `channel:${deviceId}:${code}`;

/** The key of a target's row. */
export function targetKey(target: TreeTarget): string {
  switch (target.type) {
    case 'group':
      return groupKey(target.group.id);
    case 'device':
      return deviceKey(target.device.id);
    case 'user':
      return userKey(target.group.id, target.user.email);
    case 'scene':
      return sceneKey(target.scene.id);
    case 'channel':
      return channelKey(target.device.id, target.channel.code);
  }
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
const GROUP_ORDER = { new: 0, root: 1, group: 1, trash: 2 } as const;

/** Subgroups in the order shown: New Devices first, then by name, Trash last. */
export function sortedGroups(groups: readonly GroupNode[]): GroupNode[] {
  return [...groups].sort((a, b) => GROUP_ORDER[a.kind] - GROUP_ORDER[b.kind] || collator.compare(a.name, b.name));
}

interface SortedChildren {
  groups: GroupNode[];
  scenes: GroupNode['scenes'];
  devices: TreeDevice[];
  users: FullUser[];
}

// Sorted once per group object (an answer of the tree is replaced, never changed), not per keystroke.
const sortedChildrenCache = new WeakMap<GroupNode, SortedChildren>();

/** A group's children in the order shown, each kind by name. */
function sortedChildren(group: GroupNode): SortedChildren {
  let sorted = sortedChildrenCache.get(group);
  if (!sorted) {
    sorted = {
      groups: sortedGroups(group.groups),
      scenes: [...group.scenes].sort((a, b) => collator.compare(a.name, b.name)),
      devices: [...group.devices].sort((a, b) => collator.compare(a.name, b.name)),
      users: [...group.fullUsers].sort((a, b) => collator.compare(fullName(a), fullName(b))),
    };
    sortedChildrenCache.set(group, sorted);
  }
  return sorted;
}

export const fullName = (user: FullUser) => `${user.firstName} ${user.lastName}`.trim() || user.email;

function userKind(user: FullUser): TreeItemKind {
  return user.itemKind ?? 'user';
}

function channelLabel(channel: { code: string; name?: string }): string {
  return channelName(channel.code, channel.name);
}

export interface FlattenOptions {
  /** Keys of expanded groups and devices. */
  expanded: ReadonlySet<string>;
  /** A search narrows the tree to its matches and the groups above them. */
  search?: TreeSearchResult | null;
}

/**
 * The visible rows of the account tree: each account's root group, and beneath every expanded group
 * its subgroups, dashboards (scenes), devices and users; beneath an expanded device its channels.
 * During a search, a group shows only what leads to a match, unless the group itself matched.
 */
export function flattenTree(accounts: readonly Account[], { expanded, search = null }: FlattenOptions): TreeRow[] {
  const rows: TreeRow[] = [];
  const matched = search?.matchedItems as ReadonlySet<unknown> | undefined;

  const pushGroup = (
    account: Account,
    group: GroupNode,
    parent: GroupNode | null,
    depth: number,
    position: number,
    siblings: number,
    filtered: boolean,
  ) => {
    const key = groupKey(group.id);
    const isOpen = expanded.has(key);
    // A group that matched shows all it holds; otherwise a search shows only the way to matches.
    const filterChildren = filtered && !search!.matchedGroups.has(group);
    const children = sortedChildren(group);
    const groups = filterChildren ? children.groups.filter((child) => search!.shownGroups.has(child)) : children.groups;
    const keep = <T>(items: readonly T[]) => (filterChildren ? items.filter((item) => matched!.has(item)) : items);
    const scenes = keep(children.scenes);
    const devices = keep(children.devices);
    const users = keep(children.users);
    const childCount = groups.length + scenes.length + devices.length + users.length;
    rows.push({
      key,
      depth,
      kind: groupItemKind(group.kind),
      label: group.name,
      detail: groupDetail(group),
      expandable: childCount > 0,
      expanded: isOpen && childCount > 0,
      position,
      siblings,
      target: { type: 'group', group, parent, account },
    });
    if (!isOpen) return;
    let index = 0;
    for (const child of groups) pushGroup(account, child, group, depth + 1, ++index, childCount, filterChildren);
    for (const scene of scenes) {
      rows.push({
        key: sceneKey(scene.id),
        depth: depth + 1,
        kind: 'scene',
        label: scene.name,
        detail: 'Dashboard',
        expandable: false,
        expanded: false,
        position: ++index,
        siblings: childCount,
        target: { type: 'scene', scene, group, account },
      });
    }
    for (const device of devices) {
      const deviceRowKey = deviceKey(device.id);
      const channels = device.channels ?? [];
      const deviceOpen = expanded.has(deviceRowKey) && channels.length > 0;
      rows.push({
        key: deviceRowKey,
        depth: depth + 1,
        kind: deviceItemKind(device.isConnected),
        label: device.name,
        detail: device.sn ?? device.thingName,
        expandable: channels.length > 0,
        expanded: deviceOpen,
        position: ++index,
        siblings: childCount,
        target: { type: 'device', device, group, account },
      });
      if (!deviceOpen) continue;
      channels.forEach((channel, channelIndex) =>
        rows.push({
          key: channelKey(device.id, channel.code),
          depth: depth + 2,
          kind: 'channel',
          label: channelLabel(channel),
          detail: channel.code,
          expandable: false,
          expanded: false,
          position: channelIndex + 1,
          siblings: channels.length,
          target: { type: 'channel', channel, device, group, account },
        }),
      );
    }
    for (const user of users) {
      rows.push({
        key: userKey(group.id, user.email),
        depth: depth + 1,
        kind: userKind(user),
        label: fullName(user),
        detail: user.email,
        expandable: false,
        expanded: false,
        position: ++index,
        siblings: childCount,
        target: { type: 'user', user, group, account },
      });
    }
  };

  const roots = search ? accounts.filter((account) => search.shownGroups.has(account.rootGroup)) : accounts;
  roots.forEach((account, index) =>
    pushGroup(account, account.rootGroup, null, 0, index + 1, roots.length, search !== null),
  );
  return rows;
}

/**
 * Groups to open for a search: every group with a match beneath it. A group that matched only by
 * its own name stays closed, so the result reads as a list of hits.
 */
export function searchExpandedKeys(accounts: readonly Account[], search: TreeSearchResult): Set<string> {
  const keys = new Set<string>();
  const matched = search.matchedItems as ReadonlySet<unknown>;
  const visit = (group: GroupNode): boolean => {
    let below = false;
    for (const child of group.groups) if (search.shownGroups.has(child) && visit(child)) below = true;
    if (
      group.devices.some((item) => matched.has(item)) ||
      group.fullUsers.some((item) => matched.has(item)) ||
      group.scenes.some((item) => matched.has(item))
    ) {
      below = true;
    }
    if (below) keys.add(groupKey(group.id));
    return below || search.matchedGroups.has(group);
  };
  for (const account of accounts) if (search.shownGroups.has(account.rootGroup)) visit(account.rootGroup);
  return keys;
}

/** Keys of every group (and nothing else): "expand all". */
export function allGroupKeys(accounts: readonly Account[]): Set<string> {
  const keys = new Set<string>();
  const visit = (group: GroupNode) => {
    keys.add(groupKey(group.id));
    group.groups.forEach(visit);
  };
  accounts.forEach((account) => visit(account.rootGroup));
  return keys;
}

/**
 * The groups the tree opens with: those the server marks `expanded` (core §3; it marks the top group
 * of each tree the caller sees). Opening and closing afterwards is the page's own state.
 */
export function initiallyExpandedKeys(accounts: readonly Account[]): Set<string> {
  const keys = new Set<string>();
  const visit = (group: GroupNode) => {
    if (group.expanded) keys.add(groupKey(group.id));
    group.groups.forEach(visit);
  };
  accounts.forEach((account) => visit(account.rootGroup));
  return keys;
}

/** Where a group sits: the names from the top of the caller's tree down to it. */
export function groupTrailOf(accounts: readonly Account[], groupId: string): GroupNode[] {
  const trail: GroupNode[] = [];
  const visit = (group: GroupNode): boolean => {
    trail.push(group);
    if (group.id === groupId) return true;
    for (const child of group.groups) if (visit(child)) return true;
    trail.pop();
    return false;
  };
  for (const account of accounts) if (visit(account.rootGroup)) return trail;
  return [];
}

// Counted once per group object: an answer of the tree is never changed, only replaced.
const devicesBelow = new WeakMap<GroupNode, number>();

/** Every device beneath a group, its subgroups' included. */
export function deviceCountBelow(group: GroupNode): number {
  let count = devicesBelow.get(group);
  if (count === undefined) {
    count = group.devices.length + group.groups.reduce((sum, child) => sum + deviceCountBelow(child), 0);
    devicesBelow.set(group, count);
  }
  return count;
}

function groupDetail(group: GroupNode): string | null {
  const count = deviceCountBelow(group);
  return count === 0 ? null : `${count.toLocaleString()} ${count === 1 ? 'device' : 'devices'}`;
}

/** Every user attached beneath a group, its subgroups' included. */
export function userCountBelow(group: GroupNode): number {
  return group.fullUsers.length + group.groups.reduce((sum, child) => sum + userCountBelow(child), 0);
}

/** The target a row key stands for, wherever it is in the tree (open or not), or null. */
export function findTarget(accounts: readonly Account[], key: string): TreeTarget | null {
  const visit = (account: Account, group: GroupNode, parent: GroupNode | null): TreeTarget | null => {
    if (groupKey(group.id) === key) return { type: 'group', group, parent, account };
    for (const scene of group.scenes) if (sceneKey(scene.id) === key) return { type: 'scene', scene, group, account };
    for (const device of group.devices) {
      if (deviceKey(device.id) === key) return { type: 'device', device, group, account };
      for (const channel of device.channels ?? []) {
        if (channelKey(device.id, channel.code) === key) return { type: 'channel', channel, device, group, account };
      }
    }
    for (const user of group.fullUsers) {
      if (userKey(group.id, user.email) === key) return { type: 'user', user, group, account };
    }
    for (const child of group.groups) {
      const found = visit(account, child, group);
      if (found) return found;
    }
    return null;
  };
  for (const account of accounts) {
    const found = visit(account, account.rootGroup, null);
    if (found) return found;
  }
  return null;
}

/** Keys of the groups above a target, so it can be shown (opened to) wherever it is. */
export function ancestorKeys(accounts: readonly Account[], groupId: string): string[] {
  return groupTrailOf(accounts, groupId).map((group) => groupKey(group.id));
}
