import type { Kysely } from 'kysely';
import type {
  Batch,
  BatchIdBody,
  BatchItemBody,
  BrewBatchesAnswer,
  BrewBatchesQuery,
  BrewMeta,
  BrewOverviewQuery,
  BrewReport,
  PutAnnotationBody,
  PutBatchBody,
  PutGravityBody,
  PutSensoryBody,
  StartBatchBody,
  Tank,
  TankCalibrationBody,
} from '@fieldlink/api/brew';
import { tankLogQuery, type TankLevelCalibration, type TankState } from '@fieldlink/domain/brew';
import {
  batchListEntry,
  batchStart,
  brewSummary,
  numberedTanks,
  tankView,
  type TankSettings,
} from '@fieldlink/domain/brew-views';
import {
  BATCH_ITEM_NOT_FOUND,
  calibratedTank,
  chartAnnotation,
  endedBatch,
  gravityReading,
  isRefusal,
  itemDeleteRefusal,
  resumedBatch,
  startBatchRefusal,
  tastingNote,
  type BatchEditRefusal,
  type BatchItemList,
} from '@fieldlink/domain/brew-edits';
import { workLimitRefusal } from '@fieldlink/domain/work-limits';
import type { BrewBatchesTable, BrewTanksTable, Database } from '../../db/schema';
import type { DeviceEvents } from '../../events';
import { DocumentJobs, type DocumentKind } from '../../documents/document-jobs';
import type { FileLinks } from '../../documents/file-links';
import type { FileStore } from '../../documents/file-store';
import { lockLimitedWork } from '../../db/quota-lock';
import type { JobQueue } from '../../jobs/job-queue';
import { HttpError, limitReached, notFound } from '../../http-errors';
import { newId } from '../../security/secrets';
import { audit } from '../audit/service';
import { inScope, requireCapability } from '../session/access';
import type { UserContext } from '../session/user-context';
import { findGroup, latestValuesOf, type DeviceWithPath } from '../devices/repository';
import { channelLogs } from '../devices/log-repository';
import { logBinGrid } from '@fieldlink/api/device-logs';
import { batchProps, batchTransitions, toBatch, toReport } from './mapper';
import {
  batchItemsOf,
  batchReportCounts,
  batchReportsCreatedBefore,
  batchesOf,
  deleteBatch,
  deleteBatchItem,
  deleteSensoryAnnotation,
  findAnnotation,
  findBatch,
  findBatchItem,
  findReport,
  findSensoryAnnotation,
  insertBatch,
  deleteReport,
  insertReport,
  runningBatchesOf,
  tankDevicesOf,
  tankRowsOf,
  updateBatch,
  updateReport,
  upsertAnnotation,
  upsertGravity,
  upsertSensory,
  upsertTankRow,
  waitingReportsOf,
} from './repository';
import { selectDevices } from '../devices/repository';
import { BrewReportWriter, REPORT_NEEDS_ORIGINAL_GRAVITY, batchReportFileName } from './report';

export const GROUP_NOT_FOUND = 'Group not found.';
export const BATCH_NOT_FOUND = 'Batch not found.';
export const TANK_NOT_FOUND = 'Tank not found.';
export const REPORT_NOT_FOUND = 'Report not found.';
/** The job that writes a batch report (a document of `documents/document-jobs.ts`). */
export const BREW_REPORT_JOB = 'brewReport';
/** The job that removes batch reports past their retention (queued once an hour by one instance). */
export const BATCH_REPORT_RETENTION_JOB = 'brewReportRetention';
/** How often the retention job is queued, and how long after start the first time. */

/** The tables of a batch's lists. */
const BATCH_ITEM_TABLES = {
  gravities: 'brew_gravities',
  sensories: 'brew_sensories',
  annotations: 'brew_annotations',
} as const;

/** Throws the domain's refusal of an edit as the HTTP error it names; passes anything else on. */
function refuse<T extends object>(answer: T | BatchEditRefusal | null): T {
  if (answer !== null && isRefusal(answer)) throw new HttpError(answer.status, answer.message);
  return answer as T;
}

