import type { Kysely } from 'kysely';
import type {
  AddGroupBody,
  DeleteGroupAnswer,
  DeleteGroupBody,
  GroupSummary,
  MoveAnswer,
  MoveBody,
  RenameGroupBody,
} from '@fieldlink/api/groups';
import {
  addSubgroupRefusal,
  deleteGroupRefusal,
  groupNameProblem,
  isPlaceholderGroup,
  moveRefusal,
  normaliseGroupName,
  renameGroupRefusal,
  type GroupKind,
} from '@fieldlink/domain/account-tree';
import { normaliseEmail } from '@fieldlink/domain/email';
import { childPath } from '@fieldlink/domain/group-path';
import { userMoveRefusal } from '@fieldlink/domain/user-rules';
import type { Insertable, Selectable } from 'kysely';
import type { Database, GroupsTable } from '../../db/schema';
import { DEVICE_NOT_FOUND, GROUP_NOT_FOUND } from '@fieldlink/api/errors';

type GroupRow = Selectable<GroupsTable>;
import { HttpError, notFound } from '../../http-errors';
import { newId } from '../../security/secrets';
import { audit, byUser } from '../audit/service';
import { inScope, permissionSubject, requireCapability } from '../session/access';
import { attachmentPointsOf, findUserByEmail } from '../session/repository';
import type { UserContext } from '../session/user-context';
import { userPermissions } from '../users/mapper';
import { deleteScenesOfGroups } from '../scenes/repository';
import {
  accountsWithRootIn,
  attachmentPointsAtOrBelow,
  deleteGroups,
  deleteInvitationsByHash,
  devicesOfGroups,
  findAccount,
  findAccountGroupOfKind,
  findDevice,
  findGroup,
  groupsAtOrBelow,
  insertGroup,
  moveDevices,
  pendingInvitationsAtOrBelow,
  rebasePaths,
  renameAccount,
  renameGroup,
  setGroupParent,
  updateAttachmentPoint,
} from './repository';

export interface GroupServiceOptions {
  db: Kysely<Database>;
  /** Users whose attachment points moved: their sockets close so they reconnect with the new scope. */
  onUsersMoved?: (userIds: readonly string[]) => void;
  /** Devices that changed group: real-time subscriptions to them are checked again. */
  onDevicesMoved?: (thingNames: readonly string[]) => void;
}

function toGroupSummary(row: Pick<GroupRow, 'id' | 'name' | 'account_id' | 'parent_id' | 'path'>): GroupSummary {
  return { id: row.id, name: row.name, accountId: row.account_id, parentId: row.parent_id, path: row.path };
}

/**
 * Group calls and moves (core §7), each needing group edit (§6) and checking the caller's scope at
 * every group it names: a group out of scope is "not found", like one that does not exist.
 */
export class GroupService {
  constructor(private readonly options: GroupServiceOptions) {}

  /** A group the caller may see, or 404. */
  private async visibleGroup(caller: UserContext, id: string): Promise<GroupRow> {
    const group = await findGroup(this.options.db, id);
    if (!group || !inScope(caller, group.path)) throw notFound(GROUP_NOT_FOUND);
    return group;
  }

  async addGroup(caller: UserContext, body: AddGroupBody): Promise<GroupSummary> {
    requireCapability(caller, 'editGroups');
    const parent = await this.visibleGroup(caller, body.parentId);
    const refusal = addSubgroupRefusal(parent.kind as GroupKind) ?? groupNameProblem(body.name);
    if (refusal) throw new HttpError(400, refusal);
    const id = newId();
    const group = {
      id,
      account_id: parent.account_id,
      parent_id: parent.id,
      name: normaliseGroupName(body.name),
      kind: 'group',
      path: childPath(parent.path, id),
      created_at: Date.now(),
    } satisfies Insertable<GroupsTable>;
    await this.options.db.transaction().execute(async (trx) => {
      await insertGroup(trx, group);
      await audit.record(trx, {
        accountId: group.account_id,
        by: byUser(caller),
        action: 'group.add',
        target: { kind: 'group', id, name: group.name },
        after: { name: group.name, parentId: parent.id },
      });
    });
    return toGroupSummary(group);
  }

