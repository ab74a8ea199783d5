import type { Kysely, Transaction } from 'kysely';
import type {
  BrewAnnotationsTable,
  BrewBatchesTable,
  BrewGravitiesTable,
  BrewReportsTable,
  BrewSensoriesTable,
  BrewTanksTable,
  Database,
} from '../../db/schema';
import { lastSampleBefore } from '../devices/log-repository';
import { selectDevices } from '../devices/repository';

type Db = Kysely<Database> | Transaction<Database>;

/** The devices of a group (its tanks), by name. */
export function tankDevicesOf(db: Db, groupId: string) {
  return selectDevices(db)
    .where('devices.group_id', '=', groupId)
    .orderBy('devices.name')
    .orderBy('devices.id')
    .execute();
}

export function tankRowsOf(db: Db, deviceIds: readonly string[]) {
  return deviceIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('brew_tanks').selectAll().where('device_id', 'in', deviceIds).execute();
}

export function upsertTankRow(db: Db, row: BrewTanksTable) {
  const { device_id: _id, ...update } = row;
  return db
    .insertInto('brew_tanks')
    .values(row)
    .onConflict((oc) => oc.column('device_id').doUpdateSet(update))
    .execute();
}

/** Batches still running (not ended) on the devices. */
export function runningBatchesOf(db: Db, deviceIds: readonly string[]) {
  return deviceIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('brew_batches')
        .selectAll()
        .where('device_id', 'in', deviceIds)
        .where('end_at', 'is', null)
        .execute();
}

/** The devices with a running batch, with their thing names (the tank tracker's directory). */
export function runningBatchDevices(db: Db) {
  return db
    .selectFrom('brew_batches')
    .innerJoin('devices', 'devices.id', 'brew_batches.device_id')
    .select(['brew_batches.device_id', 'devices.thing_name'])
    .where('brew_batches.end_at', 'is', null)
    .execute();
}

/** Every batch of the devices, newest first. */
export function batchesOf(db: Db, deviceIds: readonly string[], isDemo: boolean) {
  return deviceIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('brew_batches')
        .selectAll()
        .where('device_id', 'in', deviceIds)
        .where('is_demo', '=', isDemo ? 1 : 0)
        .orderBy('start_at', 'desc')
        .orderBy('id')
        .execute();
}