const RETENTION_EVERY_MS = 3_600_000;
/** Batch reports removed per transaction of a retention run. */
const RETENTION_BATCH = 200;
const DAY_MS = 86_400_000;

/** What the brewing service needs from the app. */
export interface BrewDependencies {
  db: Kysely<Database>;
  events: DeviceEvents;
  jobs: JobQueue;
  files: FileStore;
  links: FileLinks;
  /** The product and the theme of a report's band when its account has none. */
  productName: string;
  defaultTheme: string;
  /** Days a batch report and its file are kept (0: forever). */
  reportRetentionDays: number;
  now?: () => number;
}

/** One device of a group as a tank, with what is known about it. */
interface TankSource {
  device: DeviceWithPath;
  tankNumber: number;
}

/**
 * Brewing calls (application §7). Reading needs VIEW_DASH and the group or batch in the caller's
 * scope; batch info, gravity readings, tasting notes, annotations and tank calibration need
 * EDIT_BREW_INFO; ending END_BREW; deleting BREW_DELETE; the CO2 total gain BREW_CALIB_CO2_TOTAL_GAIN.
 * The permission is checked first, then the scope: another account's ids answer exactly like ids
 * that do not exist.
 */
export class BrewService {
  private readonly documents: DocumentJobs;

  private stopQueueing: () => void = () => undefined;
  private readonly now: () => number;

  constructor(private readonly deps: BrewDependencies) {
    this.now = deps.now ?? Date.now;
    this.documents = new DocumentJobs(deps.jobs, deps.files);
    this.documents.register(BREW_REPORT_JOB, this.reportKind());
    deps.jobs.register(BATCH_REPORT_RETENTION_JOB, () => this.applyRetention().then(() => undefined), {
      maxAttempts: 3,
    });
  }

  private get db() {
    return this.deps.db;
  }

  // ---- Reading -----------------------------------------------------------------------------------

  /** `GET /brew/overview ?groupId, tankNumber`: every tank of the group; the selected one with its log. */
  async overview(user: UserContext, query: BrewOverviewQuery): Promise<BrewMeta> {
    requireCapability(user, 'viewDashboard');
    const group = await this.visibleGroup(user, query.groupId);
    const sources = await this.tankSources(group.id);
    const selected = query.tankNumber ?? null;
    const tanks = await this.tanks(sources);
    const withLog = await Promise.all(
      tanks.map(async (tank) =>
        tank.tankNumber === selected ? { ...tank, rawDeviceLogs: await this.tankLog(tank) } : tank,
      ),
    );
    return brewSummary(group, withLog, selected);
  }

  /** The running batch's log (domain `tankLogQuery`), as `GET /device-logs` answers it; null without a batch. */
  private async tankLog(tank: Tank): Promise<Tank['rawDeviceLogs']> {
    const batch = tank.batchInfo;
    if (!batch) return null;
    const { channels, start, end, binCount } = tankLogQuery(batch.channelsMap, batch.date, this.now());
    const grid = logBinGrid(start, end, binCount);
    const logs = await channelLogs(this.db, tank.deviceId, channels, { start, end }, binCount, grid);
    return { deviceId: tank.deviceId, start, end, binCount, binWidth: grid.width, channels: logs };
  }

  /** `GET /brew/batches ?groupId, accountId, isDemoMode`: the group's batches, newest first. */
  async batches(user: UserContext, query: BrewBatchesQuery): Promise<BrewBatchesAnswer> {
    requireCapability(user, 'viewDashboard');
    const group = await this.visibleGroup(user, query.groupId);
    if (query.accountId !== undefined && query.accountId !== group.account_id) throw notFound(GROUP_NOT_FOUND);
    const sources = await this.tankSources(group.id);
    const byDevice = new Map(sources.map((source) => [source.device.id, source]));
    const rows = await batchesOf(this.db, [...byDevice.keys()], query.isDemoMode === true);
    const items = await batchItemsOf(
      this.db,
      rows.map((row) => row.id),
    );
    return {
      batches: rows.map((row) => {
        const source = byDevice.get(row.device_id)!;
        const gravities = items.gravities.filter((item) => item.batch_id === row.id);
        const latestReport = items.reports.find((report) => report.batch_id === row.id);
        const batch = {
          id: row.id,
          deviceId: row.device_id,
          state: row.state as TankState,
          date: { start: row.start_at, end: row.end_at },
          props: batchProps(row),
          gravities,
          sensoryCount: items.sensories.filter((item) => item.batch_id === row.id).length,
          isDemo: row.is_demo === 1,
        };
        const tank = { tankNumber: source.tankNumber, name: source.device.name };
        return batchListEntry(batch, tank, latestReport ? toReport(latestReport) : null);
      }),
    };
  }

