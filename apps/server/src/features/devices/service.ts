import type { Kysely } from 'kysely';
import type {
  Device,
  DeviceConnectionsAnswer,
  DeviceConnectionsQuery,
  DeviceImportAnswer,
  DeviceImportBody,
  LatestValuesAnswer,
  ProvisionDeviceAnswer,
  ProvisionDeviceBody,
} from '@fieldlink/api/device';
import { MAX_DEVICE_LOG_POINTS, type DeviceQuery } from '@fieldlink/api/device';
import { MAX_LOG_CHANNELS, MAX_LOG_WINDOW_MS, logBinGrid, type DeviceLogsQuery } from '@fieldlink/api/device-logs';
import { normaliseChannelCode } from '@fieldlink/domain/channels';
import { readDeviceImport } from '@fieldlink/domain/device-import';
import type { LatestValue } from '@fieldlink/api/realtime';
import type { DeviceLogsColumns } from '@fieldlink/api/device-logs-json';
import type { Database } from '../../db/schema';
import { DATABASE_CREDENTIALS, type DeviceCredentialStore } from '../../broker/device-broker';
import { HttpError, notFound } from '../../http-errors';
import { hashSecret, newDeviceSecret, newId } from '../../security/secrets';
import { groupsUnder } from '../accounts/repository';
import { audit, byUser } from '../audit/service';
import { inScope, requireCapability, requireDeviceAction } from '../session/access';
import type { UserContext } from '../session/user-context';
import { channelLog, channelLogColumns, type LogWindow } from './log-repository';
import { toDevice, toQueuedMessage } from './mapper';
import { distanceKm, isGeoPoint } from '@fieldlink/domain/geo';
import { alarmConfigsOf } from '../alarms/repository';
import { toAlarmConfig } from '../alarms/mapper';
import { pendingMessagesOf } from './message-repository';
import {
  accountRootGroup,
  connectionsOf,
  devicesWithSerials,
  findDeviceById,
  findDeviceByThingName,
  findDevicesByIds,
  findDevicesByThingNames,
  groupPathsByThingName,
  findGroup,
  findNewDevicesGroup,
  insertDevice,
  insertDevices,
  latestValuesOf,
  mutedDevicesOf,
  thingNameTaken,
  type DeviceWithPath,
} from './repository';
import { DEVICE_NOT_FOUND, GROUP_NOT_FOUND } from '@fieldlink/api/errors';

const TRASH_REFUSAL = 'Devices cannot be added to the Trash group.';
/** The 409 of `POST /device` with a thing name some device has already. */
export const THING_NAME_TAKEN = 'A device with this thing name exists already.';
/** Rows named in the 400 of an import with errors; the preview shows them all. */
const REFUSAL_ROWS = 10;

/** Where an import's group paths lead: a group by its names from the account's root down. */
interface ImportPlace {
  groupId: string;
  accountId: string;
  /** The names from the root down, joined with " / ", as the preview shows them. */
  namePath: string;
}

/**
 * The groups an import may name, by their names from the root down (case-insensitive; a path may
 * start with the root's own name). An empty path is the account's New Devices group. A group outside
 * the caller's scope reads as missing; the Trash is refused by name.
 */
