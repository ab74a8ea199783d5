import type { Account, GroupNode } from '@fieldlink/api/account';

/** Paths of the inventory screens under /inv/cig (application §2). */
export const inventoryPaths = {
  overview: (accountId: string, groupId: string) => `/inv/cig/overview/${accountId}/${groupId}`,
  store: (accountId: string, groupId: string) => `/inv/cig/store/${accountId}/${groupId}`,
  chart: (accountId: string, groupId: string) => `/inv/cig/store/${accountId}/${groupId}/chart`,
  picklist: (accountId: string, groupId: string) => `/inv/cig/store/${accountId}/${groupId}/picklist`,
};

/** Where /inv/cig opens: the root of the first stock account, else of the first account. */
export function inventoryHome(accounts: readonly Account[]): string | null {
  const account = accounts.find((candidate) => candidate.appType === 'stock') ?? accounts[0];
  return account ? inventoryPaths.overview(account.id, account.rootGroup.id) : null;
}

/** A group with the names of the groups above it, for the region picker and the store list. */
export interface PlacedGroup {
  group: GroupNode;
  /** Names from the account's root down to the group's parent. */
  parents: string[];
}

/** Every group of an account but the New Devices and Trash ones, in tree order. */
export function accountGroups(account: Account): PlacedGroup[] {
  const placed: PlacedGroup[] = [];
  const visit = (group: GroupNode, parents: string[]) => {
    if (group.kind === 'new' || group.kind === 'trash') return;
    placed.push({ group, parents });
    for (const child of group.groups) visit(child, [...parents, group.name]);
  };
  visit(account.rootGroup, []);
  return placed;
}