  /** `GET /brew/batch ?batchId`. */
  async batch(user: UserContext, batchId: string): Promise<Batch> {
    requireCapability(user, 'viewDashboard');
    const { row } = await this.visibleBatch(user, batchId);
    return this.batchAnswer(row);
  }

  // ---- Batch life cycle --------------------------------------------------------------------------

  /** `POST /brew/batch {groupId, tankNumber, props}`: starts a batch on a tank without one. */
  async start(user: UserContext, body: StartBatchBody): Promise<Batch> {
    requireCapability(user, 'editBrewInfo');
    const group = await this.visibleGroup(user, body.groupId);
    const source = (await this.tankSources(group.id)).find((tank) => tank.tankNumber === body.tankNumber);
    if (!source) throw notFound(TANK_NOT_FOUND);
    const { device } = source;
    const [running] = await runningBatchesOf(this.db, [device.id]);
    refuse(startBatchRefusal(body.tankNumber, running !== undefined));
    const [tankRow] = await tankRowsOf(this.db, [device.id]);
    const latest = await this.latestOf([device.id]);
    const now = Date.now();
    const start = batchStart(
      device.custom,
      tankRow && tankSettingsOf(tankRow),
      (code) => latest.get(device.id)?.get(code),
      now,
    );
    const row: BrewBatchesTable = {
      id: newId(),
      device_id: device.id,
      state: start.state,
      start_at: now,
      end_at: null,
      props: JSON.stringify(body.props),
      transitions: JSON.stringify(start.transitions),
      is_demo: 0,
      channels_map: JSON.stringify(start.channelsMap),
      co2_total_gain: start.calibration.co2TotalGain,
      // The tank's calibration as stored (the batch keeps the same text).
      tank_level: tankRow?.tank_level ?? null,
      tank_level_at_ferm_start: start.tankLevelAtFermStart,
      co2_total_at_start: start.co2TotalAtStart,
      pressurized_at: null,
      frozen_gravity: null,
      created_by: user.email,
      created_at: now,
    };
    await this.db.transaction().execute(async (trx) => {
      await insertBatch(trx, row);
      const after = { tankNumber: body.tankNumber, props: body.props, state: row.state };
      await audit.deviceChange(trx, user, device, 'brew.start', { kind: 'batch', id: row.id }, null, after);
    });
    return this.changed(row.id);
  }

  /** `PUT /brew/batch {batchId, props}`: batch info. A report waiting for an original gravity is made again. */
  async update(user: UserContext, { batchId, props }: PutBatchBody): Promise<Batch> {
    requireCapability(user, 'editBrewInfo');
    const { row, device } = await this.visibleBatch(user, batchId);
    const merged = { ...batchProps(row), ...props };
    await this.db.transaction().execute(async (trx) => {
      await updateBatch(trx, row.id, { props: JSON.stringify(merged) });
      const target = { kind: 'batch', id: row.id };
      await audit.deviceChange(trx, user, device, 'brew.update', target, { props: batchProps(row) }, { props: merged });
      if (merged.originalGravity === null) return;
      for (const report of await waitingReportsOf(trx, row.id)) {
        await updateReport(trx, report.id, { state: 'GENERATING', error: null });
        await this.documents.enqueue(BREW_REPORT_JOB, { reportId: report.id }, trx);
      }
    });
    this.documents.nudge();
    return this.changed(row.id);
  }

