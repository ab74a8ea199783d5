import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Account, AccountAnswer, GroupKind, GroupNode, TreeDevice } from '@fieldlink/api/account';
import {
  ACCOUNT_COLUMNS_FORMAT,
  emptyTreeDeviceColumns,
  type AccountColumnsAnswer,
  type GroupNodeColumns,
} from '@fieldlink/api/account-columns';
import { treeChannel } from '@fieldlink/domain/account-view';
import { accountTrees, type AccountTreeStore } from '@fieldlink/services/account-service';
import { can, type ExtraFlag, type Permission } from '@fieldlink/domain/permissions';
import type { Database } from '../../db/schema';
import {
  COMPRESSION_THRESHOLD_BYTES,
  compressJson,
  ifNoneMatchNames,
  type ContentCoding,
} from '../../plugins/compression';
import { groupRuns } from '../device-table/repository';
import { sceneNamesOfGroups } from '../scenes/repository';
import { permissionSubject } from '../session/access';
import type { UserContext } from '../session/user-context';
import {
  accountTreeVersions,
  connectionsInGroups,
  devicesInGroups,
  findAccount,
  firstAttachmentPointsOf,
  groupsUnder,
  invitationsAt,
  usersAttachedAt,
} from './repository';
import { rememberRecent } from '../../recent-map';

/**
 * Devices read per statement when a tree is built, group by group (as the device table reads them):
 * between statements other requests and ingest run. At 100,000 devices one statement held the event
 * loop for the whole read, and a reconnect storm after a restart starts with that build.
 */
const DEVICES_PER_STATEMENT = 5000;

type TreeChannel = NonNullable<TreeDevice['channels']>[number];
type TreeTag = NonNullable<TreeDevice['tags']>[number];

/** The two forms of the tree: `plain` (`GET /account`) and `columns` (`GET /account?format=columns`). */
export type AccountTreeForm = 'plain' | 'columns';

type TreeVersions = Awaited<ReturnType<typeof accountTreeVersions>>;

/** A tree built (or patched) and written as JSON, with what patching its connection fields needs. */
interface BuiltTree {
  json: string;
  /** The JSON's length in bytes. */
  bytes: number;
  /** A hash of the JSON: the same text, the same hash, whoever built it (`treeEtag`). */
  hash: string;
  /** The JSON compressed, per coding, made at the first call that asks. */
  compressed: Map<ContentCoding, Promise<Buffer>>;
  /** The compact form's answer (patched into a copy when only connection fields changed); null for the plain form. */
  columns: AccountColumnsAnswer | null;
  /** Each device's place in the compact form's columns. */
  indexById: ReadonlyMap<string, number>;
  /** The groups the compact tree shows (where its connection fields are read from); empty for the plain form. */
  groupIds: readonly string[];
}

interface CachedTree {
  /** The counters as read before the tree's first read: the tree is at least as new as they say. */
  versions: TreeVersions;
  tree: Promise<BuiltTree>;
}

/**
 * The account tree in the caller's scope (`GET /account`).
 *
 * Built trees are kept per scope and form (callers with the same attachment points and the same
 * right to see invitations see the same tree) and checked on every call against the counters that
 * triggers bump on every write to what the tree shows (migration 2026-12-09T0200-account-tree-version):
 * unchanged counters, the kept JSON; only the connection counter changed, the compact form's
 * connection columns patched from a narrow read; anything else, built again. So the answer is always
 * what a fresh build gives, whichever path or instance wrote (docs/decisions.md, "Cold open at
 * 100,000 devices").
 */
