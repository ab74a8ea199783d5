import { sql, type Kysely, type Transaction } from 'kysely';
import { moveInbox } from '../../db/log-inbox';
import type { Database, DevicesTable } from '../../db/schema';
import { belowPattern } from '../users/repository';

/** Device columns with the path of its group. */
export function selectDevices(db: Kysely<Database>) {
  return db
    .selectFrom('devices')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .selectAll('devices')
    .select('groups.path as path');
}

export type DeviceWithPath = NonNullable<Awaited<ReturnType<ReturnType<typeof selectDevices>['executeTakeFirst']>>>;

export function findDeviceById(db: Kysely<Database>, id: string) {
  return selectDevices(db).where('devices.id', '=', id).executeTakeFirst();
}

export function findDeviceByThingName(db: Kysely<Database>, thingName: string) {
  return selectDevices(db).where('devices.thing_name', '=', thingName).executeTakeFirst();
}

/** The group path of each of these devices that exists, by thing name (the scope check of a live feed). */
export async function groupPathsByThingName(
  db: Kysely<Database>,
  thingNames: readonly string[],
): Promise<Map<string, string>> {
  const paths = new Map<string, string>();
  // Within every driver's limit of statement parameters.
  for (let start = 0; start < thingNames.length; start += 1000) {
    const rows = await db
      .selectFrom('devices')
      .innerJoin('groups', 'groups.id', 'devices.group_id')
      .select(['devices.thing_name', 'groups.path'])
      .where('devices.thing_name', 'in', thingNames.slice(start, start + 1000))
      .execute();
    for (const row of rows) paths.set(row.thing_name, row.path);
  }
  return paths;
}

/** The devices among these thing names that exist, with their group's path (chunked like `groupPathsByThingName`). */
export async function findDevicesByThingNames(
  db: Kysely<Database>,
  thingNames: readonly string[],
): Promise<DeviceWithPath[]> {
  const rows: DeviceWithPath[] = [];
  for (let start = 0; start < thingNames.length; start += 1000) {
    rows.push(
      ...(await selectDevices(db)
        .where('devices.thing_name', 'in', thingNames.slice(start, start + 1000))
        .execute()),
    );
  }
  return rows;
}

export function findDevicesByIds(db: Kysely<Database>, ids: readonly string[]) {
  return ids.length === 0 ? Promise.resolve([]) : selectDevices(db).where('devices.id', 'in', ids).execute();
}

/**
 * The latest value of each channel of the devices. SQLite's inbox stands for the latest values of the
 * samples it holds (db/log-inbox.ts), so their shards are moved first, as readers of samples move them.
 */
export async function latestValuesOf(db: Kysely<Database>, deviceIds: readonly string[]) {
  if (deviceIds.length === 0) return [];
  await moveInbox(db, deviceIds);
  return db.selectFrom('latest_values').selectAll().where('device_id', 'in', deviceIds).execute();
}

