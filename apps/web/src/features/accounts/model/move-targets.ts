import type { Account, GroupNode } from '@fieldlink/api/account';
import { moveRefusal, type MovableNodeType } from '@fieldlink/domain/account-tree';
import { isAdmin, holdsPermission, type PermissionSubject } from '@fieldlink/domain/permissions';
import { sortedGroups, type TreeTarget } from './tree-rows';

/** A group offered as a move destination, and why it cannot take the item (null when it can). */
export interface MoveDestination {
  group: GroupNode;
  depth: number;
  /**
   * Where the group is: its account's name, then each group down to it (the root group stands for
   * the account). Two customers' "Cold Store" differ here.
   */
  path: string[];
  refusal: string | null;
}

/** A destination's path as people read it: `Acme Controls › Site A › Cold Store`. */
export const PATH_SEPARATOR = ' › ';

/** The node type of a movable target, or null for what does not move (scenes, channels, roots). */
export function movableType(target: TreeTarget): MovableNodeType | null {
  if (target.type === 'device') return 'DEVICE';
  if (target.type === 'user') return 'USER';
  if (target.type === 'group' && target.parent) return 'GROUP';
  return null;
}

/** The group a target sits in: its source group for a move. */
export function sourceGroupOf(target: TreeTarget): GroupNode | null {
  return target.type === 'group' ? target.parent : target.group;
}

/**
 * Why the mover cannot move this user at all, as far as the tree tells (the server decides): nobody
 * moves itself or a user holding more (an administrator, or an alarm responder when it is not one).
 */
export function userMoveProblem(
  target: TreeTarget,
  mover: PermissionSubject,
  moverEmail: string | null,
): string | null {
  if (target.type !== 'user') return null;
  if (target.user.email === moverEmail) return 'You cannot move yourself.';
  const kind = target.user.itemKind ?? 'user';
  if ((kind === 'adminUser' && !isAdmin(mover)) || (kind === 'alarmUser' && !holdsPermission(mover, 'ALARM'))) {
    return 'You cannot move a user who holds permissions you do not hold.';
  }
  return null;
}

/**
 * Every group of the caller's trees, in tree order, each with the domain's verdict on moving the
 * target there. The group it is in now is offered but refused ("already here").
 */
export function moveDestinations(accounts: readonly Account[], target: TreeTarget): MoveDestination[] {
  const type = movableType(target);
  const source = sourceGroupOf(target);
  const destinations: MoveDestination[] = [];
  const movedGroup = target.type === 'group' ? target.group : null;
  const entityAccountId =
    target.type === 'group'
      ? target.group.accountId
      : target.type === 'device' || target.type === 'user'
        ? target.group.accountId
        : null;
  const visit = (group: GroupNode, depth: number, path: string[]) => {
    let refusal: string | null = type === null ? 'This item cannot be moved.' : null;
    if (refusal === null && source?.id === group.id) refusal = 'It is already here.';
    if (refusal === null) {
      refusal = moveRefusal({
        type: type!,
        movedGroupKind: movedGroup?.kind,
        movedGroupPath: movedGroup?.relativePath,
        destinationKind: group.kind,
        destinationPath: group.relativePath,
        sameAccount: entityAccountId === group.accountId,
      });
    }
    destinations.push({ group, depth, path, refusal });
    for (const child of sortedGroups(group.groups)) visit(child, depth + 1, [...path, child.name]);
  };
  for (const account of accounts) visit(account.rootGroup, 0, [account.name]);
  return destinations;
}