  /** Renames a group; renaming an account's root group renames the account. */
  async renameGroup(caller: UserContext, body: RenameGroupBody): Promise<GroupSummary> {
    requireCapability(caller, 'editGroups');
    const group = await this.visibleGroup(caller, body.id);
    const refusal = renameGroupRefusal(group.kind as GroupKind) ?? groupNameProblem(body.name);
    if (refusal) throw new HttpError(400, refusal);
    const name = normaliseGroupName(body.name);
    await this.options.db.transaction().execute(async (trx) => {
      await renameGroup(trx, group.id, name);
      if (group.kind === 'root') await renameAccount(trx, group.account_id, name);
      await audit.record(trx, {
        accountId: group.account_id,
        by: byUser(caller),
        action: 'group.rename',
        target: {
          kind: group.kind === 'root' ? 'account' : 'group',
          id: group.kind === 'root' ? group.account_id : group.id,
          name,
        },
        before: { name: group.name },
        after: { name },
      });
    });
    return toGroupSummary({ ...group, name });
  }

  /**
   * Deletes a group and its subgroups. Their devices go to the account's Trash group (from where
   * they can be moved back); unused invitations to them are cancelled. A group with users attached
   * in it, or holding other accounts, is refused until those are moved. The answer lists it all.
   */
  async deleteGroup(caller: UserContext, body: DeleteGroupBody): Promise<DeleteGroupAnswer> {
    requireCapability(caller, 'editGroups');
    const group = await this.visibleGroup(caller, body.id);
    const kind = group.kind as GroupKind;
    if (kind === 'root' || isPlaceholderGroup(kind)) throw new HttpError(400, deleteGroupRefusal(kind, 0)!);
    const { db } = this.options;
    const answer = await db.transaction().execute(async (trx) => {
      const subtree = await groupsAtOrBelow(trx, group.path);
      const ids = subtree.map((row) => row.id);
      const accounts = await accountsWithRootIn(trx, ids);
      const users = new Set((await attachmentPointsAtOrBelow(trx, group.path)).map((point) => point.user_id));
      const refusal = deleteGroupRefusal(kind, users.size, accounts.length);
      if (refusal) throw new HttpError(409, refusal);
      const trash = await findAccountGroupOfKind(trx, group.account_id, 'trash');
      if (!trash) throw new Error(`Account ${group.account_id} has no Trash group`);
      const devices = await devicesOfGroups(trx, ids);
      const invitations = await pendingInvitationsAtOrBelow(trx, group.path);
      await moveDevices(
        trx,
        devices.map((device) => device.id),
        trash.id,
        trash.account_id,
      );
      await deleteInvitationsByHash(
        trx,
        invitations.map((invitation) => invitation.code_hash),
      );
      // Dashboards live in their group: they go with it (their devices stay, in Trash).
      await deleteScenesOfGroups(trx, ids);
      await deleteGroups(trx, ids);
      await audit.record(trx, {
        accountId: group.account_id,
        by: byUser(caller),
        action: 'group.delete',
        target: { kind: 'group', id: group.id, name: group.name },
        before: { name: group.name, path: group.path, groupIds: ids },
        after: {
          devicesMovedToTrash: devices.map((device) => device.id),
          invitationsCancelled: invitations.map((invitation) => invitation.email),
        },
      });
      return {
        thingNames: devices.map((device) => device.thing_name),
        result: {
          deletedGroupIds: ids,
          trashGroupId: trash.id,
          devicesMovedToTrash: devices.map((device) => device.id),
          invitationsCancelled: invitations.map((invitation) => invitation.email),
        },
      };
    });
    this.options.onDevicesMoved?.(answer.thingNames);
    return answer.result;
  }

  /**
   * `POST /move`: a device, group or user from its group to another (§4). The caller needs group
   * edit and both groups in scope; the entity must be in the source group.
   */
  async move(caller: UserContext, body: MoveBody): Promise<MoveAnswer> {
    requireCapability(caller, 'editGroups');
    const source = await this.visibleGroup(caller, body.sourceGroupId);
    const destination = await this.visibleGroup(caller, body.destinationGroupId);
    const facts = {
      destinationKind: destination.kind as GroupKind,
      destinationPath: destination.path,
    };
    switch (body.type) {
      case 'DEVICE':
        return this.moveDevice(caller, body.id, source, destination, facts);
      case 'GROUP':
        return this.moveGroup(caller, body.id, source, destination, facts);
      case 'USER':
        return this.moveUser(caller, body.id, source, destination, facts);
    }
  }

