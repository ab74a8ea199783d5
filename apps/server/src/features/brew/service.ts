import type { Kysely } from 'kysely';
import type { BatchIdBody, BrewReport, Tank } from '@fieldlink/api/brew';
import { workLimitRefusal } from '@fieldlink/domain/work-limits';
import { BrewCalls } from '@fieldlink/services/brew-service';
import type { Database } from '../../db/schema';
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
import { selectDevices } from '../devices/repository';
import { toReport } from './mapper';
import {
  batchReportCounts,
  batchReportsCreatedBefore,
  findBatch,
  findReport,
  deleteReport,
  insertReport,
  updateReport,
  waitingReportsOf,
} from './repository';
import { BrewReportWriter, REPORT_NEEDS_ORIGINAL_GRAVITY, batchReportFileName } from './report';
import { ServerBrewStore } from './brew-store';
import { BATCH_NOT_FOUND } from '@fieldlink/api/errors';

export const REPORT_NOT_FOUND = 'Report not found.';
/** The job that writes a batch report (a document of `documents/document-jobs.ts`). */
export const BREW_REPORT_JOB = 'brewReport';
/** The job that removes batch reports past their retention (queued once an hour by one instance). */
export const BATCH_REPORT_RETENTION_JOB = 'brewReportRetention';

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

  // ---- Reading and editing (the calls of `@fieldlink/services/brew-service`) -----------------------

  /** The shared brewing calls over this caller's store: the permission is checked before each. */
  calls(user: UserContext | null) {
    const store = new ServerBrewStore(this.db, user, {
      propsChanged: async (trx, batchId, props) => {
        if (props.originalGravity === null) return;
        for (const report of await waitingReportsOf(trx, batchId)) {
          await updateReport(trx, report.id, { state: 'GENERATING', error: null });
          await this.documents.enqueue(BREW_REPORT_JOB, { reportId: report.id }, trx);
        }
      },
      ended: async (trx, batchId, reportId, caller, now) => {
        await insertReport(trx, this.newReport(reportId, batchId, caller, now));
        await this.documents.enqueue(BREW_REPORT_JOB, { reportId }, trx);
      },
      nudge: () => this.documents.nudge(),
      removeFiles: async (fileIds) => {
        for (const fileId of fileIds) await this.deps.files.remove(fileId);
      },
      announce: (deviceId) => this.announce(deviceId),
      publish: (groupId, thingName, tank) => this.publish(groupId, thingName, tank),
    });
    return new BrewCalls(store, this.now);
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

  // ---- Helpers -----------------------------------------------------------------------------------

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

  /** Sends the device's tank to the sockets watching the device. */
  async announce(deviceId: string): Promise<void> {
    const device = await selectDevices(this.db).where('devices.id', '=', deviceId).executeTakeFirst();
    if (!device) return;
    const calls = this.calls(null);
    const tanks = await calls.numbered(device.group_id);
    const source = tanks.find((tank) => tank.device.id === deviceId);
    if (!source) return;
    const [tank] = await calls.tanks([source]);
    this.publish(device.group_id, device.thing_name, tank!);
  }

  private publish(groupId: string, thingName: string, tank: Tank): void {
    this.deps.events.emit({ type: 'server/brewTank', thingName, groupId, tank });
  }
}
