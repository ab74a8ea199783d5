import type { Account, GroupNode } from '@fieldlink/api/account';

/** An account whose reports can be shown, and how deep it lies below the caller's own accounts. */
export interface ReportAccountChoice {
  account: Account;
  /** 0 for an account the user is linked to, 1 for a customer account below it, and so on. */
  depth: number;
}

/**
 * The user's accounts and, below each, the customer accounts its tree holds (a supplier's tree holds
 * its customers' root groups), depth first as the tree shows them. A customer account is read from its
 * root group; its theme and variant are not in the tree, and the reports pages need neither.
 */
export function reportAccountsOf(accounts: readonly Account[]): ReportAccountChoice[] {
  const choices: ReportAccountChoice[] = [];
  const seen = new Set<string>();
  const visit = (group: GroupNode, parentAccountId: string, depth: number) => {
    let below = depth;
    if (group.accountId !== parentAccountId && !seen.has(group.accountId)) {
      seen.add(group.accountId);
      below = depth + 1;
      choices.push({
        account: {
          id: group.accountId,
          name: group.name,
          appType: group.appType,
          kind: 'customer',
          userVariant: null,
          theme: null,
          rootGroup: group,
        },
        depth: below,
      });
    }
    for (const child of group.groups) visit(child, group.accountId, below);
  };
  for (const account of accounts) {
    if (seen.has(account.id)) continue;
    seen.add(account.id);
    choices.push({ account, depth: 0 });
    for (const child of account.rootGroup.groups) visit(child, account.id, 0);
  }
  return choices;
}