  private async moveDevice(
    caller: UserContext,
    id: string,
    source: GroupRow,
    destination: GroupRow,
    facts: { destinationKind: GroupKind; destinationPath: string },
  ): Promise<MoveAnswer> {
    const device = await findDevice(this.options.db, id);
    if (!device || device.group_id !== source.id) throw notFound(DEVICE_NOT_FOUND);
    const refusal = moveRefusal({
      type: 'DEVICE',
      ...facts,
      sameAccount: device.account_id === destination.account_id,
    });
    if (refusal) throw new HttpError(400, refusal);
    if (source.id !== destination.id) {
      await this.options.db.transaction().execute(async (trx) => {
        await moveDevices(trx, [device.id], destination.id, destination.account_id);
        await audit.record(trx, {
          accountId: destination.account_id,
          by: byUser(caller),
          action: 'move',
          target: { kind: 'device', id: device.id, name: device.name },
          deviceId: device.id,
          before: { groupId: source.id, groupName: source.name },
          after: { groupId: destination.id, groupName: destination.name },
        });
      });
      this.options.onDevicesMoved?.([device.thing_name]);
    }
    return { type: 'DEVICE', id: device.id, path: destination.path };
  }

  private async moveGroup(
    caller: UserContext,
    id: string,
    source: GroupRow,
    destination: GroupRow,
    facts: { destinationKind: GroupKind; destinationPath: string },
  ): Promise<MoveAnswer> {
    const { db } = this.options;
    const group = await findGroup(db, id);
    if (!group || group.parent_id !== source.id) throw notFound(GROUP_NOT_FOUND);
    const refusal = moveRefusal({
      type: 'GROUP',
      ...facts,
      movedGroupKind: group.kind as GroupKind,
      movedGroupPath: group.path,
      sameAccount: group.account_id === destination.account_id,
    });
    if (refusal) throw new HttpError(400, refusal);
    if (source.id === destination.id) return { type: 'GROUP', id: group.id, path: group.path };
    const path = childPath(destination.path, group.id);
    const affected = await db.transaction().execute(async (trx) => {
      await rebasePaths(trx, group.path, path);
      await setGroupParent(trx, group.id, destination.id);
      await audit.record(trx, {
        accountId: group.account_id,
        by: byUser(caller),
        action: 'move',
        target: { kind: 'group', id: group.id, name: group.name },
        before: { parentId: source.id, parentName: source.name },
        after: { parentId: destination.id, parentName: destination.name },
      });
      const groups = await groupsAtOrBelow(trx, path);
      const devices = await devicesOfGroups(
        trx,
        groups.map((row) => row.id),
      );
      const users = await attachmentPointsAtOrBelow(trx, path);
      return { thingNames: devices.map((device) => device.thing_name), userIds: users.map((point) => point.user_id) };
    });
    // Users attached inside keep what they see, but their sockets hold the old paths.
    if (affected.userIds.length > 0) this.options.onUsersMoved?.([...new Set(affected.userIds)]);
    this.options.onDevicesMoved?.(affected.thingNames);
    return { type: 'GROUP', id: group.id, path };
  }

  private async moveUser(
    caller: UserContext,
    rawEmail: string,
    source: GroupRow,
    destination: GroupRow,
    facts: { destinationKind: GroupKind; destinationPath: string },
  ): Promise<MoveAnswer> {
    const { db } = this.options;
    const email = normaliseEmail(rawEmail);
    const user = await findUserByEmail(db, email);
    const points = user ? await attachmentPointsOf(db, user.id) : [];
    const point = points.find((candidate) => candidate.path === source.path);
    if (!user || !point) throw notFound('User not found.');
    const refusal = userMoveRefusal(permissionSubject(caller), userPermissions(points), user.id === caller.id);
    if (refusal) throw new HttpError(refusal.status, refusal.message);
    const placement = moveRefusal({ type: 'USER', ...facts, sameAccount: point.account_id === destination.account_id });
    if (placement) throw new HttpError(400, placement);
    if (source.id === destination.id) return { type: 'USER', id: email, path: source.path };
    if (points.some((candidate) => candidate.path === destination.path)) {
      throw new HttpError(409, 'The user is already in that group.');
    }
    const account = await findAccount(db, destination.account_id);
    if (!account) throw notFound(GROUP_NOT_FOUND);
    await db.transaction().execute(async (trx) => {
      await updateAttachmentPoint(trx, point.id, {
        path: destination.path,
        account_id: destination.account_id,
        app_type: account.app_type,
      });
      await audit.record(trx, {
        accountId: destination.account_id,
        by: byUser(caller),
        action: 'move',
        target: { kind: 'user', id: user.id, name: user.email },
        before: { groupId: source.id, groupName: source.name },
        after: { groupId: destination.id, groupName: destination.name },
      });
    });
    this.options.onUsersMoved?.([user.id]);
    return { type: 'USER', id: email, path: destination.path };
  }
}