export function findBatch(db: Db, id: string) {
  return db.selectFrom('brew_batches').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertBatch(db: Db, row: BrewBatchesTable) {
  return db.insertInto('brew_batches').values(row).execute();
}

export function updateBatch(db: Db, id: string, update: Partial<Omit<BrewBatchesTable, 'id'>>) {
  return db.updateTable('brew_batches').set(update).where('id', '=', id).execute();
}

/** The batch and everything that belongs to it; answers its reports' stored files, to remove. */
export async function deleteBatch(db: Db, id: string): Promise<string[]> {
  const files = await db
    .selectFrom('brew_reports')
    .select('file_id')
    .where('batch_id', '=', id)
    .where('file_id', 'is not', null)
    .execute();
  await db.deleteFrom('brew_gravities').where('batch_id', '=', id).execute();
  await db.deleteFrom('brew_sensories').where('batch_id', '=', id).execute();
  await db.deleteFrom('brew_annotations').where('batch_id', '=', id).execute();
  await db.deleteFrom('brew_reports').where('batch_id', '=', id).execute();
  await db.deleteFrom('brew_batches').where('id', '=', id).execute();
  return files.map((row) => row.file_id!);
}

/** Gravity readings, tasting notes, annotations and reports of some batches. */
export async function batchItemsOf(db: Db, batchIds: readonly string[]) {
  if (batchIds.length === 0) return { gravities: [], sensories: [], annotations: [], reports: [] };
  const [gravities, sensories, annotations, reports] = await Promise.all([
    db.selectFrom('brew_gravities').selectAll().where('batch_id', 'in', batchIds).orderBy('t').orderBy('id').execute(),
    db.selectFrom('brew_sensories').selectAll().where('batch_id', 'in', batchIds).orderBy('t').orderBy('id').execute(),
    db
      .selectFrom('brew_annotations')
      .selectAll()
      .where('batch_id', 'in', batchIds)
      .orderBy('t')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('brew_reports')
      .selectAll()
      .where('batch_id', 'in', batchIds)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  return { gravities, sensories, annotations, reports };
}

export type BatchItems = Awaited<ReturnType<typeof batchItemsOf>>;

export function upsertGravity(db: Db, row: BrewGravitiesTable) {
  const { id: _id, batch_id: _batch, ...update } = row;
  return db
    .insertInto('brew_gravities')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(update))
    .execute();
}

export function upsertSensory(db: Db, row: BrewSensoriesTable) {
  const { id: _id, batch_id: _batch, ...update } = row;
  return db
    .insertInto('brew_sensories')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(update))
    .execute();
}

export function upsertAnnotation(db: Db, row: BrewAnnotationsTable) {
  const { id: _id, batch_id: _batch, ...update } = row;
  return db
    .insertInto('brew_annotations')
    .values(row)
    .onConflict((oc) => oc.column('id').doUpdateSet(update))
    .execute();
}

/** The id of an item of the batch in one of its item tables, or undefined. */
export function findBatchItem(
  db: Db,
  table: 'brew_gravities' | 'brew_sensories' | 'brew_annotations',
  batchId: string,
  id: string,
) {
  return db.selectFrom(table).selectAll().where('id', '=', id).where('batch_id', '=', batchId).executeTakeFirst();
}

export function findAnnotation(db: Db, batchId: string, id: string) {
  return db
    .selectFrom('brew_annotations')
    .selectAll()
    .where('id', '=', id)
    .where('batch_id', '=', batchId)
    .executeTakeFirst();
}

export function deleteBatchItem(
  db: Db,
  table: 'brew_gravities' | 'brew_sensories' | 'brew_annotations',
  batchId: string,
  id: string,
) {
  return db.deleteFrom(table).where('id', '=', id).where('batch_id', '=', batchId).executeTakeFirst();
}

export function deleteSensoryAnnotation(db: Db, sensoryId: string) {
  return db.deleteFrom('brew_annotations').where('sensory_id', '=', sensoryId).execute();
}

export function findSensoryAnnotation(db: Db, sensoryId: string) {
  return db.selectFrom('brew_annotations').selectAll().where('sensory_id', '=', sensoryId).executeTakeFirst();
}

export function insertReport(db: Db, row: BrewReportsTable) {
  return db.insertInto('brew_reports').values(row).execute();
}

export function findReport(db: Db, id: string) {
  return db.selectFrom('brew_reports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function updateReport(db: Db, id: string, update: Partial<Omit<BrewReportsTable, 'id' | 'batch_id'>>) {
  return db.updateTable('brew_reports').set(update).where('id', '=', id).execute();
}

/** Reports of the batch waiting for the brewer (state AWAITING_USER). */
export function waitingReportsOf(db: Db, batchId: string) {
  return db
    .selectFrom('brew_reports')
    .select('id')
    .where('batch_id', '=', batchId)
    .where('state', '=', 'AWAITING_USER')
    .execute();
}

/** The last stored value of some channels of a device at or before `t`. */
export async function valuesAt(db: Db, deviceId: string, codes: readonly string[], t: number) {
  const values: Record<string, number> = {};
  for (const code of codes) {
    const row = await lastSampleBefore(db, deviceId, code, t + 1);
    if (row) values[code] = row.value;
  }
  return values;
}

/**
 * What the batch report limits count (`@fieldlink/domain/work-limits`): batch reports generating and
 * kept, of a user (by the e-mail they are stored with) and of an account (its devices' batches). Read
 * inside the adding transaction, after `lockLimitedWork`.
 */
export async function batchReportCounts(db: Db, accountId: string, userEmail: string) {
  const ofUser = (generatingOnly: boolean) =>
    db
      .selectFrom('brew_reports')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('created_by', '=', userEmail)
      .$if(generatingOnly, (query) => query.where('state', '=', 'GENERATING'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  const ofAccount = (generatingOnly: boolean) =>
    db
      .selectFrom('brew_reports')
      .innerJoin('brew_batches', 'brew_batches.id', 'brew_reports.batch_id')
      .innerJoin('devices', 'devices.id', 'brew_batches.device_id')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('devices.account_id', '=', accountId)
      .$if(generatingOnly, (query) => query.where('brew_reports.state', '=', 'GENERATING'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  const [userGenerating, accountGenerating, userKept, accountKept] = await Promise.all([
    ofUser(true),
    ofAccount(true),
    ofUser(false),
    ofAccount(false),
  ]);
  return { userGenerating, accountGenerating, userKept, accountKept };
}

/** Batch reports made before `before` (retention), oldest first, with their batch's device. */
export function batchReportsCreatedBefore(db: Db, before: number, limit: number) {
  return db
    .selectFrom('brew_reports')
    .innerJoin('brew_batches', 'brew_batches.id', 'brew_reports.batch_id')
    .select(['brew_reports.id', 'brew_reports.file_id', 'brew_batches.device_id'])
    .where('brew_reports.created_at', '<', before)
    .orderBy('brew_reports.created_at')
    .limit(limit)
    .execute();
}

export function deleteReport(db: Db, id: string) {
  return db.deleteFrom('brew_reports').where('id', '=', id).execute();
}