  /** `DELETE /brew/batch {batchId}`: the batch and all that belongs to it. */
  async remove(user: UserContext, { batchId }: BatchIdBody): Promise<{ id: string }> {
    requireCapability(user, 'deleteBrew');
    const { row, device } = await this.visibleBatch(user, batchId);
    const files = await this.db.transaction().execute(async (trx) => {
      const removed = await deleteBatch(trx, row.id);
      const before = { props: batchProps(row), state: row.state, startAt: row.start_at, endAt: row.end_at };
      await audit.deviceChange(trx, user, device, 'brew.delete', { kind: 'batch', id: row.id }, before, null);
      return removed;
    });
    for (const fileId of files) await this.deps.files.remove(fileId);
    await this.announce(row.device_id);
    return { id: row.id };
  }

  /** `POST /brew/batch/end {batchId}`: ends the batch (MANUALLY_ENDED) and starts its report. */
  async end(user: UserContext, { batchId }: BatchIdBody): Promise<Batch> {
    requireCapability(user, 'endBrew');
    const { row, device } = await this.visibleBatch(user, batchId);
    const now = Date.now();
    const ended = refuse(endedBatch({ end: row.end_at, transitions: batchTransitions(row) }, now));
    const reportId = newId();
    await this.db.transaction().execute(async (trx) => {
      await updateBatch(trx, row.id, {
        end_at: ended.end,
        state: ended.state,
        transitions: JSON.stringify(ended.transitions),
      });
      await insertReport(trx, this.newReport(reportId, row.id, user, now));
      await this.documents.enqueue(BREW_REPORT_JOB, { reportId }, trx);
      const target = { kind: 'batch', id: row.id };
      const after = { state: 'MANUALLY_ENDED', endAt: now, reportId };
      await audit.deviceChange(trx, user, device, 'brew.end', target, { state: row.state, endAt: null }, after);
    });
    this.documents.nudge();
    return this.changed(row.id);
  }

  /** `DELETE /brew/batch/end {batchId}`: takes back an end; the tank must not have started another batch. */
  async resume(user: UserContext, { batchId }: BatchIdBody): Promise<Batch> {
    requireCapability(user, 'endBrew');
    const { row, device } = await this.visibleBatch(user, batchId);
    const running = row.end_at === null ? [] : await runningBatchesOf(this.db, [row.device_id]);
    const course = { end: row.end_at, transitions: batchTransitions(row) };
    const { state, transitions } = refuse(resumedBatch(course, running.length > 0, Date.now()));
    await this.db.transaction().execute(async (trx) => {
      await updateBatch(trx, row.id, { end_at: null, state, transitions: JSON.stringify(transitions) });
      const before = { state: row.state, endAt: row.end_at };
      await audit.deviceChange(trx, user, device, 'brew.resume', { kind: 'batch', id: row.id }, before, {
        state,
        endAt: null,
      });
    });
    return this.changed(row.id);
  }

  // ---- Gravity readings, tasting notes, annotations ---------------------------------------------

