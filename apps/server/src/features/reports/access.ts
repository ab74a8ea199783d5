import type { ReportAccess } from '@fieldlink/api/reports';
import { isInScope, isUnderPath } from '@fieldlink/domain/group-path';
import { can, effectivePermissions, isAdmin, type ExtraFlag, type Permission } from '@fieldlink/domain/permissions';
import { permissionSubject } from '../session/access';
import type { UserContext } from '../session/user-context';

/** An account as the report rules read it: its root and where its groups are. */
export interface ReportAccount {
  id: string;
  rootPath: string;
  /** Path of every group of the account, by id. */
  groupPaths: ReadonlyMap<string, string>;
}

/** A report or schedule as far as who may see it goes. */
export interface SharedItem {
  createdBy: string;
  /**
   * Where its devices are, each of which the viewer's scope must hold: for a report, each device's
   * group now (read at every look, so a device moved away takes the report with it); for a schedule,
   * which holds no readings, the deepest group of its devices when it was last saved.
   */
  devicePaths: readonly string[];
  access: ReportAccess;
}

/** A person as the sharing rules see them: a signed-in caller, or a user a notice may go to. */
export interface Viewer {
  id: string;
  email: string;
  attachmentPoints: readonly { accountId: string; path: string }[];
  admin: boolean;
  /** Holds READ_REPORTS (§6). */
  readsReports: boolean;
}

/** The caller as a viewer. */
export function viewerOf(user: UserContext): Viewer {
  const subject = permissionSubject(user);
  return {
    id: user.id,
    email: user.email,
    attachmentPoints: user.attachmentPoints,
    admin: isAdmin(subject),
    readsReports: can(subject, 'readReports'),
  };
}

/** A user of an account as a viewer, from its attachment points (permissions from the first, §6). */
export function viewerOfRows(
  id: string,
  email: string,
  points: readonly {
    accountId: string;
    path: string;
    ordinal: number;
    permissions: string;
    secretPermissions: string;
  }[],
): Viewer {
  const ordered = [...points].sort((a, b) => a.ordinal - b.ordinal);
  const subject = effectivePermissions([
    {
      attachmentPoints: ordered.map((point) => ({
        permissions: JSON.parse(point.permissions) as Permission[],
        secretPermissions: JSON.parse(point.secretPermissions) as ExtraFlag[],
      })),
    },
  ]);
  return { id, email, attachmentPoints: ordered, admin: isAdmin(subject), readsReports: can(subject, 'readReports') };
}

const paths = (viewer: Viewer) => viewer.attachmentPoints.map((point) => point.path);

/** True when the path lies under one of the viewer's attachment points. */
export function viewerCovers(viewer: Viewer, path: string): boolean {
  return isInScope(path, paths(viewer));
}

/** True when the viewer works in the account: attached in it, or above its root (a supplier). */
export function worksInAccount(viewer: Viewer, account: Pick<ReportAccount, 'id' | 'rootPath'>): boolean {
  return (
    viewer.attachmentPoints.some((point) => point.accountId === account.id) || viewerCovers(viewer, account.rootPath)
  );
}

/** True when the viewer's scope holds every device of the item (the scope `GET /device` answers 404 outside). */
function coversDevices(viewer: Viewer, item: SharedItem): boolean {
  return item.devicePaths.every((path) => viewerCovers(viewer, path));
}

/**
 * True when the viewer may see the report or schedule (the permission is checked apart). Nobody,
 * its creator included, sees one with a device outside their scope: it holds that device's readings
 * (issue 34 item 9). Within that: its creator; an administrator; for PUBLIC, anyone; for selected
 * groups, every user attached at or below one of them; for selected users, those users. Always
 * within the account.
 */
export function maySee(viewer: Viewer, item: SharedItem, account: ReportAccount): boolean {
  if (!worksInAccount(viewer, account) || !coversDevices(viewer, item)) return false;
  if (item.createdBy === viewer.id || viewer.admin) return true;
  switch (item.access.type) {
    case 'CREATOR_ONLY':
      return false;
    case 'PUBLIC':
      return true;
    case 'SELECTED_GROUPS_IN_SCOPE':
      return item.access.groupIds.some((groupId) => {
        const path = account.groupPaths.get(groupId);
        return path !== undefined && viewer.attachmentPoints.some((point) => isUnderPath(point.path, path));
      });
    case 'SELECTED_USERS_IN_SCOPE':
      return item.access.users.some((email) => email.trim().toLowerCase() === viewer.email.toLowerCase());
  }
}

/** True when the viewer may change or delete it: its creator or an administrator, over all its devices. */
export function mayChange(viewer: Viewer, item: SharedItem, account: ReportAccount): boolean {
  if (!worksInAccount(viewer, account) || !coversDevices(viewer, item)) return false;
  return item.createdBy === viewer.id || viewer.admin;
}