function importPlaces(
  groups: readonly {
    id: string;
    parent_id: string | null;
    name: string;
    kind: string;
    path: string;
    account_id: string;
  }[],
  root: { id: string; name: string; account_id: string },
  visible: (path: string) => boolean,
) {
  const byId = new Map(groups.map((group) => [group.id, group]));
  const namesOf = (id: string): string[] => {
    const names: string[] = [];
    for (
      let group = byId.get(id);
      group && group.id !== root.id;
      group = group.parent_id ? byId.get(group.parent_id) : undefined
    ) {
      names.unshift(group.name);
    }
    return names;
  };
  const key = (names: readonly string[]) => names.map((name) => name.toLowerCase()).join('\u0000');
  const byNames = new Map<string, (typeof groups)[number]>();
  for (const group of groups) byNames.set(key(namesOf(group.id)), group);
  const inbox = groups.find((group) => group.kind === 'new' && group.parent_id === root.id);
  const placeOf = (group: (typeof groups)[number]): ImportPlace => ({
    groupId: group.id,
    accountId: group.account_id,
    namePath: [root.name, ...namesOf(group.id)].join(' / '),
  });
  return {
    find(names: readonly string[]): ImportPlace | string {
      if (names.length === 0) return inbox && visible(inbox.path) ? placeOf(inbox) : 'No New Devices group to add to.';
      const group =
        byNames.get(key(names)) ??
        (names[0]!.toLowerCase() === root.name.toLowerCase() ? byNames.get(key(names.slice(1))) : undefined);
      const shown = names.join(' / ');
      if (!group || !visible(group.path)) return `No group ${shown} in ${root.name}.`;
      if (group.kind === 'trash') return TRASH_REFUSAL;
      return placeOf(group);
    },
  };
}

/** The 400 of an import with errors: how many rows, and the first ones with their errors. */
function importRefusal(faulty: readonly { line: number; errors: string[] }[]): string {
  const shown = faulty.slice(0, REFUSAL_ROWS).map((row) => `line ${row.line}: ${row.errors.join(' ')}`);
  const more = faulty.length > REFUSAL_ROWS ? ` (and ${faulty.length - REFUSAL_ROWS} more rows)` : '';
  return `Nothing was imported: ${faulty.length} ${faulty.length === 1 ? 'row has' : 'rows have'} errors. ${shown.join('; ')}${more}.`;
}

/** The 404 message of a device that does not exist or lies outside the caller's scope. */
const MAX_IDS_PER_CALL = 1000;

/** A new thing name: `FL` and 10 characters of Crockford base32 (no look-alike letters). */
export function newThingName(): string {
  const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return `FL${[...bytes].map((byte) => alphabet[byte % 32]).join('')}`;
}

function toLatestValue(row: { value: number; t: number; extra: string | null }): LatestValue {
  return { value: row.value, t: row.t, ...(row.extra ? (JSON.parse(row.extra) as object) : {}) };
}

/** A channel's samples over a window: every one, or past the limit the last value of each bin. */
async function recentLogs(db: Kysely<Database>, window: LogWindow): Promise<LatestValue[]> {
  const log = await channelLog(
    db,
    window,
    MAX_DEVICE_LOG_POINTS,
    logBinGrid(window.start, window.end, MAX_DEVICE_LOG_POINTS),
  );
  const values = log.kind === 'raw' ? log.value : log.last;
  return log.t.map((t, index) => ({ t, value: values[index]! }));
}

