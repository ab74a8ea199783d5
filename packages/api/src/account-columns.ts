import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ACCOUNT_COLUMNS_QUERY, ACCOUNT_PATH } from './first-calls';
import { Account, AccountAnswer, GROUP_NODE_FIELDS, type GroupNode, type TreeDevice } from './account';
import { ErrorAnswer } from './errors';
import { apiRoute } from './routes';

/**
 * `GET /account?format=columns`: the account tree of `GET /account` in a compact wire form. The
 * groups keep the specification's names (core §3); the devices of every group travel once, as
 * columns, in the order of a pre-order walk of the tree (a group's own devices, then its subgroups'),
 * and each group says how many of them are its own. A device's channel list and tag list are sent
 * once per distinct list and named by index, since devices of one model share one list. At 100,000
 * devices this is about a quarter of the JSON of the plain form and parses four times as fast; the
 * console decodes it back into the plain form (`decodeAccountColumns`), so every screen reads the same
 * `Account` objects. docs/decisions.md ("GET /account at 100,000 devices") gives the figures.
 */

/** Version of the compact form; bumped when a field changes meaning. */
export const ACCOUNT_COLUMNS_FORMAT = 1;

export { ACCOUNT_COLUMNS_QUERY } from './first-calls';

export const AccountQuery = Type.Object(
  {
    format: Type.Optional(
      Type.Literal(ACCOUNT_COLUMNS_QUERY, {
        description: 'columns: the compact form (AccountColumnsAnswer); absent: the plain tree (AccountAnswer).',
      }),
    ),
  },
  { additionalProperties: false },
);
export type AccountQuery = Static<typeof AccountQuery>;

const TreeChannel = Type.Object({
  code: Type.String(),
  name: Type.Optional(Type.String()),
  units: Type.Optional(Type.String()),
});
const Tag = Type.Object({ key: Type.String(), value: Type.String() });
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The tree's devices as columns, one entry per device in tree order. */
export const TreeDeviceColumns = Type.Object(
  {
    id: Type.Array(Type.String()),
    name: Type.Array(Type.String()),
    sn: Type.Array(Nullable(Type.String())),
    thingName: Type.Array(Type.String()),
    /** 1 connected, 0 not. */
    isConnected: Type.Array(Type.Integer({ minimum: 0, maximum: 1 })),
    lastConnection: Type.Array(Nullable(Type.Number())),
    lastDisconnection: Type.Array(Nullable(Type.Number())),
    /** Index into `channelLists`; -1: the device's channels are not given. */
    channels: Type.Array(Type.Integer({ minimum: -1 })),
    /** Index into `tagLists`; -1: the device's tags are not given. */
    tags: Type.Array(Type.Integer({ minimum: -1 })),
    channelLists: Type.Array(Type.Array(TreeChannel)),
    tagLists: Type.Array(Type.Array(Tag)),
  },
  { additionalProperties: false },
);
export type TreeDeviceColumns = Static<typeof TreeDeviceColumns>;

/** A group of the compact form: a `GroupNode` whose devices are in the answer's columns. */
export interface GroupNodeColumns extends Omit<GroupNode, 'groups' | 'devices' | 'deviceIds'> {
  groups: GroupNodeColumns[];
  /** How many devices of the columns, at this group's place in the walk, are this group's own. */
  deviceCount: number;
}

export const GroupNodeColumns = Type.Recursive((Self: TSchema) =>
  Type.Object({
    ...GROUP_NODE_FIELDS,
    groups: Type.Array(Self),
    deviceCount: Type.Integer({ minimum: 0 }),
  }),
);

export const AccountColumnsAnswer = Type.Object({
  format: Type.Literal(ACCOUNT_COLUMNS_FORMAT),
  accounts: Type.Array(
    Type.Composite([Type.Omit(Account, ['rootGroup']), Type.Object({ rootGroup: GroupNodeColumns })]),
  ),
  devices: TreeDeviceColumns,
});
export interface AccountColumnsAnswer {
  format: typeof ACCOUNT_COLUMNS_FORMAT;
  accounts: (Omit<Account, 'rootGroup'> & { rootGroup: GroupNodeColumns })[];
  devices: TreeDeviceColumns;
}

/** Gives each distinct list one index: by identity first (shared lists), else by content. */
class ListDictionary<T> {
  readonly lists: T[][] = [];
  private readonly byIdentity = new Map<readonly T[], number>();
  private readonly byContent = new Map<string, number>();

