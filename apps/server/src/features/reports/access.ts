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
  /** The deepest group holding every device of the item. */
  scopePath: string;
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

/**
 * True when the viewer may see the report or schedule (the permission is checked apart): its
 * creator; an administrator whose scope holds all its devices; for PUBLIC, anyone whose scope
 * holds all its devices; for selected groups, every user attached at or below one of them; for
 * selected users, those users. Always within the account.
 */
export function maySee(viewer: Viewer, item: SharedItem, account: ReportAccount): boolean {
  if (!worksInAccount(viewer, account)) return false;
  if (item.createdBy === viewer.id) return true;
  const coversDevices = viewerCovers(viewer, item.scopePath);
  if (coversDevices && viewer.admin) return true;
  switch (item.access.type) {
    case 'CREATOR_ONLY':
      return false;
    case 'PUBLIC':
      return coversDevices;
    case 'SELECTED_GROUPS_IN_SCOPE':
      return item.access.groupIds.some((groupId) => {
        const path = account.groupPaths.get(groupId);
        return path !== undefined && viewer.attachmentPoints.some((point) => isUnderPath(point.path, path));
      });
    case 'SELECTED_USERS_IN_SCOPE':
      return item.access.users.some((email) => email.trim().toLowerCase() === viewer.email.toLowerCase());
  }
}

/** True when the viewer may change or delete it: its creator, or an administrator over its devices. */
export function mayChange(viewer: Viewer, item: SharedItem, account: ReportAccount): boolean {
  if (!worksInAccount(viewer, account)) return false;
  return item.createdBy === viewer.id || (viewer.admin && viewerCovers(viewer, item.scopePath));
}