/** Device calls of core §7, each checking the caller's scope; a device out of scope is "not found". */
export class DeviceService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly onProvisioned: (thingName: string) => void = () => undefined,
    /** Device accounts at an external broker (cluster mode); the embedded broker reads the database. */
    private readonly credentials: DeviceCredentialStore = DATABASE_CREDENTIALS,
    /** Where devices connect, as a new device's credentials are shown with it. */
    private readonly brokerUrl = 'mqtt://localhost:1883',
  ) {}

  /** The group path of each of these devices, by thing name (unknown devices are left out). */
  groupPaths(thingNames: readonly string[]): Promise<Map<string, string>> {
    return groupPathsByThingName(this.db, thingNames);
  }

  /** A device the caller may see, or 404 (the same answer whether it exists elsewhere or not at all). */
  async visibleDevice(user: UserContext, find: { id: string } | { thingName: string }): Promise<DeviceWithPath> {
    const row =
      'id' in find ? await findDeviceById(this.db, find.id) : await findDeviceByThingName(this.db, find.thingName);
    if (!row || !inScope(user, row.path)) throw notFound(DEVICE_NOT_FOUND);
    return row;
  }

  /**
   * `visibleDevice` for many thing names at once, in one read of their group paths: all or nothing,
   * one device out of scope (or unknown) is a 404 for the whole list.
   */
  async requireVisibleDevices(user: UserContext, thingNames: readonly string[]): Promise<void> {
    const unique = [...new Set(thingNames)];
    const paths = await groupPathsByThingName(this.db, unique);
    const visible = (thingName: string) => {
      const path = paths.get(thingName);
      return path !== undefined && inScope(user, path);
    };
    if (!unique.every(visible)) throw notFound(DEVICE_NOT_FOUND);
  }

  /** The records of these devices the caller may see (the others are left out), in one read. */
  async visibleDevices(user: UserContext, thingNames: readonly string[]): Promise<DeviceWithPath[]> {
    const rows = await findDevicesByThingNames(this.db, [...new Set(thingNames)]);
    return rows.filter((row) => inScope(user, row.path));
  }

  /**
   * A device the caller may read (the domain's `read` rule, as the real-time channel's `watch`: 403
   * without it, whatever the id) and see (else 404).
   */
  async readableDevice(user: UserContext, find: { id: string } | { thingName: string }): Promise<DeviceWithPath> {
    requireDeviceAction(user, 'read');
    return this.visibleDevice(user, find);
  }

  /**
   * `GET /device`: the device with each channel's alarm (`alarmData`) and latest sample (`latestLog`), its samples of the
   * last `logMinutes` when asked (`logs`, binned past {@link MAX_DEVICE_LOG_POINTS}), and the
   * messages still queued for it (`settings`).
   */
  async getDevice(user: UserContext, query: DeviceQuery): Promise<Device> {
    const row = await this.readableDevice(user, { id: query.id });
    const [muted, latestRows, pending, alarmRows] = await Promise.all([
      mutedDevicesOf(this.db, user.id),
      latestValuesOf(this.db, [row.id]),
      pendingMessagesOf(this.db, row.id),
      alarmConfigsOf(this.db, row.id),
    ]);
    const device = toDevice(row, muted);
    const latest = new Map(latestRows.map((value) => [value.code, toLatestValue(value)]));
    const alarms = new Map(alarmRows.map((alarm) => [alarm.code, toAlarmConfig(alarm)]));
    const end = Date.now() + 1;
    const start = end - (query.logMinutes ?? 0) * 60_000;
    device.channels = await Promise.all(
      device.channels.map(async (channel) => ({
        ...channel,
        alarmData: alarms.get(channel.code) ?? null,
        latestLog: latest.get(channel.code) ?? null,
        ...(query.logMinutes === undefined
          ? {}
          : { logs: await recentLogs(this.db, { deviceId: row.id, code: channel.code, start, end }) }),
      })),
    );
    device.settings = { unsentMessages: pending.map(toQueuedMessage) };
    if (query.latitude !== undefined && query.longitude !== undefined) {
      const point = { lat: query.latitude, lng: query.longitude };
      device.distance = isGeoPoint(device.location) ? distanceKm(point, device.location) : null;
    }
    return device;
  }

  /** The connection log of a device in scope, newest first. */
  async connections(user: UserContext, query: DeviceConnectionsQuery): Promise<DeviceConnectionsAnswer> {
    const device = await this.readableDevice(user, { id: query.deviceId });
    const rows = await connectionsOf(this.db, device.id, query.before, query.limit ?? 100);
    return { connections: rows.map((row) => ({ t: row.t, connected: row.connected === 1 })) };
  }

  /**
   * Logs of some channels over a window, at most `binCount` points each: every sample when the window
   * holds no more than that, else bins with min, max, mean and last value (docs/decisions.md). Bins
   * come in the typed arrays they were folded into, for the route's own JSON writer (`deviceLogsJson`),
   * which writes them as the answer's arrays of the same numbers.
   */
  async logs(user: UserContext, query: DeviceLogsQuery): Promise<DeviceLogsColumns> {
    // The right first (as the real-time channel checks it): a refused caller learns nothing of its query.
    requireDeviceAction(user, 'read');
    const { start, end, binCount } = query;
    if (end <= start) throw new HttpError(400, 'end must be after start.');
    if (end - start > MAX_LOG_WINDOW_MS) throw new HttpError(400, 'The window may span at most ten years.');
    const codes = [...new Set(query.channels.split(',').map((code) => code.trim()))].filter(Boolean);
    if (codes.length === 0 || codes.length > MAX_LOG_CHANNELS) {
      throw new HttpError(400, `Ask for 1 to ${MAX_LOG_CHANNELS} channels.`);
    }
    const invalid = codes.find((code) => normaliseChannelCode(code) === null);
    if (invalid !== undefined) throw new HttpError(400, `Not a channel code: ${invalid}`);
    const device = await this.visibleDevice(user, { id: query.deviceId });
    const grid = logBinGrid(start, end, binCount);
    const channels = await channelLogColumns(this.db, device.id, codes, { start, end }, binCount, grid);
    return { deviceId: device.id, start, end, binCount, binWidth: grid.width, channels };
  }

  /** Latest values of the devices in scope among `ids`; others are left out as if unknown. */
  async latestValues(user: UserContext, idList: string): Promise<LatestValuesAnswer> {
    requireDeviceAction(user, 'read');
    const ids = [
      ...new Set(
        idList
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ];
    if (ids.length > MAX_IDS_PER_CALL) throw new HttpError(400, `At most ${MAX_IDS_PER_CALL} device ids per call.`);
    const visible = (await findDevicesByIds(this.db, ids))
      .filter((row) => inScope(user, row.path))
      .map((row) => row.id);
    const answer: LatestValuesAnswer = Object.fromEntries(visible.map((id) => [id, {}]));
    for (const row of await latestValuesOf(this.db, visible)) {
      answer[row.device_id]![row.code] = toLatestValue(row);
    }
    return answer;
  }

  /** Provisions a device; its password is in the answer this once and stored only as a hash. */
  async provision(user: UserContext, body: ProvisionDeviceBody): Promise<ProvisionDeviceAnswer> {
    requireCapability(user, 'addDevices');
    const group = body.groupId
      ? await findGroup(this.db, body.groupId)
      : await findNewDevicesGroup(this.db, body.accountId ?? user.attachmentPoints[0]?.accountId ?? '');
    if (!group || !inScope(user, group.path)) throw notFound(body.groupId ? GROUP_NOT_FOUND : 'Account not found.');
    if (group.kind === 'trash') throw new HttpError(400, TRASH_REFUSAL);
    // A device that carries its own thing name (printed on its label) keeps it; otherwise one is made.
    const thingName = body.thingName ?? newThingName();
    if (body.thingName && (await thingNameTaken(this.db, body.thingName))) throw new HttpError(409, THING_NAME_TAKEN);
    const id = newId();
    const password = newDeviceSecret();
    // The broker first: a failure then leaves no device that cannot connect.
    await this.credentials.provision(thingName, password);
    await this.db.transaction().execute(async (trx) => {
      const device = { id, account_id: group.account_id, group_id: group.id, thing_name: thingName };
      const named = { name: body.name.trim(), sn: body.sn?.trim() || null };
      await insertDevice(trx, { ...device, secret_hash: hashSecret(password), ...named });
      await audit.record(trx, {
        accountId: group.account_id,
        by: byUser(user),
        action: 'device.add',
        target: { kind: 'device', id, name: named.name },
        deviceId: id,
        after: { ...named, thingName, groupId: group.id },
      });
    });
    this.onProvisioned(thingName);
    const row = await findDeviceById(this.db, id);
    return { device: toDevice(row!), credentials: { thingName, password }, brokerUrl: this.brokerUrl };
  }

  /**
   * `POST /devices/import`: devices from a CSV file into the groups its rows name, below the account's
   * root. Every row is checked (the file's own rules, then: the group exists in the caller's scope and
   * is not the Trash, the serial is on no device already there); a preview (`dryRun`) answers the rows
   * with their errors, an import writes every row in one transaction or, when any row has an error,
   * nothing (400 naming the rows).
   */
  async importDevices(user: UserContext, body: DeviceImportBody): Promise<DeviceImportAnswer> {
    requireCapability(user, 'addDevices');
    const root = await accountRootGroup(this.db, body.accountId);
    const worksThere =
      root && (inScope(user, root.path) || user.attachmentPoints.some((point) => point.accountId === root.account_id));
    if (!root || !worksThere) throw notFound('Account not found.');
    const file = readDeviceImport(body.csv);
    if (file.fileError !== null) {
      if (!body.dryRun) throw new HttpError(400, `Nothing was imported: ${file.fileError}`);
      return { fileError: file.fileError, rows: [], imported: false, devices: [], brokerUrl: this.brokerUrl };
    }
    const places = importPlaces(await groupsUnder(this.db, root.path), root, (path) => inScope(user, path));
    const serials = file.rows.flatMap((row) => (row.sn ? [row.sn] : []));
    const taken = new Map(
      (await devicesWithSerials(this.db, root.path, serials)).map((device) => [device.sn!.toLowerCase(), device.name]),
    );
    const rows = file.rows.map((row) => {
      const errors = [...row.errors];
      const place = places.find(row.groupPath);
      if (typeof place === 'string') errors.push(place);
      const holder = row.sn ? taken.get(row.sn.toLowerCase()) : undefined;
      if (holder !== undefined) errors.push(`Serial ${row.sn} is already on device ${holder}.`);
      return { row, place: typeof place === 'string' ? null : place, errors };
    });
    const answerRows = rows.map(({ row, place, errors }) => ({
      line: row.line,
      name: row.name,
      sn: row.sn,
      groupPath: place?.namePath ?? row.groupPath.join(' / '),
      tags: row.tags,
      errors,
    }));
    const faulty = answerRows.filter((row) => row.errors.length > 0);
    if (body.dryRun)
      return { fileError: null, rows: answerRows, imported: false, devices: [], brokerUrl: this.brokerUrl };
    if (faulty.length > 0) throw new HttpError(400, importRefusal(faulty));

    const made = rows.map(({ row, place }) => ({
      row,
      place: place!,
      id: newId(),
      thingName: newThingName(),
      password: newDeviceSecret(),
    }));
    // The broker first, as for one device; if it or the transaction fails, the accounts made go again.
    const provisioned: string[] = [];
    try {
      for (const device of made) {
        await this.credentials.provision(device.thingName, device.password);
        provisioned.push(device.thingName);
      }
      const now = Date.now();
      await this.db.transaction().execute(async (trx) => {
        await insertDevices(
          trx,
          made.map((device) => ({
            id: device.id,
            account_id: device.place.accountId,
            group_id: device.place.groupId,
            thing_name: device.thingName,
            secret_hash: hashSecret(device.password),
            name: device.row.name,
            sn: device.row.sn,
            tags: JSON.stringify(device.row.tags.map((tag) => ({ id: newId(), ...tag }))),
            created_at: now,
          })),
        );
        // One import, one entry, naming every device it added.
        await audit.record(trx, {
          accountId: root.account_id,
          by: byUser(user),
          action: 'device.import',
          target: { kind: 'account', id: root.account_id },
          after: {
            devices: made.map((device) => ({
              id: device.id,
              name: device.row.name,
              sn: device.row.sn,
              thingName: device.thingName,
              groupId: device.place.groupId,
            })),
          },
          at: now,
        });
      });
    } catch (error) {
      await Promise.allSettled(provisioned.map((thingName) => this.credentials.remove(thingName)));
      throw error;
    }
    for (const device of made) this.onProvisioned(device.thingName);
    return {
      fileError: null,
      rows: answerRows,
      imported: true,
      brokerUrl: this.brokerUrl,
      devices: made.map((device) => ({
        line: device.row.line,
        deviceId: device.id,
        name: device.row.name,
        sn: device.row.sn,
        groupPath: device.place.namePath,
        thingName: device.thingName,
        password: device.password,
      })),
    };
  }
}
