import type { Kysely, Transaction } from 'kysely';
import type { Batch, BatchProps, BrewBatchesQuery, Tank, TankCalibrationBody } from '@fieldlink/api/brew';
import type { TankLevelCalibration, TankState } from '@fieldlink/domain/brew';
import type { TankSettings } from '@fieldlink/domain/brew-views';
import type { BatchItemList } from '@fieldlink/domain/brew-edits';
import { logBinGrid } from '@fieldlink/api/device-logs';
import { GROUP_NOT_FOUND } from '@fieldlink/api/errors';
import {
  type BatchCourse,
  type BrewDevice,
  type BrewStore,
  type NewBatch,
  type NumberedTank,
  type StoredBatch,
  type StoredBatchLine,
  type StoredItem,
} from '@fieldlink/services/brew-service';
import type { BrewBatchesTable, BrewTanksTable, Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import { newId } from '../../security/secrets';
import { audit } from '../audit/service';
import { inScope } from '../session/access';
import type { UserContext } from '../session/user-context';
import { findGroup, latestValuesOf, selectDevices, type DeviceWithPath } from '../devices/repository';
import { channelLogs } from '../devices/log-repository';
import { batchProps, toBatch, toReport } from './mapper';
import {
  batchItemsOf,
  batchesOf,
  deleteBatch,
  deleteBatchItem,
  deleteSensoryAnnotation,
  findBatch,
  findBatchItem,
  findSensoryAnnotation,
  insertBatch,
  runningBatchesOf,
  tankDevicesOf,
  tankRowsOf,
  updateBatch,
  upsertAnnotation,
  upsertGravity,
  upsertSensory,
  upsertTankRow,
} from './repository';

/** A group row as the brewing calls read it. */
export type BrewGroup = NonNullable<Awaited<ReturnType<typeof findGroup>>>;
/** A device of a brew group, with its row for the audit trail. */
export type BrewDeviceRow = BrewDevice & { row: DeviceWithPath };
/** A stored batch, with its row and its device's row for the audit trail. */
export type BrewBatchRow = StoredBatch & { row: BrewBatchesTable; device: DeviceWithPath };
/** An item of a batch's list, with its row (the audit trail's "before"). */
export type BrewItemRow = StoredItem & { row: object };

/** The tables of a batch's lists. */
const BATCH_ITEM_TABLES = {
  gravities: 'brew_gravities',
  sensories: 'brew_sensories',
  annotations: 'brew_annotations',
} as const;

/** What the store does beyond storage: report jobs and telling browsers of a tank. */
export interface BrewStoreHooks {
  /** Within the transaction of a batch's props: its reports waiting for an original gravity are made again. */
  propsChanged(trx: Transaction<Database>, batchId: string, props: BatchProps): Promise<void>;
  /** Within the transaction of a batch's end: its report, started. */
  ended(trx: Transaction<Database>, batchId: string, reportId: string, user: UserContext, now: number): Promise<void>;
  /** After a committed change: the report runner looks for work. */
  nudge(): void;
  /** Stored files of a deleted batch's reports, to remove. */
  removeFiles(fileIds: readonly string[]): Promise<void>;
  /** Sends the device's tank to the browsers watching it. */
  announce(deviceId: string): Promise<void>;
  publish(groupId: string, thingName: string, tank: Tank): void;
}

/**
 * The brewing calls' storage on the server (`@fieldlink/services/brew-service`): Kysely rows, reads
 * within the caller's scope (another account's ids answer as ids that do not exist), each write one
 * transaction with its audit entry. `user` is null only for reading tanks (announcements).
 */
export class ServerBrewStore implements BrewStore<BrewGroup, BrewDeviceRow, BrewBatchRow, BrewItemRow> {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly user: UserContext | null,
    private readonly hooks: BrewStoreHooks,
  ) {}

  refusal(status: number, message: string): Error {
    return new HttpError(status, message);
  }

  newId(): string {
    return newId();
  }

  async group(groupId: string) {
    const group = await findGroup(this.db, groupId);
    return group && inScope(this.caller(), group.path) ? group : undefined;
  }

  async devicesOf(groupId: string): Promise<BrewDeviceRow[]> {
    return (await tankDevicesOf(this.db, groupId)).map(tankDevice);
  }

  async tankSettings(devices: readonly BrewDeviceRow[]) {
    const rows = await tankRowsOf(
      this.db,
      devices.map((device) => device.id),
    );
    return new Map(rows.map((row) => [row.device_id, tankSettingsOf(row)]));
  }

  async runningBatches(devices: readonly BrewDeviceRow[]): Promise<Map<string, Batch>> {
    const running = await runningBatchesOf(
      this.db,
      devices.map((device) => device.id),
    );
    const items = await batchItemsOf(
      this.db,
      running.map((batch) => batch.id),
    );
    return new Map(running.map((row) => [row.device_id, toBatch(row, items)]));
  }

  async runsBatch(deviceId: string): Promise<boolean> {
    return (await runningBatchesOf(this.db, [deviceId])).length > 0;
  }

  async latestValues(devices: readonly BrewDeviceRow[]) {
    const latest = new Map<string, Map<string, number>>();
    for (const row of await latestValuesOf(
      this.db,
      devices.map((device) => device.id),
    )) {
      const values = latest.get(row.device_id) ?? new Map<string, number>();
      values.set(row.code, row.value);
      latest.set(row.device_id, values);
    }
    return (device: BrewDeviceRow, code: string) => latest.get(device.id)?.get(code);
  }

  async channelLogs(
    deviceId: string,
    { channels, start, end, binCount }: { channels: string[]; start: number; end: number; binCount: number },
  ) {
    const grid = logBinGrid(start, end, binCount);
    const logs = await channelLogs(this.db, deviceId, channels, { start, end }, binCount, grid);
    return { deviceId, start, end, binCount, binWidth: grid.width, channels: logs };
  }

  async batchLines(group: BrewGroup, devices: readonly BrewDeviceRow[], query: BrewBatchesQuery) {
    if (query.accountId !== undefined && query.accountId !== group.account_id) throw notFound(GROUP_NOT_FOUND);
    const rows = await batchesOf(
      this.db,
      devices.map((device) => device.id),
      query.isDemoMode === true,
    );
    const items = await batchItemsOf(
      this.db,
      rows.map((row) => row.id),
    );
    return rows.map((row): StoredBatchLine => {
      const latestReport = items.reports.find((report) => report.batch_id === row.id);
      return {
        batch: {
          id: row.id,
          deviceId: row.device_id,
          state: row.state as TankState,
          date: { start: row.start_at, end: row.end_at },
          props: batchProps(row),
          gravities: items.gravities.filter((item) => item.batch_id === row.id),
          sensoryCount: items.sensories.filter((item) => item.batch_id === row.id).length,
          isDemo: row.is_demo === 1,
        },
        latestReport: latestReport ? toReport(latestReport) : null,
      };
    });
  }

  async batch(batchId: string): Promise<BrewBatchRow | undefined> {
    const row = await findBatch(this.db, batchId);
    const device = row
      ? await selectDevices(this.db).where('devices.id', '=', row.device_id).executeTakeFirst()
      : undefined;
    if (!row || !device || !inScope(this.caller(), device.path)) return undefined;
    const { id, deviceId, date, props, transitions } = toBatch(row, EMPTY_ITEMS);
    return { id, deviceId, date, props, transitions, row, device };
  }

  async item(batch: BrewBatchRow, list: BatchItemList, id: string): Promise<BrewItemRow | undefined> {
    const row = await findBatchItem(this.db, BATCH_ITEM_TABLES[list], batch.id, id);
    if (!row) return undefined;
    return { id: row.id, sensoryId: 'sensory_id' in row ? row.sensory_id : null, row };
  }

  async answer(batch: BrewBatchRow): Promise<Batch> {
    return toBatch(batch.row, await batchItemsOf(this.db, [batch.id]));
  }

  async changed(batchId: string): Promise<Batch> {
    const row = (await findBatch(this.db, batchId))!;
    await this.hooks.announce(row.device_id);
    return toBatch(row, await batchItemsOf(this.db, [row.id]));
  }

  async insertBatch(batch: NewBatch, { device, tankNumber }: NumberedTank<BrewDeviceRow>): Promise<void> {
    const user = this.caller();
    await this.db.transaction().execute(async (trx) => {
      // The tank's calibration as stored (the batch keeps the same text).
      const [tankRow] = await tankRowsOf(trx, [device.id]);
      const row: BrewBatchesTable = {
        id: batch.id,
        device_id: device.id,
        state: batch.state,
        start_at: batch.date.start,
        end_at: null,
        props: JSON.stringify(batch.props),
        transitions: JSON.stringify(batch.transitions),
        is_demo: 0,
        channels_map: JSON.stringify(batch.channelsMap),
        co2_total_gain: batch.calibration.co2TotalGain,
        tank_level: tankRow?.tank_level ?? null,
        tank_level_at_ferm_start: batch.tankLevelAtFermStart,
        co2_total_at_start: batch.co2TotalAtStart,
        pressurized_at: null,
        frozen_gravity: null,
        created_by: user.email,
        created_at: batch.date.start,
      };
      await insertBatch(trx, row);
      const after = { tankNumber, props: batch.props, state: row.state };
      await audit.deviceChange(trx, user, device.row, 'brew.start', { kind: 'batch', id: row.id }, null, after);
    });
  }

  async saveProps({ row, device }: BrewBatchRow, props: BatchProps): Promise<void> {
    const user = this.caller();
    await this.db.transaction().execute(async (trx) => {
      await updateBatch(trx, row.id, { props: JSON.stringify(props) });
      const target = { kind: 'batch', id: row.id };
      await audit.deviceChange(trx, user, device, 'brew.update', target, { props: batchProps(row) }, { props });
      await this.hooks.propsChanged(trx, row.id, props);
    });
    this.hooks.nudge();
  }

  async removeBatch({ row, device }: BrewBatchRow): Promise<void> {
    const user = this.caller();
    const files = await this.db.transaction().execute(async (trx) => {
      const removed = await deleteBatch(trx, row.id);
      const before = { props: batchProps(row), state: row.state, startAt: row.start_at, endAt: row.end_at };
      await audit.deviceChange(trx, user, device, 'brew.delete', { kind: 'batch', id: row.id }, before, null);
      return removed;
    });
    await this.hooks.removeFiles(files);
    await this.hooks.announce(row.device_id);
  }

  async endBatch({ row, device }: BrewBatchRow, ended: BatchCourse & { end: number }): Promise<void> {
    const user = this.caller();
    const reportId = newId();
    await this.db.transaction().execute(async (trx) => {
      await updateBatch(trx, row.id, {
        end_at: ended.end,
        state: ended.state,
        transitions: JSON.stringify(ended.transitions),
      });
      await this.hooks.ended(trx, row.id, reportId, user, ended.end);
      const target = { kind: 'batch', id: row.id };
      const after = { state: 'MANUALLY_ENDED', endAt: ended.end, reportId };
      await audit.deviceChange(trx, user, device, 'brew.end', target, { state: row.state, endAt: null }, after);
    });
    this.hooks.nudge();
  }

  async resumeBatch({ row, device }: BrewBatchRow, { state, transitions }: BatchCourse): Promise<void> {
    const user = this.caller();
    await this.db.transaction().execute(async (trx) => {
      await updateBatch(trx, row.id, { end_at: null, state, transitions: JSON.stringify(transitions) });
      const before = { state: row.state, endAt: row.end_at };
      await audit.deviceChange(trx, user, device, 'brew.resume', { kind: 'batch', id: row.id }, before, {
        state,
        endAt: null,
      });
    });
  }

  async saveGravity(
    { row, device }: BrewBatchRow,
    reading: { id: string; value: number; timestamp: number },
    current: BrewItemRow | undefined,
  ): Promise<void> {
    const user = this.caller();
    const gravity = {
      id: reading.id,
      batch_id: row.id,
      value: reading.value,
      t: reading.timestamp,
      created_by: user.email,
    };
    await this.db.transaction().execute(async (trx) => {
      await upsertGravity(trx, gravity);
      const target = { kind: 'gravity', id: gravity.id, name: `batch ${row.id}` };
      await audit.deviceChange(trx, user, device, 'brew.record', target, current?.row ?? null, {
        value: gravity.value,
        t: gravity.t,
      });
    });
  }

  async saveTastingNote(
    { row, device }: BrewBatchRow,
    {
      id,
      ratings,
      notes,
      timestamp: t,
    }: { id: string; ratings: Record<string, number>; notes: string; timestamp: number },
    mark: {
      kind: string;
      text: string;
      timestamp: number;
      color: string;
      channelCode: string | null;
      sensoryId: string;
    },
    current: BrewItemRow | undefined,
  ): Promise<void> {
    const user = this.caller();
    await this.db.transaction().execute(async (trx) => {
      await upsertSensory(trx, {
        id,
        batch_id: row.id,
        ratings: JSON.stringify(ratings),
        notes,
        t,
        created_by: user.email,
      });
      const kept = await findSensoryAnnotation(trx, id);
      await upsertAnnotation(trx, {
        id: kept?.id ?? newId(),
        batch_id: row.id,
        kind: mark.kind,
        text: mark.text,
        t: mark.timestamp,
        color: mark.color,
        channel_code: mark.channelCode,
        sensory_id: mark.sensoryId,
      });
      const target = { kind: 'sensory', id, name: `batch ${row.id}` };
      await audit.deviceChange(trx, user, device, 'brew.record', target, current?.row ?? null, { ratings, notes, t });
    });
  }

  async saveAnnotation(
    { row, device }: BrewBatchRow,
    {
      id,
      kind,
      text,
      timestamp: t,
      color,
      channelCode,
    }: { id: string; kind: string; text: string; timestamp: number; color: string; channelCode: string | null },
    current: BrewItemRow | undefined,
  ): Promise<void> {
    const user = this.caller();
    const annotation = { id, batch_id: row.id, kind, text, t, color, channel_code: channelCode, sensory_id: null };
    await this.db.transaction().execute(async (trx) => {
      await upsertAnnotation(trx, annotation);
      const target = { kind: 'annotation', id, name: `batch ${row.id}` };
      const after = { kind, text, t, channelCode };
      await audit.deviceChange(trx, user, device, 'brew.record', target, current?.row ?? null, after);
    });
  }

  async deleteItem({ row, device }: BrewBatchRow, list: BatchItemList, item: BrewItemRow): Promise<boolean> {
    const user = this.caller();
    const table = BATCH_ITEM_TABLES[list];
    const deleted = await this.db.transaction().execute(async (trx) => {
      const result = await deleteBatchItem(trx, table, row.id, item.id);
      if (table === 'brew_sensories') await deleteSensoryAnnotation(trx, item.id);
      const count = Number(result.numDeletedRows);
      const kind = { brew_gravities: 'gravity', brew_sensories: 'sensory', brew_annotations: 'annotation' }[table];
      const target = { kind, id: item.id, name: `batch ${row.id}` };
      if (count > 0) await audit.deviceChange(trx, user, device, 'brew.record', target, item.row, null);
      return count;
    });
    return deleted > 0;
  }

  async saveTankSettings(
    { device, tankNumber }: NumberedTank<BrewDeviceRow>,
    settings: TankSettings,
    calibration: TankCalibrationBody['calibration'],
  ): Promise<void> {
    const user = this.caller();
    const gain = settings.co2TotalGain;
    const level = settings.tankLevel && JSON.stringify(settings.tankLevel);
    await this.db.transaction().execute(async (trx) => {
      const [current] = await tankRowsOf(trx, [device.id]);
      await upsertTankRow(trx, {
        device_id: device.id,
        capacity: settings.capacity,
        co2_total_gain: gain,
        tank_level: level,
        updated_by: user.email,
        updated_at: Date.now(),
      });
      const [running] = await runningBatchesOf(trx, [device.id]);
      if (running) await updateBatch(trx, running.id, { co2_total_gain: gain, tank_level: level });
      const before = current
        ? { capacity: current.capacity, co2TotalGain: current.co2_total_gain, tankLevel: current.tank_level }
        : null;
      const target = { kind: 'tank', id: device.id, name: `tank ${tankNumber}` };
      await audit.deviceChange(trx, user, device.row, 'brew.calibrate', target, before, calibration);
    });
  }

  calibrated(group: BrewGroup, { device }: NumberedTank<BrewDeviceRow>, view: Tank): void {
    this.hooks.publish(group.id, device.thingName, view);
  }

  private caller(): UserContext {
    if (!this.user) throw new Error('A brewing call without its caller.');
    return this.user;
  }
}

const EMPTY_ITEMS = { gravities: [], sensories: [], annotations: [], reports: [] };

/** A device row as a tank's device. */
function tankDevice(row: DeviceWithPath): BrewDeviceRow {
  return {
    id: row.id,
    thingName: row.thing_name,
    name: row.name,
    isConnected: row.is_connected === 1,
    custom: row.custom,
    registers: JSON.parse(row.registers || '{}') as Record<string, number>,
    base: row.base,
    tags: JSON.parse(row.tags || '[]') as { key: string; value: string }[],
    row,
  };
}

/** A stored tank row's settings (domain `TankSettings`). */
function tankSettingsOf(row: Pick<BrewTanksTable, 'capacity' | 'co2_total_gain' | 'tank_level'>): TankSettings {
  return {
    capacity: row.capacity,
    co2TotalGain: row.co2_total_gain,
    tankLevel: row.tank_level ? (JSON.parse(row.tank_level) as TankLevelCalibration) : null,
  };
}
