import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { Kysely } from 'kysely';
import type { DEVICE_TABLE_FORMAT } from '@fieldlink/api/device-table';
import {
  DeviceTableColumns,
  textColumnValues,
  type DeviceTableAnswer,
  type DeviceTableGroup,
  type DeviceTableLine,
} from '@fieldlink/api/device-table';
import type { DEVICE_TABLE_BINARY_FORMAT } from '@fieldlink/api/device-table-binary';
import {
  decodeDeviceTableBinary,
  deviceTableBinaryContent,
  encodeDeviceTableBinary,
  toDeviceTableAnswer,
} from '@fieldlink/api/device-table-binary';
import type { DeviceHealth, DevicePort } from '@fieldlink/api/device-frames';
import type { GroupKind } from '@fieldlink/api/account';
import { countChannels } from '@fieldlink/domain/channels';
import { deviceColumn } from '@fieldlink/domain/device-columns';
import { sortByColumn } from '@fieldlink/domain/device-sort';
import { deviceTableRow } from '@fieldlink/domain/device-table-row';
import type { Database } from '../../db/schema';
import { inScope, requireDeviceAction } from '../session/access';
import type { UserContext } from '../session/user-context';
import {
  activeAlarmsByDevice,
  groupRuns,
  devicesInGroups,
  groupsUnder,
  mutedThingNames,
  pendingMessageCounts,
  type DeviceTableRow,
} from './repository';
import { rememberRecent } from '../../recent-map';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** One form of a built table: its body gzip-compressed, and its size before compression. */
export interface EncodedDeviceTable {
  gzip: Buffer;
  bytes: number;
}

/**
 * A built table: the hash of its content, which each form's ETag names (`deviceTableEtag`), and its
 * bodies: the binary form (format 3, what the console asks for) compressed once when the table is
 * built, the JSON form (format 1) built from it and compressed on the first call that asks for it.
 */
export interface BuiltDeviceTable {
  hash: string;
  count: number;
  binary: EncodedDeviceTable;
  json(): Promise<EncodedDeviceTable>;
}

/** The weak ETag of a form of a built table: the same content in another form is another representation. */
export function deviceTableEtag(
  built: BuiltDeviceTable,
  format: typeof DEVICE_TABLE_FORMAT | typeof DEVICE_TABLE_BINARY_FORMAT,
): string {
  return `W/"dt${format}-${built.hash}"`;
}

export interface DeviceTableOptions {
  /** How long a built table is served before it is built again. */
  maxAgeMs?: number;
  /** Built tables kept (one per caller and scope). */
  maxEntries?: number;
  /** Devices read per statement (about: groups are not split). */
  pageSize?: number;
  /** Serve an expired table while a new one is built (default true). */
  revalidateInBackground?: boolean;
  /** A table is kept at least this many times as long as it took to build (default 10). */
  buildCostFactor?: number;
}

function json<T>(text: string | null, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

const CODE_FIELD = /"code"\s*:\s*"([^"]*)"/g;

/**
 * The channel count (codes starting with `c`) read from the stored channels JSON without parsing
 * it: at 100,000 devices, parsing every channel list costs more than the rest of a row.
 */
function channelCountOf(channels: string): number {
  return countChannels(Array.from(channels.matchAll(CODE_FIELD), (match) => match[1] ?? ''));
}