export class AccountService {
  private readonly cache = new Map<string, CachedTree>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly maxEntries = 8,
    private readonly devicesPerStatement = DEVICES_PER_STATEMENT,
  ) {}

  /**
   * The caller's tree in the form asked for (kept, patched or built) and its strong ETag for
   * `coding`: `notModified` when `ifNoneMatch` names that tag, so the caller, who holds this very
   * answer, is told so without the body; else the JSON, compressed with `coding` when one is given
   * and the JSON is large enough to gain by it (kept with the tree, so the compression too is done
   * once). The tag names the caller's own answer only: it is compared with the tree of the caller's
   * scope, never with another's, and it is a hash of the answer's bytes (docs/decisions.md, "The
   * account tree's ETag").
   */
  async answer(
    user: UserContext,
    form: AccountTreeForm,
    coding: ContentCoding | null,
    ifNoneMatch: string | undefined,
  ): Promise<
    | { notModified: true; etag: string }
    | { notModified: false; etag: string; body: string | Buffer; coding: ContentCoding | null }
  > {
    const built = await this.cached(user, form);
    const used = coding && built.bytes >= COMPRESSION_THRESHOLD_BYTES ? coding : null;
    const etag = treeEtag(built.hash, used);
    if (ifNoneMatchNames(ifNoneMatch, etag)) return { notModified: true, etag };
    return { notModified: false, etag, ...(await this.body(built, used)) };
  }

  private async body(
    built: BuiltTree,
    coding: ContentCoding | null,
  ): Promise<{ body: string | Buffer; coding: ContentCoding | null }> {
    if (!coding) return { body: built.json, coding: null };
    let compressed = built.compressed.get(coding);
    if (!compressed) {
      compressed = compressJson(Buffer.from(built.json), coding);
      built.compressed.set(coding, compressed);
      compressed.catch(() => built.compressed.delete(coding));
    }
    return { body: await compressed, coding };
  }

  private async cached(user: UserContext, form: AccountTreeForm): Promise<BuiltTree> {
    const key = JSON.stringify([
      form,
      can(permissionSubject(user), 'inviteUsers'),
      user.attachmentPoints.map((point) => [point.accountId, point.path]),
    ]);
    const versions = await accountTreeVersions(this.db);
    const entry = this.cache.get(key);
    if (entry && entry.versions.tree === versions.tree && entry.versions.connection === versions.connection) {
      rememberRecent(this.cache, key, entry, this.maxEntries);
      return entry.tree;
    }
    const tree =
      entry && entry.versions.tree === versions.tree && form === 'columns'
        ? entry.tree.then((built) => this.patchConnections(built)).catch(() => this.build(user, form))
        : this.build(user, form);
    const fresh: CachedTree = { versions, tree };
    rememberRecent(this.cache, key, fresh, this.maxEntries);
    // A failed build is not kept: the next call tries again.
    tree.catch(() => {
      if (this.cache.get(key) === fresh) this.cache.delete(key);
    });
    return tree;
  }

  private async build(user: UserContext, form: AccountTreeForm): Promise<BuiltTree> {
    if (form === 'plain') {
      return { ...written(await this.accounts(user)), columns: null, indexById: new Map(), groupIds: [] };
    }
    const columns = await this.accountColumns(user);
    const indexById = new Map(columns.devices.id.map((id, index) => [id, index]));
    const groupIds: string[] = [];
    const collect = (group: GroupNodeColumns) => {
      groupIds.push(group.id);
      group.groups.forEach(collect);
    };
    for (const account of columns.accounts) collect(account.rootGroup);
    return { ...written(columns), columns, indexById, groupIds };
  }

  /**
   * The compact tree with its connection columns read again (the rest unchanged since it was built):
   * a copy, so a caller still writing the older answer is not disturbed. A device read that the tree
   * does not hold (one added since) means the tree changed too: built again.
   */
  private async patchConnections(built: BuiltTree): Promise<BuiltTree> {
    const before = built.columns!;
    const devices = {
      ...before.devices,
      isConnected: [...before.devices.isConnected],
      lastConnection: [...before.devices.lastConnection],
      lastDisconnection: [...before.devices.lastDisconnection],
    };
    for (const row of await connectionsInGroups(this.db, built.groupIds)) {
      const index = built.indexById.get(row.id);
      if (index === undefined) throw new Error('The tree changed: build it again.');
      devices.isConnected[index] = row.is_connected === 1 ? 1 : 0;
      devices.lastConnection[index] = row.last_connection;
      devices.lastDisconnection[index] = row.last_disconnection;
    }
    const columns = { ...before, devices };
    return { ...built, ...written(columns), columns };
  }

  /** The plain tree (`GET /account`): each group lists its devices as objects. */
  async accounts(user: UserContext): Promise<AccountAnswer> {
    const lists = new DeviceLists();
    const accounts = await this.trees(
      user,
      (root, devices) => {
        for (const device of devices) {
          lists.groups.get(device.group_id)!.devices.push({
            id: device.id,
            name: device.name,
            sn: device.sn,
            thingName: device.thing_name,
            isConnected: device.is_connected === 1,
            lastConnection: device.last_connection,
            lastDisconnection: device.last_disconnection,
            channels: lists.channels(device.channels),
            tags: lists.tags(device.tags),
          });
        }
        return root;
      },
      lists,
    );
    return { accounts };
  }

  /**
   * The compact tree (`GET /account?format=columns`, `@fieldlink/api/account-columns`), built straight
   * from the rows: at 100,000 devices, building a device object each and then taking them apart
   * again cost a fifth of the call. `decodeAccountColumns` of it equals `accounts` (account-wire.test.ts).
   */
  async accountColumns(user: UserContext): Promise<AccountColumnsAnswer> {
    const lists = new DeviceLists();
    const columns = emptyTreeDeviceColumns();
    const accounts = await this.trees(
      user,
      (root, devices) => {
        const byGroup = new Map<string, DeviceRow[]>();
        for (const device of devices) {
          const own = byGroup.get(device.group_id);
          if (own) own.push(device);
          else byGroup.set(device.group_id, [device]);
        }
        // A pre-order walk: a group's own devices (by name, as read), then its subgroups'.
        const encode = ({ groups, devices: _devices, deviceIds: _ids, ...group }: GroupNode): GroupNodeColumns => {
          const own = byGroup.get(group.id) ?? [];
          for (const device of own) {
            columns.id.push(device.id);
            columns.name.push(device.name);
            columns.sn.push(device.sn);
            columns.thingName.push(device.thing_name);
            columns.isConnected.push(device.is_connected === 1 ? 1 : 0);
            columns.lastConnection.push(device.last_connection);
            columns.lastDisconnection.push(device.last_disconnection);
            columns.channels.push(lists.channelIndex(device.channels));
            columns.tags.push(lists.tagIndex(device.tags));
          }
          return { ...group, deviceCount: own.length, groups: groups.map(encode) };
        };
        return encode(root);
      },
      lists,
    );
    columns.channelLists = lists.channelLists;
    columns.tagLists = lists.tagLists;
    return { format: ACCOUNT_COLUMNS_FORMAT, accounts, devices: columns };
  }

  /** Each of the user's trees (`@fieldlink/services/account-service`), its devices placed by `place`. */
  private trees<Root>(
    user: UserContext,
    place: (root: GroupNode, devices: readonly DeviceRow[]) => Root,
    lists: DeviceLists,
  ): Promise<(Omit<Account, 'rootGroup'> & { rootGroup: Root })[]> {
    const { db } = this;
    const store: AccountTreeStore<DeviceRow> = {
      account: async (accountId) => {
        const account = await findAccount(db, accountId);
        return (
          account && {
            id: account.id,
            name: account.name,
            appType: account.app_type,
            kind: account.kind,
            userVariant: account.user_variant,
            theme: account.theme,
          }
        );
      },
      groupsUnder: async (path) =>
        (await groupsUnder(db, path)).map((group) => ({
          id: group.id,
          name: group.name,
          accountId: group.account_id,
          appType: group.app_type,
          accountKind: group.account_kind,
          kind: group.kind as GroupKind,
          simulation: group.simulation === 1,
          path: group.path,
          parentId: group.parent_id,
        })),
      devicesIn: (groupIds) => devicesInRuns(db, groupIds, this.devicesPerStatement),
      placeOf: (device) => ({ id: device.id, groupId: device.group_id }),
      scenesOf: async (groupIds) =>
        (await sceneNamesOfGroups(db, groupIds)).map((scene) => ({
          id: scene.id,
          name: scene.name,
          groupId: scene.group_id,
        })),
      usersAt: async (paths) => {
        const users = await usersAttachedAt(db, paths);
        const firstPoints = await firstAttachmentPointsOf(db, [...new Set(users.map((user) => user.user_id))]);
        return users.map((user) => {
          const first = firstPoints.get(user.user_id);
          const subject = {
            permissions: first ? (JSON.parse(first.permissions) as Permission[]) : [],
            secretPermissions: first ? (JSON.parse(first.secret_permissions) as ExtraFlag[]) : [],
          };
          return { email: user.email, firstName: user.first_name, lastName: user.last_name, path: user.path, subject };
        });
      },
      invitationsAt: async (paths) =>
        (await invitationsAt(db, paths)).map(({ email, expires_at, path }) => ({ email, expiresAt: expires_at, path })),
    };
    const viewer = { subject: permissionSubject(user), attachmentPoints: user.attachmentPoints };
    return accountTrees<DeviceRow, TreeDevice, Root>(store, viewer, (tree) => {
      for (const [id, node] of tree.groups) lists.groups.set(id, node);
      return place(tree.root, tree.devices);
    });
  }
}

