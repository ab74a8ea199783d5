import type { GroupKind } from './account-tree';

/**
 * Account tree search (specification core §5): a case-insensitive substring match on group and scene
 * names, device names and serial numbers, and users' full names and e-mails. The New Devices and
 * Trash groups, with everything in them, are left out unless the search includes them.
 *
 * The index is built once per tree and each search is one pass over flat arrays, so a tree of ten
 * thousand items answers a keystroke in a few milliseconds.
 */

export interface SearchableDevice {
  name: string;
  sn: string | null;
}

export interface SearchableScene {
  name: string;
}

export interface SearchableUser {
  firstName: string;
  lastName: string;
  email: string;
}

/** A group as the search sees it; the API's group node has this shape. */
export interface SearchableGroup {
  kind: GroupKind;
  name: string;
  groups: readonly SearchableGroup[];
  devices: readonly SearchableDevice[];
  scenes: readonly SearchableScene[];
  fullUsers: readonly SearchableUser[];
}

export interface TreeSearchOptions {
  /** Search inside the New Devices and Trash groups too. */
  includePlaceholderGroups?: boolean;
}

/** What a search found. Items are the very objects of the searched tree. */
export interface TreeSearchResult {
  /** Normalised query (trimmed, lower case). */
  query: string;
  /** Groups whose own name matched. */
  matchedGroups: ReadonlySet<SearchableGroup>;
  /** Devices, scenes and users that matched. */
  matchedItems: ReadonlySet<SearchableDevice | SearchableScene | SearchableUser>;
  /** Groups to show: each matched group and every group above a match. */
  shownGroups: ReadonlySet<SearchableGroup>;
  /** Number of matches (groups and items). */
  count: number;
}

/** The text a query is compared with: trimmed and lower case; empty means "no search". */
export function normaliseTreeQuery(query: string): string {
  return query.trim().toLowerCase();
}

/** The texts of a device that a search looks at: name and serial number. */
export function deviceSearchText(device: SearchableDevice): string {
  return device.sn ? `${device.name}\n${device.sn}` : device.name;
}

/** The texts of a user that a search looks at: full name and e-mail. */
export function userSearchText(user: SearchableUser): string {
  return `${user.firstName} ${user.lastName}\n${user.email}`;
}

interface Entry {
  item: SearchableGroup | SearchableDevice | SearchableScene | SearchableUser;
  isGroup: boolean;
  /** Lower-cased text to match. */
  text: string;
  /** Index of the enclosing group's entry; -1 for a top group. */
  parent: number;
  /** Inside (or being) a New Devices or Trash group. */
  inPlaceholder: boolean;
}

/** A search over one tree. */
export interface TreeSearch {
  search(query: string, options?: TreeSearchOptions): TreeSearchResult | null;
  /** Items indexed (groups, devices, scenes, users). */
  readonly size: number;
}

/** Indexes a tree (one or more top groups) for searching. */
export function createTreeSearch(roots: readonly SearchableGroup[]): TreeSearch {
  const entries: Entry[] = [];
  const visit = (group: SearchableGroup, parent: number, inPlaceholder: boolean) => {
    const placeholder = inPlaceholder || group.kind === 'new' || group.kind === 'trash';
    const index = entries.length;
    entries.push({ item: group, isGroup: true, text: group.name.toLowerCase(), parent, inPlaceholder: placeholder });
    for (const scene of group.scenes) {
      entries.push({
        item: scene,
        isGroup: false,
        text: scene.name.toLowerCase(),
        parent: index,
        inPlaceholder: placeholder,
      });
    }
    for (const device of group.devices) {
      entries.push({
        item: device,
        isGroup: false,
        text: deviceSearchText(device).toLowerCase(),
        parent: index,
        inPlaceholder: placeholder,
      });
    }
    for (const user of group.fullUsers) {
      entries.push({
        item: user,
        isGroup: false,
        text: userSearchText(user).toLowerCase(),
        parent: index,
        inPlaceholder: placeholder,
      });
    }
    for (const child of group.groups) visit(child, index, placeholder);
  };
  for (const root of roots) visit(root, -1, false);

  return {
    size: entries.length,
    search(rawQuery, options = {}) {
      const query = normaliseTreeQuery(rawQuery);
      if (query === '') return null;
      const include = options.includePlaceholderGroups === true;
      const matchedGroups = new Set<SearchableGroup>();
      const matchedItems = new Set<SearchableDevice | SearchableScene | SearchableUser>();
      const shownGroups = new Set<SearchableGroup>();
      const shownIndexes = new Uint8Array(entries.length);
      for (let index = 0; index < entries.length; index++) {
        const entry = entries[index]!;
        if ((entry.inPlaceholder && !include) || !entry.text.includes(query)) continue;
        if (entry.isGroup) matchedGroups.add(entry.item as SearchableGroup);
        else matchedItems.add(entry.item as SearchableDevice);
        // Mark the group itself (or the item's group) and every group above it, stopping at the first
        // already marked: each group is walked once per search.
        let up = entry.isGroup ? index : entry.parent;
        while (up >= 0 && shownIndexes[up] === 0) {
          shownIndexes[up] = 1;
          shownGroups.add(entries[up]!.item as SearchableGroup);
          up = entries[up]!.parent;
        }
      }
      return { query, matchedGroups, matchedItems, shownGroups, count: matchedGroups.size + matchedItems.size };
    },
  };
}
