import { sql, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { AlarmConfigsTable, AlarmsTable, Database } from '../../db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * A group path at or beneath one of the paths. `substr` compares the prefix literally in both
 * dialects, where LIKE would read `_` in an id as a wildcard (as the device table does).
 */
function underAnyPath(eb: ExpressionBuilder<Database, 'groups'>, paths: readonly string[]) {
  return eb.or(
    paths.flatMap((path) => [
      eb('groups.path', '=', path),
      eb(sql<string>`substr(${sql.ref('groups.path')}, 1, ${sql.lit(path.length + 1)})`, '=', `${path}/`),
    ]),
  );
}

export function alarmConfigsOf(db: Db, deviceId: string) {
  return db.selectFrom('alarm_configs').selectAll().where('device_id', '=', deviceId).orderBy('code').execute();
}

export function findAlarmConfig(db: Db, deviceId: string, code: string) {
  return db
    .selectFrom('alarm_configs')
    .selectAll()
    .where('device_id', '=', deviceId)
    .where('code', '=', code)
    .executeTakeFirst();
}

export async function upsertAlarmConfig(db: Db, row: AlarmConfigsTable): Promise<void> {
  await db
    .insertInto('alarm_configs')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['device_id', 'code']).doUpdateSet({
        enabled: row.enabled,
        high: row.high,
        low: row.low,
        hysteresis: row.hysteresis,
        delay_seconds: row.delay_seconds,
        severity: row.severity,
        phase: row.phase,
        side: row.side,
        since: row.since,
        last_t: row.last_t,
        version: row.version,
        updated_by: row.updated_by,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/** Moves a channel's evaluation on, unless another writer moved it first (answers false then). */
export async function compareAndSetEvaluation(
  db: Db,
  key: { deviceId: string; code: string; version: number },
  next: Pick<AlarmConfigsTable, 'phase' | 'side' | 'since' | 'last_t'>,
): Promise<boolean> {
  const result = await db
    .updateTable('alarm_configs')
    .set({ ...next, version: key.version + 1 })
    .where('device_id', '=', key.deviceId)
    .where('code', '=', key.code)
    .where('version', '=', key.version)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Every configured channel with its device's id and thing name (the evaluator's cheap first check). */
export function configuredChannels(db: Db) {
  return db
    .selectFrom('alarm_configs')
    .innerJoin('devices', 'devices.id', 'alarm_configs.device_id')
    .select(['devices.thing_name as thingName', 'devices.id as deviceId', 'alarm_configs.code'])
    .execute();
}

/** An alarm with its device's name, thing name, channels and group path. */
export function selectAlarms(db: Db) {
  return db
    .selectFrom('alarms')
    .innerJoin('devices', 'devices.id', 'alarms.device_id')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .leftJoin('users', 'users.id', 'alarms.acknowledged_by')
    .selectAll('alarms')
    .select([
      'devices.name as device_name',
      'devices.thing_name as thing_name',
      'devices.channels as device_channels',
      'devices.account_id as account_id',
      'groups.path as path',
      'users.email as acknowledged_by_email',
    ]);
}

export type AlarmRow = NonNullable<Awaited<ReturnType<ReturnType<typeof selectAlarms>['executeTakeFirst']>>>;

export interface AlarmListFilter {
  paths: readonly string[];
  state: 'open' | 'unacknowledged' | 'all';
  deviceId?: string;
  before?: number;
  limit: number;
}

/** Alarms of devices under the paths, newest first. */
export function listAlarms(db: Db, filter: AlarmListFilter) {
  if (filter.paths.length === 0) return Promise.resolve([]);
  return selectAlarms(db)
    .where((eb) => underAnyPath(eb, filter.paths))
    .$if(filter.deviceId !== undefined, (query) => query.where('alarms.device_id', '=', filter.deviceId!))
    .$if(filter.before !== undefined, (query) => query.where('alarms.raised_at', '<', filter.before!))
    .$if(filter.state === 'unacknowledged', (query) => query.where('alarms.acknowledged_at', 'is', null))
    .$if(filter.state === 'open', (query) =>
      query.where((eb) => eb.or([eb('alarms.cleared_at', 'is', null), eb('alarms.acknowledged_at', 'is', null)])),
    )
    .orderBy('alarms.raised_at', 'desc')
    .orderBy('alarms.id')
    .limit(filter.limit)
    .execute();
}

export function findAlarm(db: Db, id: string) {
  return selectAlarms(db).where('alarms.id', '=', id).executeTakeFirst();
}

export function findAlarms(db: Db, ids: readonly string[]) {
  return ids.length === 0 ? Promise.resolve([]) : selectAlarms(db).where('alarms.id', 'in', ids).execute();
}

/** The open alarms of a device (active, or not yet acknowledged). */
export function openAlarmsOf(db: Db, deviceId: string) {
  return selectAlarms(db)
    .where('alarms.device_id', '=', deviceId)
    .where((eb) => eb.or([eb('alarms.cleared_at', 'is', null), eb('alarms.acknowledged_at', 'is', null)]))
    .orderBy('alarms.raised_at', 'desc')
    .execute();
}

export async function insertAlarm(db: Db, row: AlarmsTable): Promise<void> {
  await db.insertInto('alarms').values(row).execute();
}

/** Clears the channel's active alarm; answers the ids of the alarms cleared (none or one). */
export async function clearActiveAlarm(
  db: Db,
  deviceId: string,
  code: string,
  t: number,
  value: number | null,
): Promise<string[]> {
  const rows = await db
    .updateTable('alarms')
    .set({ cleared_at: t, cleared_value: value })
    .where('device_id', '=', deviceId)
    .where('code', '=', code)
    .where('cleared_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Acknowledges those of the alarms not acknowledged yet; answers the devices touched. */
export async function acknowledgeAlarms(db: Db, ids: readonly string[], userId: string, t: number): Promise<void> {
  await db
    .updateTable('alarms')
    .set({ acknowledged_at: t, acknowledged_by: userId })
    .where('id', 'in', ids)
    .where('acknowledged_at', 'is', null)
    .execute();
}

/** `alarmsHaveBeenRead` of a device: no alarm of it waits to be acknowledged. */
export async function refreshAlarmsHaveBeenRead(db: Db, deviceId: string): Promise<boolean> {
  const unread = await db
    .selectFrom('alarms')
    .select('id')
    .where('device_id', '=', deviceId)
    .where('acknowledged_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  const read = unread === undefined;
  await db
    .updateTable('devices')
    .set({ alarms_have_been_read: read ? 1 : 0 })
    .where('id', '=', deviceId)
    .execute();
  return read;
}

export function selectAlerts(db: Db) {
  return db
    .selectFrom('alerts')
    .innerJoin('devices', 'devices.id', 'alerts.device_id')
    .innerJoin('groups', 'groups.id', 'devices.group_id')
    .selectAll('alerts')
    .select(['devices.name as device_name', 'devices.thing_name as thing_name', 'groups.path as path']);
}

export function listAlerts(db: Db, paths: readonly string[], before: number | undefined, limit: number) {
  if (paths.length === 0) return Promise.resolve([]);
  return selectAlerts(db)
    .where((eb) => underAnyPath(eb, paths))
    .$if(before !== undefined, (query) => query.where('alerts.t', '<', before!))
    .orderBy('alerts.t', 'desc')
    .orderBy('alerts.id')
    .limit(limit)
    .execute();
}

/** Records a disconnection alert once; answers false when it was already recorded. */
export async function insertAlertOnce(
  db: Db,
  alert: { id: string; deviceId: string; kind: string; t: number },
): Promise<boolean> {
  const result = await db
    .insertInto('alerts')
    .values({ id: alert.id, device_id: alert.deviceId, kind: alert.kind, t: alert.t, resolved_at: null })
    .onConflict((oc) => oc.columns(['device_id', 'kind', 't']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
}

/** Resolves the device's open alerts of a kind raised by `t`; answers how many were open. */
export async function resolveAlerts(db: Db, deviceId: string, kind: string, t: number): Promise<number> {
  const result = await db
    .updateTable('alerts')
    .set({ resolved_at: t })
    .where('device_id', '=', deviceId)
    .where('kind', '=', kind)
    .where('resolved_at', 'is', null)
    .where('t', '<=', t)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Every user with an attachment point in any of the accounts, with their points in order. */
export async function usersOfAccounts(db: Db, accountIds: readonly string[]) {
  if (accountIds.length === 0) return [];
  const points = await db
    .selectFrom('attachment_points')
    .innerJoin('users', 'users.id', 'attachment_points.user_id')
    .select([
      'users.id as user_id',
      'users.email',
      'users.muted_devices',
      'users.time_zone',
      'users.hour_cycle',
      'users.date_order',
      'attachment_points.account_id',
      'attachment_points.path',
      'attachment_points.permissions',
      'attachment_points.secret_permissions',
      'attachment_points.app_type',
      'attachment_points.ordinal',
    ])
    .where(
      'attachment_points.user_id',
      'in',
      db.selectFrom('attachment_points').select('user_id').where('account_id', 'in', accountIds),
    )
    .orderBy('attachment_points.user_id')
    .orderBy('attachment_points.ordinal')
    .execute();
  return points;
}

/** The device's account and the accounts above it (a supplier's admins may hear of escalations). */
export async function accountsAbove(db: Db, devicePath: string): Promise<string[]> {
  const groupIds = devicePath.replace(/^\.\//, '').split('/').filter(Boolean);
  if (groupIds.length === 0) return [];
  const rows = await db.selectFrom('groups').select('account_id').distinct().where('id', 'in', groupIds).execute();
  return rows.map((row) => row.account_id);
}