/**
 * The devices of these groups, a few thousand at a time: each group's devices in one statement, by
 * name as `devicesInGroups` orders them (the tree places them group by group, so the order across
 * groups does not matter), the event loop free between statements.
 */
async function devicesInRuns(
  db: Kysely<Database>,
  groupIds: readonly string[],
  perStatement: number,
): Promise<DeviceRow[]> {
  const runs = await groupRuns(db, groupIds, perStatement);
  const rows: DeviceRow[] = [];
  for (const [index, part] of runs.entries()) {
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const row of await devicesInGroups(db, part)) rows.push(row);
  }
  return rows;
}

/** An answer as JSON, its size and hash, and no compressed form yet. */
function written(
  answer: AccountAnswer | AccountColumnsAnswer,
): Pick<BuiltTree, 'json' | 'bytes' | 'hash' | 'compressed'> {
  const json = JSON.stringify(answer);
  // 11 MB of JSON at 100,000 devices: about 20 ms, once per build or patch, not per call.
  const hash = createHash('sha256').update(json).digest('base64url').slice(0, 32);
  return { json, bytes: Buffer.byteLength(json), hash, compressed: new Map() };
}

/**
 * The strong ETag of a tree's JSON sent with `coding`: each coding is its own representation (its
 * own bytes), so its own tag, as RFC 9110 asks of a strong validator. A hash of the answer only:
 * nothing of the scope, the user or the instance, so an unchanged tree keeps its tag across a
 * restart, a patch that changed nothing, and every instance of a cluster.
 */
