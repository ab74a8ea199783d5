import type { Account } from '@fieldlink/api/account';
import type { SelfAnswer } from '@fieldlink/api/session';
import { effectivePermissions, type PermissionSubject } from '@fieldlink/domain/permissions';

// Shared by the loading screen (where to land) and the account tree (menus, the invite editor).

/**
 * The permission subject of a user: permissions of the FIRST attachment point (specification §6),
 * and the user variant of the account that attachment point belongs to.
 */
export function permissionSubject(self: SelfAnswer, accounts: readonly Account[]): PermissionSubject {
  const { permissions, secretPermissions } = effectivePermissions(self.linkedAccounts);
  const firstLinked = self.linkedAccounts.find((linked) => linked.attachmentPoints.length > 0);
  const account = accounts.find((a) => a.id === firstLinked?.accountId) ?? accounts[0];
  return { permissions, secretPermissions, userVariant: account?.userVariant ?? null };
}
