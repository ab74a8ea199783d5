import type { Kysely } from 'kysely';
import type { Account, AccountAnswer, GroupKind, GroupNode } from '@fieldlink/api/account';
import type { Database } from '../../db/schema';
import type { UserContext } from '../session/user-context';
import { devicesInGroups, findAccount, groupsUnder, usersAttachedAt } from './repository';

/** The account tree in the caller's scope (`GET /account`). */
export class AccountService {
  constructor(private readonly db: Kysely<Database>) {}

  async accounts(user: UserContext): Promise<AccountAnswer> {
    const accounts: Account[] = [];
    for (const point of user.attachmentPoints) {
      const account = await findAccount(this.db, point.accountId);
      const rootGroup = await this.subtree(point.path);
      if (account && rootGroup) {
        accounts.push({
          id: account.id,
          name: account.name,
          appType: account.app_type,
          kind: account.kind,
          userVariant: account.user_variant,
          rootGroup,
        });
      }
    }
    return { accounts };
  }

  /** The group at `path` with everything beneath it, nested. */
  private async subtree(path: string): Promise<GroupNode | null> {
    const groups = await groupsUnder(this.db, path);
    const [devices, users] = await Promise.all([
      devicesInGroups(
        this.db,
        groups.map((group) => group.id),
      ),
      usersAttachedAt(
        this.db,
        groups.map((group) => group.path),
      ),
    ]);
    const nodes = new Map<string, GroupNode>();
    const byPath = new Map<string, GroupNode>();
    for (const group of groups) {
      const node: GroupNode = {
        id: group.id,
        name: group.name,
        accountId: group.account_id,
        appType: group.app_type,
        kind: group.kind as GroupKind,
        relativePath: group.path,
        groups: [],
        devices: [],
        deviceIds: [],
        scenes: [],
        users: [],
        fullUsers: [],
      };
      nodes.set(group.id, node);
      byPath.set(group.path, node);
    }
    for (const group of groups) {
      const parent = group.parent_id ? nodes.get(group.parent_id) : undefined;
      if (parent && group.path !== path) parent.groups.push(nodes.get(group.id)!);
    }
    for (const device of devices) {
      const node = nodes.get(device.group_id)!;
      node.deviceIds.push(device.id);
      node.devices.push({
        id: device.id,
        name: device.name,
        sn: device.sn,
        thingName: device.thing_name,
        isConnected: device.is_connected === 1,
        lastConnection: device.last_connection,
        lastDisconnection: device.last_disconnection,
      });
    }
    for (const user of users) {
      const node = byPath.get(user.path);
      node?.users.push(user.email);
      node?.fullUsers.push({ firstName: user.first_name, lastName: user.last_name, email: user.email });
    }
    return byPath.get(path) ?? null;
  }
}