  indexOf(list: T[] | undefined): number {
    if (list === undefined) return -1;
    let index = this.byIdentity.get(list);
    if (index === undefined) {
      const content = JSON.stringify(list);
      index = this.byContent.get(content);
      if (index === undefined) {
        index = this.lists.length;
        this.lists.push(list);
        this.byContent.set(content, index);
      }
      this.byIdentity.set(list, index);
    }
    return index;
  }
}

/** Device columns with no device yet, to be filled in tree order. */
export function emptyTreeDeviceColumns(): TreeDeviceColumns {
  return {
    id: [],
    name: [],
    sn: [],
    thingName: [],
    isConnected: [],
    lastConnection: [],
    lastDisconnection: [],
    channels: [],
    tags: [],
    channelLists: [],
    tagLists: [],
  };
}

/** The compact form of an account tree (the server's answer to `?format=columns`). */
export function encodeAccountColumns(answer: AccountAnswer): AccountColumnsAnswer {
  const devices = emptyTreeDeviceColumns();
  const channelLists = new ListDictionary<NonNullable<TreeDevice['channels']>[number]>();
  const tagLists = new ListDictionary<NonNullable<TreeDevice['tags']>[number]>();
  const encodeGroup = ({ groups, devices: own, deviceIds: _ids, ...group }: GroupNode): GroupNodeColumns => {
    for (const device of own) {
      devices.id.push(device.id);
      devices.name.push(device.name);
      devices.sn.push(device.sn);
      devices.thingName.push(device.thingName);
      devices.isConnected.push(device.isConnected ? 1 : 0);
      devices.lastConnection.push(device.lastConnection);
      devices.lastDisconnection.push(device.lastDisconnection);
      devices.channels.push(channelLists.indexOf(device.channels));
      devices.tags.push(tagLists.indexOf(device.tags));
    }
    // Own devices are taken before the subgroups are walked: the decoder reads them in that order.
    return { ...group, deviceCount: own.length, groups: groups.map(encodeGroup) };
  };
  const accounts = answer.accounts.map(({ rootGroup, ...account }) => ({
    ...account,
    rootGroup: encodeGroup(rootGroup),
  }));
  devices.channelLists = channelLists.lists;
  devices.tagLists = tagLists.lists;
  return { format: ACCOUNT_COLUMNS_FORMAT, accounts, devices };
}

/**
 * The plain account tree from its compact form, equal to what `GET /account` answers: `deviceIds`
 * lists the group's devices' ids, as the server fills it. Devices with the same channel or tag list
 * share that list's array (read-only data, as every query answer is).
 */
export function decodeAccountColumns(answer: AccountColumnsAnswer): AccountAnswer {
  const columns = answer.devices;
  let next = 0;
  const decodeGroup = ({ groups, deviceCount, ...group }: GroupNodeColumns): GroupNode => {
    const devices: TreeDevice[] = new Array<TreeDevice>(deviceCount);
    const deviceIds: string[] = new Array<string>(deviceCount);
    for (let index = 0; index < deviceCount; index += 1, next += 1) {
      const channels = columns.channels[next]!;
      const tags = columns.tags[next]!;
      const device: TreeDevice = {
        id: columns.id[next]!,
        name: columns.name[next]!,
        sn: columns.sn[next] ?? null,
        thingName: columns.thingName[next]!,
        isConnected: columns.isConnected[next] === 1,
        lastConnection: columns.lastConnection[next] ?? null,
        lastDisconnection: columns.lastDisconnection[next] ?? null,
      };
      if (channels >= 0) device.channels = columns.channelLists[channels];
      if (tags >= 0) device.tags = columns.tagLists[tags];
      devices[index] = device;
      deviceIds[index] = device.id;
    }
    return { ...group, devices, deviceIds, groups: groups.map(decodeGroup) };
  };
  return {
    accounts: answer.accounts.map(({ rootGroup, ...account }) => ({ ...account, rootGroup: decodeGroup(rootGroup) })),
  };
}

/** The account tree call, as the server registers it and the browser demo answers it. */
export const ACCOUNT_ROUTES = {
  account: apiRoute('GET', ACCOUNT_PATH, {
    tags: ['accounts'],
    summary: 'The account tree in the caller’s scope',
    description:
      'With `format=columns` the same tree in a compact form: the devices as columns (AccountColumnsAnswer). ' +
      'Compressed (brotli or gzip) when the client accepts it. Validated with a strong ETag (a hash of the ' +
      'answer, one per content coding): a client holding the tree asks with `If-None-Match` and gets a 304 ' +
      'while it is current.',
    querystring: AccountQuery,
    response: {
      200: Type.Union([AccountAnswer, AccountColumnsAnswer]),
      304: Type.Null({ description: 'Not modified: the ETag in If-None-Match is current.' }),
      401: ErrorAnswer,
    },
  }),
};