/** A stored device row as its table line (domain `deviceTableRow`). */
function tableLine(
  row: DeviceTableRow,
  group: number,
  muted: boolean,
  pendingMessages: number,
  activeAlarms: string | null,
): DeviceTableLine {
  return deviceTableRow({
    id: row.id,
    name: row.name,
    thingName: row.thing_name,
    sn: row.sn,
    site: row.site,
    plan: row.plan,
    fw: row.fw,
    model: row.model,
    base: row.base,
    custom: row.custom,
    espFw: row.esp_fw,
    hw: row.hw,
    hwPlatform: row.hw_platform,
    updatePoint: row.update_point,
    timeDate: json<{ tzName?: unknown } | null>(row.time_date, null),
    health: json<Partial<DeviceHealth> | null>(row.health, null),
    ports: json<DevicePort[]>(row.ports, []),
    location: json<{ lat?: unknown; lng?: unknown; address?: unknown } | null>(row.location, null),
    status: json<{ sp?: unknown } | null>(row.status, null),
    otaUpdate: json<{ state?: unknown; percent?: unknown } | null>(row.ota_update, null),
    isConnected: row.is_connected === 1,
    lastConnection: row.last_connection === null ? null : Number(row.last_connection),
    lastDisconnection: row.last_disconnection === null ? null : Number(row.last_disconnection),
    createdAt: Number(row.created_at),
    otaPendingSubmittedAt: row.ota_pending_submitted_at === null ? null : Number(row.ota_pending_submitted_at),
    channelCount: channelCountOf(row.channels),
    group,
    muted,
    pendingMessages,
    activeAlarms,
  });
}

interface CacheEntry {
  /** The last table built (or the first build, still running). */
  table: Promise<BuiltDeviceTable>;
  builtAt: number;
  /** How long the last build took: a table that is costly to build is kept longer. */
  buildMs: number;
  refreshing: boolean;
}

/**
 * The device table call (core §2): the caller's devices in the compact columnar form of
 * `@fieldlink/api/device-table`. A table of 100,000 devices takes a few seconds to read and encode,
 * so a built table is kept per scope (and mute list) and validated with an ETag: a browser that holds
 * it gets 304 and no body. Once it is older than its age limit the next call still gets it at once
 * while a new one is built (stale-while-revalidate), so only the very first call of a scope waits.
 * The age limit is ten times the last build's duration, at least `maxAgeMs`: building tables never
 * takes more than a tenth of the server's time.
 */
export class DeviceTableService {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly maxAgeMs: number;
  private readonly maxEntries: number;
  private readonly pageSize: number;
  private readonly revalidateInBackground: boolean;
  private readonly buildCostFactor: number;

  constructor(
    private readonly db: Kysely<Database>,
    options: DeviceTableOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 10_000;
    this.maxEntries = options.maxEntries ?? 8;
    this.pageSize = options.pageSize ?? 5000;
    this.revalidateInBackground = options.revalidateInBackground ?? true;
    this.buildCostFactor = options.buildCostFactor ?? 10;
  }

  /** The caller's table, built or from the cache; device data, so it needs the right to read devices. */
  async table(user: UserContext): Promise<BuiltDeviceTable> {
    requireDeviceAction(user, 'read');
    // Callers with the same attachment points and mute list see the same table and share it. The
    // mute flags are the caller's own, so a mute or unmute shows at once: the list is part of the key.
    const muted = await mutedThingNames(this.db, user.id);
    const key = JSON.stringify([user.attachmentPoints.map((point) => point.path), muted]);
    const entry = this.cache.get(key);
    const now = Date.now();
    if (entry && now - entry.builtAt < Math.max(this.maxAgeMs, this.buildCostFactor * entry.buildMs))
      return entry.table;
    if (entry && this.revalidateInBackground) {
      if (!entry.refreshing) {
        entry.refreshing = true;
        this.start(key, user, muted).catch(() => (entry.refreshing = false));
      }
      return entry.table;
    }
    return this.start(key, user, muted);
  }