export function treeEtag(hash: string, coding: ContentCoding | null): string {
  return `"${hash}${coding ? `-${coding}` : ''}"`;
}

type DeviceRow = Awaited<ReturnType<typeof devicesInGroups>>[number];

/**
 * Devices of one model store the same channel list (and most the same tags): each distinct text is
 * parsed once and its list shared (the plain form), or sent once and named by index (the compact
 * form). Also each group node by id, for placing its devices.
 */
class DeviceLists {
  readonly groups = new Map<string, GroupNode>();
  readonly channelLists: TreeChannel[][] = [];
  readonly tagLists: TreeTag[][] = [];
  private readonly channelsByText = new Map<string, { list: TreeChannel[]; index: number }>();
  private readonly tagsByText = new Map<string, { list: TreeTag[]; index: number }>();

  channels(text: string): TreeChannel[] {
    return this.channelEntry(text).list;
  }

  channelIndex(text: string): number {
    return this.channelEntry(text).index;
  }

  tags(text: string): TreeTag[] {
    return this.tagEntry(text).list;
  }

  tagIndex(text: string): number {
    return this.tagEntry(text).index;
  }

  private channelEntry(text: string) {
    let entry = this.channelsByText.get(text);
    if (!entry) {
      const list = (JSON.parse(text) as TreeChannel[]).map(treeChannel);
      entry = { list, index: this.channelLists.push(list) - 1 };
      this.channelsByText.set(text, entry);
    }
    return entry;
  }

  private tagEntry(text: string) {
    let entry = this.tagsByText.get(text);
    if (!entry) {
      const list = (JSON.parse(text) as TreeTag[]).map(({ key, value }) => ({ key, value }));
      entry = { list, index: this.tagLists.push(list) - 1 };
      this.tagsByText.set(text, entry);
    }
    return entry;
  }
}