  /** `PUT /brew/batch/gravity`: a hydrometer or refractometer reading. */
  async putGravity(user: UserContext, body: PutGravityBody): Promise<Batch> {
    requireCapability(user, 'editBrewInfo');
    const { row, device } = await this.visibleBatch(user, body.batchId);
    const current = body.id === undefined ? undefined : await findBatchItem(this.db, 'brew_gravities', row.id, body.id);
    const reading = refuse(gravityReading(body, current !== undefined, row.start_at, Date.now(), newId));
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
      await audit.deviceChange(trx, user, device, 'brew.record', target, current ?? null, {
        value: gravity.value,
        t: gravity.t,
      });
    });
    return this.changed(row.id);
  }

  /** `PUT /brew/batch/sensory`: a tasting note, marked on the chart by a blue annotation. */
  async putSensory(user: UserContext, body: PutSensoryBody): Promise<Batch> {
    requireCapability(user, 'editBrewInfo');
    const { row, device } = await this.visibleBatch(user, body.batchId);
    const current = body.id === undefined ? undefined : await findBatchItem(this.db, 'brew_sensories', row.id, body.id);
    const { sensory, mark } = refuse(tastingNote(body, current !== undefined, Date.now(), newId));
    const { id, ratings, notes, timestamp: t } = sensory;
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
      await audit.deviceChange(trx, user, device, 'brew.record', target, current ?? null, { ratings, notes, t });
    });
    return this.changed(row.id);
  }

  /** `PUT /brew/batch/annotation`: a note on the chart (grey), across it or on one channel. */
  async putAnnotation(user: UserContext, body: PutAnnotationBody): Promise<Batch> {
    requireCapability(user, 'editBrewInfo');
    const { row, device } = await this.visibleBatch(user, body.batchId);
    const current = body.id === undefined ? undefined : await findAnnotation(this.db, row.id, body.id);
    const kept = current && { id: current.id, sensoryId: current.sensory_id };
    const { id, kind, text, timestamp: t, color, channelCode } = refuse(chartAnnotation(body, kept, Date.now(), newId));
    const annotation = {
      id,
      batch_id: row.id,
      kind,
      text,
      t,
      color,
      channel_code: channelCode,
      sensory_id: null,
    };
    await this.db.transaction().execute(async (trx) => {
      await upsertAnnotation(trx, annotation);
      const target = { kind: 'annotation', id: annotation.id, name: `batch ${row.id}` };
      const after = { kind, text: annotation.text, t: annotation.t, channelCode: annotation.channel_code };
      await audit.deviceChange(trx, user, device, 'brew.record', target, current ?? null, after);
    });
    return this.changed(row.id);
  }

  /** `DELETE /brew/batch/gravity {id, batchId}`. */
  async deleteGravity(user: UserContext, body: BatchItemBody): Promise<Batch> {
    return this.deleteItem(user, body, 'gravities');
  }

  /** `DELETE /brew/batch/sensory {id, batchId}`: the note and its annotation. */
  async deleteSensory(user: UserContext, body: BatchItemBody): Promise<Batch> {
    return this.deleteItem(user, body, 'sensories');
  }

  /** `DELETE /brew/batch/annotation {id, batchId}`; a tasting note's mark goes with the note. */
  async deleteAnnotation(user: UserContext, body: BatchItemBody): Promise<Batch> {
    return this.deleteItem(user, body, 'annotations');
  }

  private async deleteItem(user: UserContext, { id, batchId }: BatchItemBody, list: BatchItemList): Promise<Batch> {
    requireCapability(user, 'editBrewInfo');
    const { row, device } = await this.visibleBatch(user, batchId);
    const table = BATCH_ITEM_TABLES[list];
    const annotation = list === 'annotations' ? await findAnnotation(this.db, row.id, id) : undefined;
    refuse(itemDeleteRefusal(list, annotation ? { sensoryId: annotation.sensory_id } : null));
    const current = await findBatchItem(this.db, table, row.id, id);
    const deleted = await this.db.transaction().execute(async (trx) => {
      const result = await deleteBatchItem(trx, table, row.id, id);
      if (table === 'brew_sensories') await deleteSensoryAnnotation(trx, id);
      const count = Number(result.numDeletedRows);
      const kind = { brew_gravities: 'gravity', brew_sensories: 'sensory', brew_annotations: 'annotation' }[table];
      const target = { kind, id, name: `batch ${row.id}` };
      if (count > 0) await audit.deviceChange(trx, user, device, 'brew.record', target, current ?? null, null);
      return count;
    });
    if (deleted === 0) throw notFound(BATCH_ITEM_NOT_FOUND[list]);
    return this.changed(row.id);
  }

  // ---- Reports -----------------------------------------------------------------------------------

  /**
   * `POST /brew/batch/report/generate {batchId}`: a new report of the batch, made in the background,
   * within the limits on batch reports generating and kept per user and per account (429 naming the
   * limit past one). The report made by ending a batch is not limited: ending must not fail.
   */
  async generateReport(user: UserContext, { batchId }: BatchIdBody): Promise<BrewReport> {
    requireCapability(user, 'viewDashboard');
    const { row, device } = await this.visibleBatch(user, batchId);
    const id = newId();
    const report = this.newReport(id, row.id, user, Date.now());
    await this.db.transaction().execute(async (trx) => {
      await lockLimitedWork(trx, [`batchReports:account:${device.account_id}`, `batchReports:user:${user.email}`]);
      const counts = await batchReportCounts(trx, device.account_id, user.email);
      const refusal = workLimitRefusal([
        ['batchReportsInFlightPerUser', counts.userGenerating + 1],
        ['batchReportsInFlightPerAccount', counts.accountGenerating + 1],
        ['batchReportsKeptPerUser', counts.userKept + 1],
        ['batchReportsKeptPerAccount', counts.accountKept + 1],
      ]);
      if (refusal) throw limitReached(refusal);
      await insertReport(trx, report);
      await this.documents.enqueue(BREW_REPORT_JOB, { reportId: id }, trx);
      await audit.deviceChange(trx, user, device, 'brew.report', { kind: 'brewReport', id }, null, { batchId: row.id });
    });
    this.documents.nudge();
    await this.announce(row.device_id);
    return toReport(report);
  }

  /** Queues the retention job every `everyMinutes` while batch reports have a retention (jobs' `enqueueEvery`). */
  startRetention(everyMinutes: number): void {
    if (this.deps.reportRetentionDays > 0) {
      this.stopQueueing = this.deps.jobs.enqueueEvery(BATCH_REPORT_RETENTION_JOB, everyMinutes);
    }
  }

  stopRetention(): void {
    this.stopQueueing();
  }

  /** Queues this period's retention run: one job however many instances ask, run by one of them. */
  queueRetention(everyMs = RETENTION_EVERY_MS): Promise<void> {
    return this.deps.jobs.enqueuePeriod(BATCH_REPORT_RETENTION_JOB, everyMs);
  }

  /** Removes batch reports older than the retention, with their files; answers how many went. */
  private async applyRetention(): Promise<number> {
    if (this.deps.reportRetentionDays <= 0) return 0;
    const before = this.now() - this.deps.reportRetentionDays * DAY_MS;
    let removed = 0;
    for (;;) {
      const old = await batchReportsCreatedBefore(this.db, before, RETENTION_BATCH);
      if (old.length === 0) return removed;
      for (const report of old) {
        await deleteReport(this.db, report.id);
        if (report.file_id) await this.deps.files.remove(report.file_id);
      }
      removed += old.length;
      for (const deviceId of new Set(old.map((report) => report.device_id))) await this.announce(deviceId);
    }
  }

  /** `GET /brew/batch/report/state ?id`. */
  async reportState(user: UserContext, id: string): Promise<BrewReport> {
    requireCapability(user, 'viewDashboard');
    return toReport(await this.visibleReport(user, id));
  }

  /** `GET /brew/batch/report ?id`: `{url}`, a signed link to the PDF for a few minutes (`GET /file`). */
  async reportUrl(user: UserContext, id: string): Promise<{ url: string }> {
    requireCapability(user, 'viewDashboard');
    const report = await this.visibleReport(user, id);
    if (report.state !== 'READY' || !report.file_id) throw new HttpError(409, 'The report is not ready yet.');
    return { url: this.deps.links.url(report.file_id, true) };
  }

  /**
   * Batch reports as documents of the shared runner: written by {@link BrewReportWriter} into a
   * stored file, READY with it; a batch without an original gravity waits for the brewer
   * (AWAITING_USER) and is written again when one is entered; other failures are ERROR with the
   * reason. Batch reports show their state, not a percentage (§4). A report deleted meanwhile (its
   * batch deleted) leaves no file behind.
   */
  private reportKind(): DocumentKind<{ reportId: string }> {
    const writer = new BrewReportWriter(this.db, {
      productName: this.deps.productName,
      defaultTheme: this.deps.defaultTheme,
    });
    const generating = async (reportId: string) => {
      const report = await findReport(this.db, reportId);
      return report?.state === 'GENERATING' ? report : null;
    };
    const settle = async (reportId: string, update: Parameters<typeof updateReport>[2]) => {
      const report = await generating(reportId);
      if (!report) return false;
      await updateReport(this.db, reportId, update);
      const batch = await findBatch(this.db, report.batch_id);
      if (batch) await this.announce(batch.device_id);
      return true;
    };
    return {
      describe: async ({ reportId }) => {
        const report = await findReport(this.db, reportId);
        const batch = report ? await findBatch(this.db, report.batch_id) : undefined;
        return { name: batch ? batchReportFileName(batch) : 'batch-report.pdf', contentType: 'application/pdf' };
      },
      produce: async ({ reportId }, output) => {
        const report = await generating(reportId);
        if (report) await writer.write(report.batch_id, report.created_by, output.file);
      },
      onProgress: async () => undefined,
      onReady: async ({ reportId }, file) => {
        const ready = await settle(reportId, {
          state: 'READY',
          error: null,
          file_id: file.id,
          generated_at: Date.now(),
        });
        if (!ready) await this.deps.files.remove(file.id);
      },
      onError: async ({ reportId }, message) => {
        await settle(
          reportId,
          message === REPORT_NEEDS_ORIGINAL_GRAVITY
            ? { state: 'AWAITING_USER', error: message }
            : { state: 'ERROR', error: message },
        );
      },
    };
  }

  // ---- Tank calibration --------------------------------------------------------------------------

  /**
   * `PUT /brew/tank/calibration {groupId, tankNumber, calibration}`: the CO2 total gain (needs
   * BREW_CALIB_CO2_TOTAL_GAIN), the tank level's scale and offset and the capacity (EDIT_BREW_INFO);
   * neither for a monitor-only user.
   * The running batch takes the new gain and level calibration too: they correct its estimate.
   */
  async calibrate(user: UserContext, body: TankCalibrationBody): Promise<Tank> {
    const { calibration } = body;
    if (calibration.co2TotalGain !== undefined) requireCapability(user, 'calibrateCo2TotalGain');
    if (calibration.tankLevel !== undefined || calibration.capacity !== undefined) {
      requireCapability(user, 'calibrateTankLevel');
    }
    const group = await this.visibleGroup(user, body.groupId);
    const sources = await this.tankSources(group.id);
    const source = sources.find((tank) => tank.tankNumber === body.tankNumber);
    if (!source) throw notFound(TANK_NOT_FOUND);
    const deviceId = source.device.id;
    const [current] = await tankRowsOf(this.db, [deviceId]);
    const settings = calibratedTank(current && tankSettingsOf(current), calibration);
    const gain = settings.co2TotalGain;
    const level = settings.tankLevel && JSON.stringify(settings.tankLevel);
    await this.db.transaction().execute(async (trx) => {
      await upsertTankRow(trx, {
        device_id: deviceId,
        capacity: settings.capacity,
        co2_total_gain: gain,
        tank_level: level,
        updated_by: user.email,
        updated_at: Date.now(),
      });
      const [running] = await runningBatchesOf(trx, [deviceId]);
      if (running) await updateBatch(trx, running.id, { co2_total_gain: gain, tank_level: level });
      const before = current
        ? { capacity: current.capacity, co2TotalGain: current.co2_total_gain, tankLevel: current.tank_level }
        : null;
      const target = { kind: 'tank', id: deviceId, name: `tank ${body.tankNumber}` };
      await audit.deviceChange(trx, user, source.device, 'brew.calibrate', target, before, calibration);
    });
    const [tank] = await this.tanks([source]);
    this.publish(group.id, source.device.thing_name, tank!);
    return tank!;
  }

  // ---- Helpers -----------------------------------------------------------------------------------

  private async visibleGroup(user: UserContext, groupId: string) {
    const group = await findGroup(this.db, groupId);
    if (!group || !inScope(user, group.path)) throw notFound(GROUP_NOT_FOUND);
    return group;
  }

  /** A batch whose tank the caller may see, or 404 (the same whether it exists elsewhere or not at all). */
  private async visibleBatch(user: UserContext, batchId: string) {
    const row = await findBatch(this.db, batchId);
    const device = row
      ? await selectDevices(this.db).where('devices.id', '=', row.device_id).executeTakeFirst()
      : undefined;
    if (!row || !device || !inScope(user, device.path)) throw notFound(BATCH_NOT_FOUND);
    return { row, device };
  }

  private async visibleReport(user: UserContext, id: string) {
    const report = await findReport(this.db, id);
    if (!report) throw notFound(REPORT_NOT_FOUND);
    await this.visibleBatch(user, report.batch_id).catch(() => {
      throw notFound(REPORT_NOT_FOUND);
    });
    return report;
  }

  private newReport(id: string, batchId: string, user: UserContext, now: number) {
    return {
      id,
      batch_id: batchId,
      state: 'GENERATING',
      error: null,
      file_id: null,
      created_by: user.email,
      created_at: now,
      generated_at: null,
    };
  }

  private async batchAnswer(row: BrewBatchesTable): Promise<Batch> {
    return toBatch(row, await batchItemsOf(this.db, [row.id]));
  }

  /** After a change: the batch as stored now, and its tank to the browsers watching it. */
  private async changed(batchId: string): Promise<Batch> {
    const row = (await findBatch(this.db, batchId))!;
    await this.announce(row.device_id);
    return this.batchAnswer(row);
  }

  /** Sends the device's tank to the sockets watching the device. */
  async announce(deviceId: string): Promise<void> {
    const device = await selectDevices(this.db).where('devices.id', '=', deviceId).executeTakeFirst();
    if (!device) return;
    const source = (await this.tankSources(device.group_id)).find((tank) => tank.device.id === deviceId);
    if (!source) return;
    const [tank] = await this.tanks([source]);
    this.publish(device.group_id, device.thing_name, tank!);
  }

  private publish(groupId: string, thingName: string, tank: Tank): void {
    this.deps.events.emit({ type: 'server/brewTank', thingName, groupId, tank });
  }

  /** The group's fermentation vessels (domain `isFermentationVessel`), numbered: its other devices are no tanks. */
  private async tankSources(groupId: string): Promise<TankSource[]> {
    return numberedTanks(await tankDevicesOf(this.db, groupId), (device) => ({
      base: device.base,
      tags: JSON.parse(device.tags || '[]') as { key: string; value: string }[],
      registers: registersOf(device),
    }));
  }

  private async latestOf(deviceIds: readonly string[]): Promise<Map<string, Map<string, number>>> {
    const latest = new Map<string, Map<string, number>>();
    for (const row of await latestValuesOf(this.db, deviceIds)) {
      const values = latest.get(row.device_id) ?? new Map<string, number>();
      values.set(row.code, row.value);
      latest.set(row.device_id, values);
    }
    return latest;
  }

  /** The tanks as the brew summary shows them: state, gravity estimate, running batch. */
  private async tanks(sources: readonly TankSource[]): Promise<Tank[]> {
    const ids = sources.map((source) => source.device.id);
    const [rows, running, latest] = await Promise.all([
      tankRowsOf(this.db, ids),
      runningBatchesOf(this.db, ids),
      this.latestOf(ids),
    ]);
    const items = await batchItemsOf(
      this.db,
      running.map((batch) => batch.id),
    );
    return sources.map(({ device, tankNumber }) => {
      const row = rows.find((entry) => entry.device_id === device.id);
      const batch = running.find((entry) => entry.device_id === device.id);
      const values = latest.get(device.id);
      return tankView({
        device: {
          id: device.id,
          thingName: device.thing_name,
          name: device.name,
          isConnected: device.is_connected === 1,
          custom: device.custom,
          registers: registersOf(device),
        },
        tankNumber,
        settings: row && tankSettingsOf(row),
        batch: batch ? toBatch(batch, items) : null,
        latest: (code) => values?.get(code),
      });
    });
  }
}

/** A stored tank row's settings (domain `TankSettings`). */
function tankSettingsOf(row: Pick<BrewTanksTable, 'capacity' | 'co2_total_gain' | 'tank_level'>): TankSettings {
  return {
    capacity: row.capacity,
    co2TotalGain: row.co2_total_gain,
    tankLevel: row.tank_level ? (JSON.parse(row.tank_level) as TankLevelCalibration) : null,
  };
}

function registersOf(device: DeviceWithPath): Record<string, number> {
  return JSON.parse(device.registers || '{}') as Record<string, number>;
}
