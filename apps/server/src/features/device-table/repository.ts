import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import {
  encodeActiveAlarms,
  type ActiveAlarmSummary,
  type AlarmSeverity,
  type AlarmSide,
} from '@fieldlink/domain/alarms';
import type { Database } from '../../db/schema';

/**
 * Queries of the device table. Scope is a condition on the group path, so the database returns only
 * what the caller may see: a path at or beneath an attachment point. `substr` compares the prefix
 * literally in both SQLite and PostgreSQL, where LIKE would read `_` and `%` in an id as wildcards.
 */
function underAnyPath(eb: ExpressionBuilder<Database, 'groups'>, paths: readonly string[]) {
  return eb.or(
    paths.flatMap((path) => [
      eb('groups.path', '=', path),
      eb(sql<string>`substr(${sql.ref('groups.path')}, 1, ${sql.lit(path.length + 1)})`, '=', `${path}/`),
    ]),
  );
}

/** Groups at or beneath the attachment points, top of the tree first. */
export function groupsUnder(db: Kysely<Database>, paths: readonly string[]) {
  if (paths.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('groups')
    .select(['groups.id', 'groups.name', 'groups.kind', 'groups.path'])
    .where((eb) => underAnyPath(eb, paths))
    .orderBy('groups.path')
    .execute();
}

/** Devices per group, for the groups given (groups without devices are left out). */
async function deviceCountsByGroup(db: Kysely<Database>, groupIds: readonly string[]) {
  if (groupIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('devices')
    .select(['group_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('group_id', 'in', groupIds)
    .groupBy('group_id')
    .execute();
  return new Map(rows.map((row) => [row.group_id, Number(row.count)]));
}

/** Within every driver's limit of statement parameters. */
const MAX_GROUPS_PER_STATEMENT = 1000;

/**
 * The groups in runs of at most `perStatement` devices (and 1,000 groups), for reads of a few thousand
 * devices a statement with the event loop free between them; groups without devices are left out,
 * and a group holding more devices than that is a run of its own.
 */
export async function groupRuns(
  db: Kysely<Database>,
  groupIds: readonly string[],
  perStatement: number,
): Promise<string[][]> {
  const counts = new Map<string, number>();
  for (let start = 0; start < groupIds.length; start += MAX_GROUPS_PER_STATEMENT) {
    const part = groupIds.slice(start, start + MAX_GROUPS_PER_STATEMENT);
    for (const [id, count] of await deviceCountsByGroup(db, part)) counts.set(id, count);
  }
  const runs: string[][] = [];
  let run: string[] = [];
  let devices = 0;
  for (const id of groupIds) {
    const count = counts.get(id) ?? 0;
    if (count === 0) continue;
    if (run.length > 0 && (devices + count > perStatement || run.length >= MAX_GROUPS_PER_STATEMENT)) {
      runs.push(run);
      [run, devices] = [[], 0];
    }
    run.push(id);
    devices += count;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * The table's columns of the devices in some groups, by id. The service asks for a few thousand
 * devices at a time, group by group: each statement then reads only its own devices through the
 * group index, where paging by id across the whole scope made PostgreSQL read every device of the
 * scope again for each page.
 */
export function devicesInGroups(db: Kysely<Database>, groupIds: readonly string[]) {
  if (groupIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('devices')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .select([
      'devices.id',
      'devices.group_id',
      'devices.name',
      'devices.thing_name',
      'devices.sn',
      'devices.site',
      'devices.plan',
      'devices.fw',
      'devices.model',
      'devices.base',
      'devices.custom',
      'devices.esp_fw',
      'devices.hw',
      'devices.hw_platform',
      'devices.update_point',
      'devices.time_date',
      'devices.channels',
      'devices.ports',
      'devices.location',
      'devices.health',
      'devices.status',
      'devices.is_connected',
      'devices.last_connection',
      'devices.last_disconnection',
      'devices.ota_pending_submitted_at',
      'devices.ota_update',
      'devices.created_at',
      'groups.path',
    ])
    .where('devices.group_id', 'in', groupIds)
    .orderBy('devices.id')
    .execute();
}

export type DeviceTableRow = Awaited<ReturnType<typeof devicesInGroups>>[number];

/** Count of pending (queued, not yet delivered) messages per device in scope that has any. */
export async function pendingMessageCounts(
  db: Kysely<Database>,
  paths: readonly string[],
): Promise<Map<string, number>> {
  if (paths.length === 0) return new Map();
  const rows = await db
    .selectFrom('device_messages')
    .innerJoin('devices', 'devices.id', 'device_messages.device_id')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .select(['device_messages.device_id', (eb) => eb.fn.countAll<number | string>().as('count')])
    .where('device_messages.status', '=', 'pending')
    .where((eb) => underAnyPath(eb, paths))
    .groupBy('device_messages.device_id')
    .execute();
  return new Map(rows.map((row) => [row.device_id, Number(row.count)]));
}

/** The caller's muted devices (thing names). */
export async function mutedThingNames(db: Kysely<Database>, userId: string): Promise<string> {
  const row = await db.selectFrom('users').select('muted_devices').where('id', '=', userId).executeTakeFirst();
  return row?.muted_devices ?? '[]';
}

/**
 * Active channel alarms by device, encoded for the table's `activeAlarms` column. Active alarms are
 * few, so all are read at once; devices outside the table are simply not looked up.
 */
export async function activeAlarmsByDevice(db: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('alarms')
    .select(['device_id', 'code', 'side', 'severity'])
    .where('cleared_at', 'is', null)
    .execute();
  const byDevice = new Map<string, ActiveAlarmSummary[]>();
  for (const row of rows) {
    const list = byDevice.get(row.device_id) ?? [];
    list.push({ code: row.code, side: row.side as AlarmSide, severity: row.severity as AlarmSeverity });
    byDevice.set(row.device_id, list);
  }
  return new Map([...byDevice].map(([deviceId, list]) => [deviceId, encodeActiveAlarms(list) ?? '']));
}