  private start(key: string, user: UserContext, muted: string): Promise<BuiltDeviceTable> {
    const started = Date.now();
    const table = this.build(user, new Set(json<string[]>(muted, [])));
    const fresh: CacheEntry = { table, builtAt: started, buildMs: 0, refreshing: false };
    const previous = this.cache.get(key);
    // A first build is shared by every call that comes while it runs; a rebuild replaces the entry
    // only once it is done, so the old table is served until then.
    if (!previous || !previous.refreshing) rememberRecent(this.cache, key, fresh, this.maxEntries);
    return table.then(
      (built) => {
        fresh.buildMs = Date.now() - started;
        fresh.table = Promise.resolve(built);
        rememberRecent(this.cache, key, fresh, this.maxEntries);
        return built;
      },
      (error: unknown) => {
        // A failed build is not kept: the next call tries again.
        if (this.cache.get(key) === fresh) this.cache.delete(key);
        throw error;
      },
    );
  }

  /** The answer itself, as an object (tests, and callers that do not need the encoded body). */
  async answer(user: UserContext, muted: ReadonlySet<string> = new Set()): Promise<DeviceTableAnswer> {
    const paths = user.attachmentPoints.map((point) => point.path);
    const groupRows = await groupsUnder(this.db, paths);
    const groups: DeviceTableGroup[] = groupRows
      .filter((group) => inScope(user, group.path))
      .map((group) => ({ id: group.id, name: group.name, kind: group.kind as GroupKind, path: group.path }));
    const groupIndex = new Map(groups.map((group, index) => [group.id, index]));
    const pending = await pendingMessageCounts(this.db, paths);
    const alarms = await activeAlarmsByDevice(this.db);
    const columns = new DeviceTableColumns();
    for (const chunk of await groupRuns(
      this.db,
      groups.map((group) => group.id),
      this.pageSize,
    )) {
      const rows: DeviceTableRow[] = await devicesInGroups(this.db, chunk);
      for (const row of rows) {
        const group = groupIndex.get(row.group_id);
        // The groups are the caller's already; this check is the same rule the other calls apply.
        if (group === undefined || !inScope(user, row.path)) continue;
        columns.add(
          tableLine(row, group, muted.has(row.thing_name), pending.get(row.id) ?? 0, alarms.get(row.id) ?? null),
        );
      }
      // Let other requests and ingest run between statements.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return columns.answer(groups, Date.now());
  }

  private async build(user: UserContext, muted: ReadonlySet<string>): Promise<BuiltDeviceTable> {
    const answer = await this.answer(user, muted);
    const body = encodeDeviceTableBinary(answer, nameOrderOf(answer));
    // The hash names the content without the build time, so an unchanged fleet keeps its ETag.
    const hash = createHash('sha256').update(deviceTableBinaryContent(body)).digest('base64url').slice(0, 32);
    // zlib compresses on the thread pool, off the event loop.
    const binary = { gzip: await gzipAsync(body, { level: 6 }), bytes: body.byteLength };
    let json: Promise<EncodedDeviceTable> | null = null;
    const buildJson = async (): Promise<EncodedDeviceTable> => {
      // Decoded from the binary body, so both forms carry exactly the same table.
      const columns = decodeDeviceTableBinary(await gunzipAsync(binary.gzip));
      const text = Buffer.from(JSON.stringify(toDeviceTableAnswer(columns)));
      return { gzip: await gzipAsync(text, { level: 6 }), bytes: text.length };
    };
    return {
      hash,
      count: answer.count,
      binary,
      json: () =>
        (json ??= buildJson().catch((error: unknown) => {
          json = null;
          throw error;
        })),
    };
  }
}

/**
 * The rows in the order the console's default sort shows them (by name, ascending: the domain's sort
 * of the name column, ties in row order, empty names last), sent with the binary table so that the
 * console need not sort 100,000 names on its main thread as it opens. The console checks it in one
 * pass before using it. docs/decisions.md ("Cold open at 100,000 devices").
 */
function nameOrderOf(answer: DeviceTableAnswer): Int32Array {
  const names = textColumnValues(answer.text.name);
  const rows = Array.from({ length: answer.count }, (_, row) => row);
  return Int32Array.from(sortByColumn(rows, deviceColumn('name')!.type, (row) => names[row], 'asc'));
}
