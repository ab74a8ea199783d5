import type { Account } from '@fieldlink/api/account';
import type { SelfAnswer } from '@fieldlink/api/session';
import { landingFor, type AppType, type Landing } from '@fieldlink/domain/app-variant';
import { can, heldFlags, heldPermissions, isAdmin, type PermissionSubject } from '@fieldlink/domain/permissions';
import { hasPlantDashboard, isPlantAppType } from '@fieldlink/domain/plant-dashboard';
import { findDevice, homeGroupId } from '../../../lib/account-tree';
import { navigationSubject } from '../../../lib/session/permission-subject';

export const DASH_ACCESS_DENY_PATH = '/dashAccessDeny';
export const ACCOUNTS_TREE_PATH = '/accounts/treeview';
/** The inventory's own home: it opens the overview of the first stock account. */
export const INVENTORY_HOME_PATH = '/inv/cig';

export interface SessionSummary {
  permissions: string[];
  /** Extra flags held (MOSNIX_BROADCAST_SPRAY, OTA_UPDATE …): some capabilities are granted by one. */
  flags: string[];
  canViewDash: boolean;
  isAdmin: boolean;
  /** Sees every value and chart but operates nothing (issue 35). */
  monitorOnly: boolean;
}

export function summariseSession(subject: PermissionSubject): SessionSummary {
  return {
    permissions: heldPermissions(subject),
    flags: heldFlags(subject),
    canViewDash: can(subject, 'viewDashboard'),
    isAdmin: isAdmin(subject),
    monitorOnly: subject.monitorOnly === true,
  };
}

/**
 * The path of a landing page, with the ids it needs from the account tree. The device dash opens the
 * device the user last opened when it is still in their tree (outside the trash); else a water-plant
 * app's first device with a generated plant dashboard; else the first device of their own account.
 */
export function landingPath(
  landing: Landing,
  accounts: readonly Account[],
  appType: AppType,
  lastDevice: string | null = null,
): string {
  switch (landing.page) {
    case 'dashAccessDeny':
      return DASH_ACCESS_DENY_PATH;
    case 'accountsTree':
      return ACCOUNTS_TREE_PATH;
    case 'inventory':
      return INVENTORY_HOME_PATH;
    case 'sprayOverview': {
      const root = accounts[0]?.rootGroup.id;
      return root ? `/spray/${encodeURIComponent(root)}` : '/dash';
    }
    case 'brewSummary': {
      const groupId = homeGroupId(accounts);
      return groupId ? `/brew/summary/${encodeURIComponent(groupId)}` : '/dash';
    }
    case 'deviceDash': {
      // Walks that stop at the device they look for: the shell's navigation works out this landing in
      // the first render of every page, at 100,000 devices too (issue 41 item 5).
      const last = lastDevice === null ? null : findDevice(accounts, (device) => device.thingName === lastDevice);
      // A water-plant app lands on a generated plant dashboard: the first device that has one.
      const plant = isPlantAppType(appType)
        ? findDevice(accounts, (device, group) => hasPlantDashboard(group.appType, device.tags ?? []))
        : null;
      const first = last ?? plant ?? findDevice(accounts, () => true);
      return first ? `/dash/${encodeURIComponent(first.device.thingName)}` : '/dash';
    }
  }
}

/**
 * Where /loading sends the user once the account is read: /dashAccessDeny without dashboard access;
 * else the remembered path; else the variant's landing page (the domain's {@link landingFor}): the
 * brew summary, the inventory, the first device's dashboard (a water plant's generated one), or the
 * account tree with VIEW_ACCOUNTS only (§2, §4).
 */
export function routeAfterLoading(
  self: SelfAnswer,
  accounts: readonly Account[],
  rememberedPath: string | null,
  subdomain = '',
  lastDevice: string | null = null,
): string {
  const subject = navigationSubject(self, accounts, subdomain);
  const landing = landingFor(subject);
  if (landing.page === 'dashAccessDeny') return DASH_ACCESS_DENY_PATH;
  return rememberedPath ?? landingPath(landing, accounts, subject.appType, lastDevice);
}