export function findGroup(db: Kysely<Database>, id: string) {
  return db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findNewDevicesGroup(db: Kysely<Database>, accountId: string) {
  return db
    .selectFrom('groups')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('kind', '=', 'new')
    .executeTakeFirst();
}

/** What identifies a new device; everything it reports about itself starts empty. */
export type NewDevice = Pick<DevicesTable, 'id' | 'account_id' | 'group_id' | 'thing_name' | 'secret_hash' | 'name'> &
  Partial<Pick<DevicesTable, 'sn' | 'site' | 'plan' | 'location' | 'tags' | 'created_at'>>;

/** The full row of a device that has not reported yet: everything it reports about itself empty. */
function newDeviceRow(device: NewDevice) {
  return {
    sn: null,
    site: null,
    plan: 'FREE',
    location: null,
    fw: null,
    model: null,
    hw: null,
    base: null,
    custom: null,
    esp_fw: null,
    hw_platform: null,
    update_point: null,
    upload_interval: null,
    log_interval: null,
    time_date: null,
    channels: '[]',
    registers: '{}',
    ports: '[]',
    tags: '[]',
    health: null,
    status: '{}',
    is_connected: 0,
    last_connection: null,
    last_disconnection: null,
    ota_pending_submitted_at: null,
    alarms_have_been_read: 1,
    created_at: Date.now(),
    ...device,
  };
}

/** Inserts a device that has not reported yet (provisioning and demo seed). */
export function insertDevice(db: Kysely<Database>, device: NewDevice) {
  return db.insertInto('devices').values(newDeviceRow(device)).execute();
}

/** Rows per INSERT of a bulk insert: about 30 columns each, well inside SQLite's bound variables. */
const INSERT_CHUNK = 200;

/** Inserts many new devices (a bulk import), in chunks, inside the caller's transaction. */
export async function insertDevices(trx: Transaction<Database>, devices: readonly NewDevice[]) {
  for (let index = 0; index < devices.length; index += INSERT_CHUNK) {
    const chunk = devices.slice(index, index + INSERT_CHUNK);
    await trx.insertInto('devices').values(chunk.map(newDeviceRow)).execute();
  }
}

/** True when a device with this thing name exists (anywhere: thing names are unique). */
export async function thingNameTaken(db: Kysely<Database>, thingName: string): Promise<boolean> {
  const row = await db.selectFrom('devices').select('id').where('thing_name', '=', thingName).executeTakeFirst();
  return row !== undefined;
}

/** The root group of an account (id, path, name), or undefined. */
export function accountRootGroup(db: Kysely<Database>, accountId: string) {
  return db
    .selectFrom('accounts')
    .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
    .select(['groups.id', 'groups.path', 'groups.name', 'groups.account_id'])
    .where('accounts.id', '=', accountId)
    .executeTakeFirst();
}

/** Devices at or below a path with one of these serial numbers (compared as stored). */
export async function devicesWithSerials(db: Kysely<Database>, path: string, serials: readonly string[]) {
  const found: { name: string; sn: string | null }[] = [];
  for (let index = 0; index < serials.length; index += 500) {
    found.push(
      ...(await db
        .selectFrom('devices')
        .innerJoin('groups', 'groups.id', 'devices.group_id')
        .select(['devices.name', 'devices.sn'])
        .where('devices.sn', 'in', serials.slice(index, index + 500))
        .where((eb) =>
          eb.or([eb('groups.path', '=', path), sql<boolean>`groups.path like ${belowPattern(path)} escape '\\'`]),
        )
        .execute()),
    );
  }
  return found;
}

/** Device columns a person may change through `POST /device-config`. */
export type DevicePropsUpdate = Partial<Pick<DevicesTable, 'name' | 'site' | 'location'>> & {
  custom_attributes?: string;
};

export function updateDeviceProps(db: Kysely<Database>, id: string, update: DevicePropsUpdate) {
  return db.updateTable('devices').set(update).where('id', '=', id).execute();
}

export function updateDevicePlan(db: Kysely<Database>, id: string, plan: string) {
  return db.updateTable('devices').set({ plan }).where('id', '=', id).execute();
}

/**
 * Changes a JSON text column with compare-and-set: read, change, write only if nobody wrote in
 * between, else read again. Works the same on SQLite and PostgreSQL without row locks.
 */
async function compareAndSet<T>(
  read: () => Promise<string | undefined>,
  write: (before: string, after: string) => Promise<boolean>,
  change: (current: T) => T,
  fallback: T,
): Promise<T> {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const before = await read();
    if (before === undefined) throw new Error('Row not found');
    const next = change(before ? (JSON.parse(before) as T) : fallback);
    if (await write(before, JSON.stringify(next))) return next;
  }
  throw new Error('Too many concurrent changes; please try again.');
}

export interface StoredTag {
  id: string;
  key: string;
  value: string;
}

/** Changes a device's tags; answers them as stored. */
export function changeDeviceTags(db: Kysely<Database>, id: string, change: (tags: StoredTag[]) => StoredTag[]) {
  return compareAndSet<StoredTag[]>(
    async () => (await db.selectFrom('devices').select('tags').where('id', '=', id).executeTakeFirst())?.tags,
    async (before, after) =>
      (
        await db
          .updateTable('devices')
          .set({ tags: after })
          .where('id', '=', id)
          .where('tags', '=', before)
          .executeTakeFirst()
      ).numUpdatedRows === 1n,
    change,
    [],
  );
}

/** The user's muted devices (thing names). */
export async function mutedDevicesOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const row = await db.selectFrom('users').select('muted_devices').where('id', '=', userId).executeTakeFirst();
  return row ? (JSON.parse(row.muted_devices) as string[]) : [];
}

/** Adds or removes a thing name in the user's muted devices; answers the list as stored. */
export function setDeviceMuted(db: Kysely<Database>, userId: string, thingName: string, muted: boolean) {
  return compareAndSet<string[]>(
    async () =>
      (await db.selectFrom('users').select('muted_devices').where('id', '=', userId).executeTakeFirst())?.muted_devices,
    async (before, after) =>
      (
        await db
          .updateTable('users')
          .set({ muted_devices: after })
          .where('id', '=', userId)
          .where('muted_devices', '=', before)
          .executeTakeFirst()
      ).numUpdatedRows === 1n,
    (list) => {
      const rest = list.filter((name) => name !== thingName);
      return muted ? [...rest, thingName] : rest;
    },
    [],
  );
}

/** The connection log of a device, newest first. */
export function connectionsOf(db: Kysely<Database>, deviceId: string, before: number | undefined, limit: number) {
  let query = db
    .selectFrom('connections')
    .select(['t', 'connected'])
    .where('device_id', '=', deviceId)
    .orderBy('t', 'desc')
    .limit(limit);
  if (before !== undefined) query = query.where('t', '<', before);
  return query.execute();
}

/** The kind of an account (`supplier`, `customer`, ...), or undefined. */
export async function accountKindOf(db: Kysely<Database>, accountId: string): Promise<string | undefined> {
  return (await db.selectFrom('accounts').select('kind').where('id', '=', accountId).executeTakeFirst())?.kind;
}
