import type { Kysely } from 'kysely';
import type {
  Device,
  DeviceConnectionsAnswer,
  DeviceConnectionsQuery,
  LatestValuesAnswer,
  ProvisionDeviceAnswer,
  ProvisionDeviceBody,
} from '@fieldlink/api/device';
import { MAX_DEVICE_LOG_POINTS, type DeviceQuery } from '@fieldlink/api/device';
import { MAX_LOG_CHANNELS, MAX_LOG_WINDOW_MS, logBinGrid, type DeviceLogsQuery } from '@fieldlink/api/device-logs';
import { normaliseChannelCode } from '@fieldlink/domain/channels';
import type { LatestValue } from '@fieldlink/api/realtime';
import type { DeviceLogsColumns } from '@fieldlink/api/device-logs-json';
import type { Database } from '../../db/schema';
import { DATABASE_CREDENTIALS, type DeviceCredentialStore } from '../../broker/device-broker';
import { HttpError, notFound } from '../../http-errors';
import { hashSecret, newDeviceSecret, newId } from '../../security/secrets';
import { inScope, requireCapability, requireDeviceAction } from '../session/access';
import type { UserContext } from '../session/user-context';
import { channelLog, channelLogColumns, type LogWindow } from './log-repository';
import { toDevice, toQueuedMessage } from './mapper';
import { distanceKm, isGeoPoint } from '@fieldlink/domain/geo';
import { alarmConfigsOf } from '../alarms/repository';
import { toAlarmConfig } from '../alarms/mapper';
import { pendingMessagesOf } from './message-repository';
import {
  connectionsOf,
  findDeviceById,
  findDeviceByThingName,
  findDevicesByIds,
  groupPathsByThingName,
  findGroup,
  findNewDevicesGroup,
  insertDevice,
  latestValuesOf,
  mutedDevicesOf,
  type DeviceWithPath,
} from './repository';

/** The 404 message of a device that does not exist or lies outside the caller's scope. */
export const DEVICE_NOT_FOUND = 'Device not found.';
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
    if (!group || !inScope(user, group.path)) throw notFound(body.groupId ? 'Group not found.' : 'Account not found.');
    if (group.kind === 'trash') throw new HttpError(400, 'Devices cannot be added to the Trash group.');
    const id = newId();
    const thingName = newThingName();
    const password = newDeviceSecret();
    // The broker first: a failure then leaves no device that cannot connect.
    await this.credentials.provision(thingName, password);
    await insertDevice(this.db, {
      id,
      account_id: group.account_id,
      group_id: group.id,
      thing_name: thingName,
      secret_hash: hashSecret(password),
      name: body.name.trim(),
      sn: body.sn ?? null,
    });
    this.onProvisioned(thingName);
    const row = await findDeviceById(this.db, id);
    return { device: toDevice(row!), credentials: { thingName, password } };
  }
}
