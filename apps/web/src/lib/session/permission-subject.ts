import type { Account } from '@fieldlink/api/account';
import type { SelfAnswer } from '@fieldlink/api/session';
import { resolveAppType, type NavigationSubject, type VariantAccount } from '@fieldlink/domain/app-variant';
import { effectivePermissions, type PermissionSubject } from '@fieldlink/domain/permissions';

// Shared by the loading screen (where to land) and the account tree (menus, the invite editor).

/** The account the user's first attachment point belongs to (§6), else the first account read. */
function firstAccount(self: SelfAnswer, accounts: readonly Account[]): Account | undefined {
  const firstLinked = self.linkedAccounts.find((linked) => linked.attachmentPoints.length > 0);
  return accounts.find((a) => a.id === firstLinked?.accountId) ?? accounts[0];
}

/**
 * The permission subject of a user: permissions of the FIRST attachment point (specification §6),
 * the user variant of the account that attachment point belongs to, and the user's monitor-only mark.
 */
export function permissionSubject(self: SelfAnswer, accounts: readonly Account[]): PermissionSubject {
  const { permissions, secretPermissions } = effectivePermissions(self.linkedAccounts);
  return {
    permissions,
    secretPermissions,
    userVariant: firstAccount(self, accounts)?.userVariant ?? null,
    monitorOnly: self.monitorOnly,
  };
}

/** The variant side of that account: app type, kind, brand theme and user variant. */
export function variantAccount(self: SelfAnswer, accounts: readonly Account[]): VariantAccount | null {
  const account = firstAccount(self, accounts);
  return account
    ? { appType: account.appType, kind: account.kind, theme: account.theme, userVariant: account.userVariant }
    : null;
}

/** Who is navigating: the permission subject and the app the page subdomain and account give. */
export function navigationSubject(
  self: SelfAnswer,
  accounts: readonly Account[],
  subdomain: string,
): NavigationSubject {
  return { ...permissionSubject(self, accounts), appType: resolveAppType(subdomain, variantAccount(self, accounts)) };
}
