import type { Kysely } from 'kysely';
import type { Account, AccountAnswer, GroupKind, GroupNode, TreeDevice } from '@fieldlink/api/account';
import { userItemKind } from '@fieldlink/domain/account-tree';
import { isGroupHidden } from '@fieldlink/domain/app-variant';
import { isUnderPath } from '@fieldlink/domain/group-path';
import { can, type ExtraFlag, type Permission } from '@fieldlink/domain/permissions';
import type { Database } from '../../db/schema';
import { sceneNamesOfGroups } from '../scenes/repository';
import { permissionSubject } from '../session/access';
import type { UserContext } from '../session/user-context';
import {
  devicesInGroups,
  findAccount,
  firstAttachmentPointsOf,
  groupsUnder,
  invitationsAt,
  usersAttachedAt,
} from './repository';

type TreeChannel = NonNullable<TreeDevice['channels']>[number];
type TreeTag = NonNullable<TreeDevice['tags']>[number];

/** The account tree in the caller's scope (`GET /account`). */
export class AccountService {
  constructor(private readonly db: Kysely<Database>) {}

  async accounts(user: UserContext): Promise<AccountAnswer> {
    const accounts: Account[] = [];
    const showInvitations = can(permissionSubject(user), 'inviteUsers');
    // A point inside another of the user's points is already part of that tree: shown once.
    const points = user.attachmentPoints.filter(
      (point, index, all) =>
        !all.some(
          (other, otherIndex) =>
            otherIndex !== index &&
            isUnderPath(point.path, other.path) &&
            (other.path !== point.path || otherIndex < index),
        ),
    );
    for (const point of points) {
      const account = await findAccount(this.db, point.accountId);
      const rootGroup = account && (await this.subtree(point.path, showInvitations, account.kind));
      if (account && rootGroup) {
        accounts.push({
          id: account.id,
          name: account.name,
          appType: account.app_type,
          kind: account.kind,
          userVariant: account.user_variant,
          theme: account.theme,
          rootGroup,
        });
      }
    }
    return { accounts };
  }

  /**
   * The group at `path` with everything beneath it, nested; the groups hidden for the account's kind
   * (an investor's New Devices and Trash) and what they hold are left out.
   */
  private async subtree(path: string, showInvitations: boolean, accountKind: string): Promise<GroupNode | null> {
    const every = await groupsUnder(this.db, path);
    const hidden = every.filter((group) => isGroupHidden(accountKind, group.kind));
    const groups = every.filter((group) => !hidden.some((placeholder) => isUnderPath(group.path, placeholder.path)));
    const paths = groups.map((group) => group.path);
    const [devices, users, invitations, scenes] = await Promise.all([
      devicesInGroups(
        this.db,
        groups.map((group) => group.id),
      ),
      usersAttachedAt(this.db, paths),
      showInvitations ? invitationsAt(this.db, paths) : Promise.resolve([]),
      sceneNamesOfGroups(
        this.db,
        groups.map((group) => group.id),
      ),
    ]);
    const firstPoints = await firstAttachmentPointsOf(this.db, [...new Set(users.map((user) => user.user_id))]);
    const nodes = new Map<string, GroupNode>();
    const byPath = new Map<string, GroupNode>();
    for (const group of groups) {
      const node: GroupNode = {
        id: group.id,
        name: group.name,
        accountId: group.account_id,
        appType: group.app_type,
        kind: group.kind as GroupKind,
        simulation: group.simulation === 1,
        relativePath: group.path,
        groups: [],
        devices: [],
        deviceIds: [],
        scenes: [],
        users: [],
        fullUsers: [],
        ...(showInvitations && { invitations: [] }),
      };
      nodes.set(group.id, node);
      byPath.set(group.path, node);
    }
    for (const group of groups) {
      const parent = group.parent_id ? nodes.get(group.parent_id) : undefined;
      if (parent && group.path !== path) parent.groups.push(nodes.get(group.id)!);
    }
    // Devices of one model store the same channel list (and most the same tags): each distinct text
    // is parsed once and its list shared, which also lets the compact form send it once.
    const channelLists = new Map<string, TreeChannel[]>();
    const tagLists = new Map<string, TreeTag[]>();
    for (const device of devices) {
      const node = nodes.get(device.group_id)!;
      node.deviceIds.push(device.id);
      let channels = channelLists.get(device.channels);
      if (!channels) {
        channels = (JSON.parse(device.channels) as TreeChannel[]).map(({ code, name, units }) => ({
          code,
          ...(name === undefined ? {} : { name }),
          ...(units === undefined ? {} : { units }),
        }));
        channelLists.set(device.channels, channels);
      }
      let tags = tagLists.get(device.tags);
      if (!tags) {
        tags = (JSON.parse(device.tags) as TreeTag[]).map(({ key, value }) => ({ key, value }));
        tagLists.set(device.tags, tags);
      }
      node.devices.push({
        id: device.id,
        name: device.name,
        sn: device.sn,
        thingName: device.thing_name,
        isConnected: device.is_connected === 1,
        lastConnection: device.last_connection,
        lastDisconnection: device.last_disconnection,
        channels,
        tags,
      });
    }
    // Each group's scenes (shown as dashboards in the tree) in the group's scene order.
    for (const scene of scenes) nodes.get(scene.group_id)?.scenes.push({ id: scene.id, name: scene.name });
    for (const user of users) {
      const node = byPath.get(user.path);
      const first = firstPoints.get(user.user_id);
      const itemKind = userItemKind({
        permissions: first ? (JSON.parse(first.permissions) as Permission[]) : [],
        secretPermissions: first ? (JSON.parse(first.secret_permissions) as ExtraFlag[]) : [],
      });
      node?.users.push(user.email);
      node?.fullUsers.push({ firstName: user.first_name, lastName: user.last_name, email: user.email, itemKind });
    }
    for (const invitation of invitations) {
      byPath.get(invitation.path)?.invitations?.push({ email: invitation.email, expiresAt: invitation.expires_at });
    }
    return byPath.get(path) ?? null;
  }
}
