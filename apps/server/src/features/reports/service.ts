import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { ServerAction } from '@fieldlink/api/realtime';
import type {
  NewReportBody,
  NewReportProps,
  NewScheduleBody,
  NewScheduleProps,
  ReportFileQuery,
  ReportMeta,
  ReportMetaUpdate,
  ReportRef,
  ReportSchedule,
  ReportsMetaQuery,
  ScheduleUpdate,
  SchedulesQuery,
} from '@fieldlink/api/reports';
import type { FileUrlAnswer } from '@fieldlink/api/files';
import { channelName } from '@fieldlink/domain/channels';
import { groupIdOfPath, groupPath, parseGroupPath } from '@fieldlink/domain/group-path';
import {
  REPORT_STATE_LABELS,
  nextScheduleRun,
  reportAccessIssue,
  reportChannelsIssue,
  reportPeriodIssue,
  scheduleCatchUp,
  schedulePeriod,
  sortReportsNewestFirst,
  type ReportState,
} from '@fieldlink/domain/reports';
import { isKnownTimeZone } from '@fieldlink/domain/time-zone';
import { workLimitRefusal } from '@fieldlink/domain/work-limits';
import { isPostgresUrl } from '../../db/database';
import { lockLimitedWork } from '../../db/quota-lock';
import type { Database } from '../../db/schema';
import { DocumentJobs, type DocumentKind } from '../../documents/document-jobs';
import type { FileLinks } from '../../documents/file-links';
import type { FileStore, StoredFile } from '../../documents/file-store';
import { documentBrand } from '../../documents/pdf-writer';
import { HttpError, limitReached, notFound } from '../../http-errors';
import type { WebhookService } from '../webhooks/service';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../mail/mailer';
import { newId } from '../../security/secrets';
import { DEVICE_NOT_FOUND, GROUP_NOT_FOUND } from '@fieldlink/api/errors';
import type { AuditAction, AuditTarget } from '@fieldlink/domain/audit';
import { audit, byUser } from '../audit/service';
import { requireCapability, userCan } from '../session/access';
import type { UserContext } from '../session/user-context';
import {
  mayChange,
  maySee,
  viewerCovers,
  viewerOf,
  viewerOfRows,
  worksInAccount,
  type ReportAccount,
  type SharedItem,
  type Viewer,
} from './access';
import { publicReportUrl, toReportMeta, toReportSchedule } from './mapper';
import { writeReportDocument, type PlannedDevice, type ReportPlan } from './report-document';
import { ReportThread } from './report-thread';
import { userClock } from '../users/reader-clock';
import {
  accountWithRoot,
  attachmentPointsOfUser,
  deleteReport,
  deleteSchedule,
  devicePathsOf,
  devicesWithPaths,
  findReport,
  findReportByPublicToken,
  findSchedule,
  groupsOfAccount,
  insertReport,
  insertSchedule,
  reportsCreatedBefore,
  reportCounts,
  reportsOfAccount,
  scheduleCounts,
  schedulesOfAccounts,
  updateReport,
  updateSchedule,
  usersOfAccount,
  type ReportDeviceRow,
  type ReportRow,
  type ScheduleRow,
} from './repository';

export const REPORT_NOT_FOUND = 'Report not found.';
export const SCHEDULE_NOT_FOUND = 'Schedule not found.';
export const ACCOUNT_NOT_FOUND = 'Account not found.';
export const REPORT_NOT_READY = 'The report is not ready yet.';
export const ACCESS_TYPE_MISMATCH = 'access.type must equal visibility.';
export const NOTIFY_USER_UNKNOWN = 'Every user to notify must be a user of the account.';
export const UNKNOWN_TIME_ZONE = 'Unknown time zone.';

/** A report's or schedule's fields as the audit trail keeps them. */
function reportFields(row: { name: string; comments: string | null; tags: string; props: string }) {
  return {
    name: row.name,
    comments: row.comments,
    tags: JSON.parse(row.tags) as unknown,
    props: JSON.parse(row.props) as unknown,
  };
}

/** Records a change to a report or schedule in the audit trail, in the change's transaction. */
function recordReportChange(
  trx: Transaction<Database>,
  user: UserContext,
  accountId: string,
  action: AuditAction,
  target: AuditTarget,
  before: unknown,
  after: unknown,
): Promise<void> {
  return audit.record(trx, { accountId, by: byUser(user), action, target, before, after });
}

/** Job kinds of this feature. */
export const REPORT_JOBS = {
  generate: 'reports.generate',
  remove: 'reports.delete',
  schedule: 'reports.schedule',
} as const;

/** Public-link secrets: 256 random bits (SECURITY.md 20 asks at least 128). */
const PUBLIC_TOKEN_BYTES = 32;
/** A ready report's file is attached to its notice mail up to this size; larger ones are linked. */
export const MAIL_ATTACHMENT_LIMIT_BYTES = 5 * 1024 * 1024;
const DAY_MS = 86_400_000;
/** Reports removed per retention sweep. */
const RETENTION_BATCH = 200;

export interface ReportServiceOptions {
  db: Kysely<Database>;
  /** The database's URL: on PostgreSQL a report is written in a worker thread with connections of its own. */
  databaseUrl: string;
  jobs: JobQueue;
  files: FileStore;
  links: FileLinks;
  mailer: Mailer;
  publicUrl: string;
  productName: string;
  /** The theme of a report's cover when its account has none (configuration DEFAULT_THEME). */
  defaultTheme: string;
  /** Reports older than this many days are removed with their files; 0 keeps them. */
  retentionDays: number;
  /** Pushes an action to the signed-in users who pass `audience` (the real-time hub). */
  notifyUsers: (action: ServerAction, audience: (user: UserContext) => boolean) => void;
  /** Tells the accounts' webhooks that a report is ready. */
  webhooks: WebhookService;
  now?: () => number;
}

/** Report template fields as a report or schedule holds them. */
type Template = Pick<NewReportProps, 'visibility' | 'access' | 'notifyAudience' | 'notifyUsers' | 'devices'>;

/**
 * A schedule as the sharing rules read it. It holds no readings, so it is judged by where its devices
 * were when it was last saved (`scope_path`): its owner keeps it when a device moves away, and each
 * run keeps only the devices the owner sees then (`runSchedule`).
 */
const scheduleShared = (row: ScheduleRow): SharedItem => {
  const props = JSON.parse(row.props) as Template;
  return { createdBy: row.created_by, devicePaths: [row.scope_path], access: props.access };
};

/** The deepest group holding every one of the paths (their common ancestor). */
function deepestCommonPath(paths: readonly string[]): string {
  const parsed = paths.map((path) => parseGroupPath(path) ?? []);
  const [first = [], ...rest] = parsed;
  const common: string[] = [];
  for (const [index, id] of first.entries()) {
    if (!rest.every((ids) => ids[index] === id)) break;
    common.push(id);
  }
  return groupPath(common);
}

/** A file name from the report's name: letters, digits and dashes, with the date of its period's end. */
function fileNameOf(name: string, end: number, format: 'CSV' | 'PDF'): string {
  const stem =
    name
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/[\s_]+/g, '-')
      .slice(0, 60)
      .toLowerCase() || 'report';
  return `${stem}-${new Date(end).toISOString().slice(0, 10)}.${format.toLowerCase()}`;
}

/**
 * Reports and report schedules (application §3, §4, §5, §7): the calls, generation as jobs through
 * the document runner, sharing (the validity rule of `@fieldlink/domain/reports`, public links),
 * schedules that run in their time zone and catch up once after downtime, notice mail, retention.
 */
export class ReportService {
  private readonly db: Kysely<Database>;
  private readonly now: () => number;
  private readonly documents: DocumentJobs;
  /** Where reports are written on PostgreSQL; null on SQLite. */
  private readonly thread: ReportThread | null;

  constructor(private readonly options: ReportServiceOptions) {
    this.db = options.db;
    this.thread = isPostgresUrl(options.databaseUrl) ? new ReportThread(options.databaseUrl) : null;
    this.now = options.now ?? Date.now;
    this.documents = new DocumentJobs(options.jobs, options.files, this.now);
    this.documents.register(REPORT_JOBS.generate, this.generationKind());
    options.jobs.register(REPORT_JOBS.remove, (payload) => this.removeNow((payload as { reportId: string }).reportId));
    options.jobs.register(REPORT_JOBS.schedule, (payload, job) =>
      this.runSchedule((payload as { scheduleId: string }).scheduleId, job.id),
    );
  }

  /** Ends the report worker thread, if one runs (the app is closing). */
  async close(): Promise<void> {
    await this.thread?.close();
  }

  // ---------------------------------------------------------------------------------------------
  // Reports

  /** `GET /reports/meta?accountId`: the reports the caller may see, newest first. */
  async list(user: UserContext, query: ReportsMetaQuery): Promise<ReportMeta[]> {
    requireCapability(user, 'readReports');
    const account = await this.account(user, query.accountId);
    const viewer = viewerOf(user);
    const rows = (await reportsOfAccount(this.db, account.id)).filter((row) => row.state !== 'DELETING');
    const items = await this.reportsShared(rows);
    const metas = await Promise.all(
      rows.flatMap((row, index) =>
        maySee(viewer, items[index]!, account) ? [this.meta(user, row, items[index]!, account)] : [],
      ),
    );
    return sortReportsNewestFirst(metas);
  }

  /** `GET /report/meta?id&accountId`: one report with its state. */
  async get(user: UserContext, ref: ReportRef): Promise<ReportMeta> {
    requireCapability(user, 'readReports');
    const { row, item, account } = await this.visibleReport(user, ref);
    return this.meta(user, row, item, account);
  }

  /**
   * `POST /report`: the report is stored GENERATING and its generation queued, within the limits on
   * reports generating and kept per user and per account (429 naming the limit past one).
   */
  async create(user: UserContext, body: NewReportBody): Promise<ReportMeta> {
    requireCapability(user, 'editReports');
    const account = await this.account(user, body.accountId);
    const periodIssue = reportPeriodIssue(body.props.start, body.props.end, body.props.interval);
    if (periodIssue) throw new HttpError(400, periodIssue);
    const devices = await this.checkTemplate(user, account, body.props);
    const row = await this.db.transaction().execute(async (trx) => {
      await lockLimitedWork(trx, [`reports:account:${account.id}`, `reports:user:${user.id}`]);
      const counts = await reportCounts(trx, account.id, user.id);
      const refusal = workLimitRefusal([
        ['reportsInFlightPerUser', counts.userGenerating + 1],
        ['reportsInFlightPerAccount', counts.accountGenerating + 1],
        ['reportsKeptPerUser', counts.userKept + 1],
        ['reportsKeptPerAccount', counts.accountKept + 1],
      ]);
      if (refusal) throw limitReached(refusal);
      const report = await this.insertGenerating(trx, {
        accountId: account.id,
        name: body.name,
        comments: body.comments ?? null,
        tags: body.tags ?? [],
        props: body.props,
        scopePath: deepestCommonPath(devices.map((device) => device.path)),
        createdBy: user.id,
        createdByEmail: user.email,
        scheduleId: null,
        frequency: null,
      });
      const after = { name: body.name, comments: body.comments ?? null, tags: body.tags ?? [], props: body.props };
      await recordReportChange(
        trx,
        user,
        account.id,
        'report.add',
        { kind: 'report', id: report.id, name: body.name },
        null,
        after,
      );
      return report;
    });
    this.documents.nudge();
    return this.meta(user, row, await this.reportShared(row), account);
  }

  /** `PUT /report/meta {id, props, accountId}`: name, comments, tags and sharing. */
  async update(user: UserContext, body: ReportMetaUpdate): Promise<ReportMeta> {
    requireCapability(user, 'editReports');
    const { row, item, account } = await this.changeableReport(user, body);
    const current = JSON.parse(row.props) as NewReportProps;
    const { name, comments, tags, ...sharing } = body.props;
    const props: NewReportProps = { ...current, ...sharing };
    if (sharing.visibility && !sharing.access) props.access = { ...props.access, type: sharing.visibility };
    if (sharing.access && !sharing.visibility) props.visibility = sharing.access.type;
    await this.checkTemplate(user, account, props);
    const publicToken =
      props.visibility === 'PUBLIC'
        ? (row.public_token ?? randomBytes(PUBLIC_TOKEN_BYTES).toString('base64url'))
        : null;
    const change = {
      name: name ?? row.name,
      comments: comments === undefined ? row.comments : comments,
      tags: tags ? JSON.stringify(tags) : row.tags,
      props: JSON.stringify(props),
    };
    await this.db.transaction().execute(async (trx) => {
      await updateReport(trx, row.id, { ...change, public_token: publicToken });
      const target = { kind: 'report', id: row.id, name: change.name };
      await recordReportChange(trx, user, account.id, 'report.update', target, reportFields(row), reportFields(change));
    });
    const updated = (await findReport(this.db, row.id))!;
    return this.meta(user, updated, item, account);
  }

  /** `DELETE /report {id, accountId}`: DELETING at once; the file and row go in a job. */
  async remove(user: UserContext, ref: ReportRef): Promise<ReportMeta> {
    requireCapability(user, 'editReports');
    const { row, item, account } = await this.changeableReport(user, ref);
    await this.db.transaction().execute(async (trx) => {
      await updateReport(trx, row.id, { state: 'DELETING', public_token: null });
      await this.options.jobs.enqueue(REPORT_JOBS.remove, { reportId: row.id }, {}, trx);
      const target = { kind: 'report', id: row.id, name: row.name };
      await recordReportChange(trx, user, account.id, 'report.delete', target, reportFields(row), null);
    });
    this.options.jobs.nudge();
    const deleting = { ...row, state: 'DELETING', public_token: null };
    this.push(deleting, item, account);
    return this.meta(user, deleting, item, account);
  }

  /** `GET /report?id&accountId`: a short-lived signed URL of a ready report's file. */
  async fileUrl(user: UserContext, query: ReportFileQuery): Promise<FileUrlAnswer> {
    requireCapability(user, 'readReports');
    const { row } = await this.visibleReport(user, query);
    if (row.state !== 'READY' || !row.file_id) throw new HttpError(409, REPORT_NOT_READY);
    return { url: this.options.links.url(row.file_id, query.download === true) };
  }

  /**
   * The file a public link reaches, or undefined (revoked, deleted, never public, or no longer seen by
   * its creator: a link cannot outlast its maker's own right to the devices' readings).
   */
  async publicFile(token: string): Promise<StoredFile | undefined> {
    const row = await findReportByPublicToken(this.db, token);
    if (!row || row.state !== 'READY' || !row.file_id) return undefined;
    const props = JSON.parse(row.props) as NewReportProps;
    if (props.visibility !== 'PUBLIC') return undefined;
    const [creator, account] = await Promise.all([this.userViewer(row.created_by), this.accountOfRow(row.account_id)]);
    if (!creator || !account || !maySee(creator, await this.reportShared(row), account)) return undefined;
    return this.options.files.find(row.file_id);
  }

  // ---------------------------------------------------------------------------------------------
  // Schedules

  /** `GET /reports/schedules`: every schedule the caller may see (of one account when asked). */
  async schedules(user: UserContext, query: SchedulesQuery): Promise<ReportSchedule[]> {
    requireCapability(user, 'readReportSchedules');
    const accountIds = query.accountId
      ? [(await this.account(user, query.accountId)).id]
      : [...new Set(user.attachmentPoints.map((point) => point.accountId))];
    const accounts = new Map<string, ReportAccount>();
    for (const id of accountIds) accounts.set(id, await this.account(user, id));
    return (await schedulesOfAccounts(this.db, accountIds))
      .filter((row) => maySee(viewerOf(user), scheduleShared(row), accounts.get(row.account_id)!))
      .map((row) => this.schedule(user, row, accounts.get(row.account_id)!));
  }

  /**
   * `POST /reports/schedule`: stored, with its first run queued at its next time, within the limits
   * on schedules per user and per account (429 naming the limit past one).
   */
  async createSchedule(user: UserContext, body: NewScheduleBody): Promise<ReportSchedule> {
    requireCapability(user, 'editReportSchedules');
    const account = await this.account(user, body.accountId);
    const devices = await this.checkSchedule(user, account, body.props);
    const id = newId();
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      await lockLimitedWork(trx, [`schedules:account:${account.id}`, `schedules:user:${user.id}`]);
      const counts = await scheduleCounts(trx, account.id, user.id);
      const refusal = workLimitRefusal([
        ['schedulesPerUser', counts.user + 1],
        ['schedulesPerAccount', counts.account + 1],
      ]);
      if (refusal) throw limitReached(refusal);
      const row: ScheduleRow = {
        id,
        account_id: account.id,
        name: body.name,
        comments: body.comments ?? null,
        tags: JSON.stringify(body.tags ?? []),
        props: JSON.stringify(body.props),
        scope_path: deepestCommonPath(devices.map((device) => device.path)),
        created_by: user.id,
        created_by_email: user.email,
        created_at: now,
        next_run_at: null,
        last_run_at: null,
        last_report_id: null,
        job_id: null,
      };
      await insertSchedule(trx, row);
      await this.queueNextRun(trx, id, body.props, now);
      const target = { kind: 'schedule', id, name: body.name };
      await recordReportChange(trx, user, account.id, 'schedule.add', target, null, reportFields(row));
    });
    return this.schedule(user, (await findSchedule(this.db, id))!, account);
  }

  /** `PUT /reports/schedule {id, props, accountId}`: any field; the next run follows the new timing. */
  async updateSchedule(user: UserContext, body: ScheduleUpdate): Promise<ReportSchedule> {
    requireCapability(user, 'editReportSchedules');
    const { row, account } = await this.changeableSchedule(user, body);
    const { name, comments, tags, ...fields } = body.props;
    const props: NewScheduleProps = { ...(JSON.parse(row.props) as NewScheduleProps), ...fields };
    if (fields.visibility && !fields.access) props.access = { ...props.access, type: fields.visibility };
    if (fields.access && !fields.visibility) props.visibility = fields.access.type;
    const devices = await this.checkSchedule(user, account, props);
    await this.db.transaction().execute(async (trx) => {
      const change = {
        name: name ?? row.name,
        comments: comments === undefined ? row.comments : comments,
        tags: tags ? JSON.stringify(tags) : row.tags,
        props: JSON.stringify(props),
      };
      await updateSchedule(trx, row.id, {
        ...change,
        scope_path: deepestCommonPath(devices.map((device) => device.path)),
      });
      await this.queueNextRun(trx, row.id, props, this.now());
      const target = { kind: 'schedule', id: row.id, name: change.name };
      await recordReportChange(
        trx,
        user,
        account.id,
        'schedule.update',
        target,
        reportFields(row),
        reportFields(change),
      );
    });
    return this.schedule(user, (await findSchedule(this.db, row.id))!, account);
  }

  /** `DELETE /reports/schedule {id, accountId}`: its reports stay. */
  async removeSchedule(user: UserContext, ref: ReportRef): Promise<ReportSchedule> {
    requireCapability(user, 'editReportSchedules');
    const { row, account } = await this.changeableSchedule(user, ref);
    await this.db.transaction().execute(async (trx) => {
      await deleteSchedule(trx, row.id);
      const target = { kind: 'schedule', id: row.id, name: row.name };
      await recordReportChange(trx, user, account.id, 'schedule.delete', target, reportFields(row), null);
    });
    return this.schedule(user, row, account);
  }

  // ---------------------------------------------------------------------------------------------
  // Jobs

  /** A run of a schedule: the report of the latest due period, then the next run queued. */
  private async runSchedule(scheduleId: string, jobId: string): Promise<void> {
    const schedule = await findSchedule(this.db, scheduleId);
    // A job the schedule no longer points at was replaced (timing changed, schedule deleted).
    if (!schedule || schedule.job_id !== jobId || schedule.next_run_at === null) return;
    const props = JSON.parse(schedule.props) as NewScheduleProps;
    const now = this.now();
    const outcome = scheduleCatchUp(props, Number(schedule.next_run_at), now);
    // Scope at the time of the run (issue 34 item 9): only the devices its owner sees now, wherever
    // they were when the schedule was saved. None left: this run makes no report (lastReportId null).
    const owner = await this.userViewer(schedule.created_by);
    await this.db.transaction().execute(async (trx) => {
      let reportId: string | null = schedule.last_report_id;
      if (outcome.due) {
        const period = schedulePeriod(props, outcome.runAt);
        const paths = await devicePathsOf(
          trx,
          props.devices.map((device) => device.deviceId),
        );
        const kept = props.devices.filter((device) => {
          const path = paths.get(device.deviceId);
          return owner !== null && path !== undefined && viewerCovers(owner, path);
        });
        const report =
          kept.length > 0 &&
          (await this.insertGenerating(trx, {
            accountId: schedule.account_id,
            name: schedule.name,
            comments: schedule.comments,
            tags: JSON.parse(schedule.tags) as string[],
            props: {
              format: props.format,
              visibility: props.visibility,
              access: props.access,
              notifyAudience: props.notifyAudience,
              notifyUsers: props.notifyUsers,
              devices: kept,
              interval: props.interval,
              start: period.start,
              end: period.end,
            },
            scopePath: deepestCommonPath(kept.map((device) => paths.get(device.deviceId)!)),
            createdBy: schedule.created_by,
            createdByEmail: schedule.created_by_email,
            scheduleId: schedule.id,
            frequency: props.frequency,
          }));
        reportId = report ? report.id : null;
      }
      const nextJobId = await this.options.jobs.enqueue(
        REPORT_JOBS.schedule,
        { scheduleId },
        { runAt: outcome.nextRunAt },
        trx,
      );
      await updateSchedule(trx, scheduleId, {
        last_run_at: outcome.due ? outcome.runAt : schedule.last_run_at,
        last_report_id: reportId,
        next_run_at: outcome.nextRunAt,
        job_id: nextJobId,
      });
    });
    this.options.jobs.nudge();
  }

  /** Removes a report's file and row (the DELETING state's job). */
  private async removeNow(reportId: string): Promise<void> {
    const row = await findReport(this.db, reportId);
    if (!row) return;
    if (row.file_id) await this.options.files.remove(row.file_id);
    await deleteReport(this.db, reportId);
  }

  /**
   * Removes reports past the retention period. Run each time a report is ready, so an installation
   * that makes reports keeps the last N days of them, with no standing job.
   */
  private async applyRetention(): Promise<void> {
    if (this.options.retentionDays <= 0) return;
    const before = this.now() - this.options.retentionDays * DAY_MS;
    const old = await reportsCreatedBefore(this.db, before, RETENTION_BATCH);
    for (const report of old) await this.removeNow(report.id);
  }

  private generationKind(): DocumentKind<{ reportId: string }> {
    const load = async (reportId: string) => {
      const row = await findReport(this.db, reportId);
      if (!row || row.state === 'DELETING') return null;
      return row;
    };
    return {
      describe: async ({ reportId }) => {
        const row = await findReport(this.db, reportId);
        const props = row ? (JSON.parse(row.props) as NewReportProps) : null;
        const format = props?.format ?? 'CSV';
        return {
          name: fileNameOf(row?.name ?? 'report', props?.end ?? this.now(), format),
          contentType: format === 'PDF' ? 'application/pdf' : 'text/csv; charset=utf-8',
        };
      },
      produce: async ({ reportId }, output) => {
        const row = await load(reportId);
        if (!row) return;
        const plan = await this.plan(row);
        // PostgreSQL aggregates in its own processes; the formatting of a large report is the work
        // left here, done in a worker thread so requests go on meanwhile. SQLite reads in this
        // process (an in-memory database has no other connection) and yields between its reads.
        if (this.thread) {
          await this.thread.write(plan, output);
        } else {
          await writeReportDocument(this.db, plan, output);
        }
      },
      onProgress: async ({ reportId }, percent) => {
        const row = await load(reportId);
        if (!row) return;
        await updateReport(this.db, reportId, { percent });
        await this.pushRow({ ...row, percent });
      },
      onReady: async ({ reportId }, file) => {
        const row = await load(reportId);
        if (!row) {
          await this.options.files.remove(file.id);
          return;
        }
        const ready = { state: 'READY', error: null, percent: 100, file_id: file.id, completed_at: this.now() };
        const updated = { ...row, ...ready };
        const told = await this.db.transaction().execute(async (trx) => {
          await updateReport(trx, reportId, ready);
          return this.options.webhooks.emit(trx, {
            type: 'report.ready',
            devicePath: row.scope_path,
            accountId: row.account_id,
            summary: `The report "${row.name}" is ready.`,
            data: {
              report: {
                id: row.id,
                name: row.name,
                scheduleId: row.schedule_id,
                createdBy: row.created_by_email,
                completedAt: ready.completed_at,
                link: `${this.options.publicUrl}/reports`,
              },
            },
            at: ready.completed_at,
          });
        });
        if (told > 0) this.options.jobs.nudge();
        await this.pushRow(updated);
        await this.sendNotices(updated, file);
        await this.applyRetention();
      },
      onError: async ({ reportId }, message) => {
        const row = await load(reportId);
        if (!row) return;
        const failed = { state: 'ERROR', error: message, percent: null };
        await updateReport(this.db, reportId, failed);
        await this.pushRow({ ...row, ...failed });
      },
    };
  }

  /** What the document is written from: devices and channel names as they are now, the account's brand. */
  private async plan(row: ReportRow): Promise<ReportPlan> {
    const props = JSON.parse(row.props) as NewReportProps;
    const devices = new Map(
      (
        await devicesWithPaths(
          this.db,
          props.devices.map((device) => device.deviceId),
        )
      ).map((device) => [device.id, device]),
    );
    const planned: PlannedDevice[] = [];
    for (const wanted of props.devices) {
      const device = devices.get(wanted.deviceId);
      if (!device) continue;
      const configured = JSON.parse(device.channels) as { code: string; name?: string }[];
      planned.push({
        id: device.id,
        name: device.name,
        thingName: device.thing_name,
        channels: wanted.codes.map((code) => ({
          code,
          name: channelName(code, configured.find((channel) => channel.code === code)?.name),
        })),
      });
    }
    const account = await accountWithRoot(this.db, row.account_id);
    return {
      name: row.name,
      comments: row.comments,
      format: props.format,
      devices: planned,
      start: props.start,
      end: props.end,
      interval: props.interval,
      createdBy: row.created_by_email,
      clock: await userClock(this.db, { id: row.created_by }),
      brand: documentBrand({
        productName: this.options.productName,
        accountName: account?.name ?? '',
        theme: account?.theme ?? null,
        defaultTheme: this.options.defaultTheme,
      }),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Helpers

  private async insertGenerating(
    trx: Transaction<Database>,
    report: {
      accountId: string;
      name: string;
      comments: string | null;
      tags: string[];
      props: NewReportProps;
      scopePath: string;
      createdBy: string;
      createdByEmail: string;
      scheduleId: string | null;
      frequency: NewScheduleProps['frequency'] | null;
    },
  ): Promise<ReportRow> {
    const row: ReportRow = {
      id: newId(),
      account_id: report.accountId,
      name: report.name,
      comments: report.comments,
      tags: JSON.stringify(report.tags),
      props: JSON.stringify(report.props),
      state: 'GENERATING',
      error: null,
      percent: 0,
      scope_path: report.scopePath,
      schedule_id: report.scheduleId,
      frequency: report.frequency,
      created_by: report.createdBy,
      created_by_email: report.createdByEmail,
      public_token: report.props.visibility === 'PUBLIC' ? randomBytes(PUBLIC_TOKEN_BYTES).toString('base64url') : null,
      file_id: null,
      created_at: this.now(),
      completed_at: null,
    };
    await insertReport(trx, row);
    await this.documents.enqueue(REPORT_JOBS.generate, { reportId: row.id }, trx);
    return row;
  }

  /** Queues the schedule's next run (replacing any queued one), or none while disabled. */
  private async queueNextRun(
    trx: Transaction<Database>,
    scheduleId: string,
    props: NewScheduleProps,
    now: number,
  ): Promise<void> {
    if (!props.enabled) {
      await updateSchedule(trx, scheduleId, { next_run_at: null, job_id: null });
      return;
    }
    const nextRunAt = nextScheduleRun(props, now);
    const jobId = await this.options.jobs.enqueue(REPORT_JOBS.schedule, { scheduleId }, { runAt: nextRunAt }, trx);
    await updateSchedule(trx, scheduleId, { next_run_at: nextRunAt, job_id: jobId });
  }

  /** An account with its groups, or null when it is gone. */
  private async accountOfRow(accountId: string): Promise<ReportAccount | null> {
    const row = await accountWithRoot(this.db, accountId);
    if (!row) return null;
    return {
      id: row.id,
      rootPath: row.rootPath,
      groupPaths: new Map((await groupsOfAccount(this.db, row.id)).map((group) => [group.id, group.path])),
    };
  }

  /** The account when the caller works in it, with its groups; 404 otherwise (as for a missing one). */
  private async account(user: UserContext, accountId: string): Promise<ReportAccount> {
    const account = await this.accountOfRow(accountId);
    if (!account || !worksInAccount(viewerOf(user), account)) throw notFound(ACCOUNT_NOT_FOUND);
    return account;
  }

  /** A user who is not the caller (a schedule's owner, a link's maker) as a viewer now; null once gone. */
  private async userViewer(userId: string): Promise<Viewer | null> {
    const points = await attachmentPointsOfUser(this.db, userId);
    return points.length === 0 ? null : viewerOfRows(userId, points[0]!.email, points);
  }

  /**
   * Reports as the sharing rules read them, with each device's group as it is now (one lookup for all
   * of them). A device since removed is judged by where the report's devices were when it was made.
   */
  private async reportsShared(rows: readonly ReportRow[]): Promise<SharedItem[]> {
    const props = rows.map((row) => JSON.parse(row.props) as Template);
    const paths = await devicePathsOf(
      this.db,
      props.flatMap((template) => template.devices.map((device) => device.deviceId)),
    );
    return rows.map((row, index) => ({
      createdBy: row.created_by,
      devicePaths: props[index]!.devices.map((device) => paths.get(device.deviceId) ?? row.scope_path),
      access: props[index]!.access,
    }));
  }

  private async reportShared(row: ReportRow): Promise<SharedItem> {
    return (await this.reportsShared([row]))[0]!;
  }

  private async visibleReport(user: UserContext, ref: ReportRef) {
    const account = await this.account(user, ref.accountId).catch(() => {
      throw notFound(REPORT_NOT_FOUND);
    });
    const row = await findReport(this.db, ref.id);
    if (!row || row.account_id !== account.id || row.state === 'DELETING') throw notFound(REPORT_NOT_FOUND);
    const item = await this.reportShared(row);
    if (!maySee(viewerOf(user), item, account)) throw notFound(REPORT_NOT_FOUND);
    return { row, item, account };
  }

  private async changeableReport(user: UserContext, ref: ReportRef) {
    const visible = await this.visibleReport(user, ref);
    if (!mayChange(viewerOf(user), visible.item, visible.account)) throw notFound(REPORT_NOT_FOUND);
    return visible;
  }

  private async changeableSchedule(user: UserContext, ref: ReportRef) {
    const account = await this.account(user, ref.accountId).catch(() => {
      throw notFound(SCHEDULE_NOT_FOUND);
    });
    const row = await findSchedule(this.db, ref.id);
    if (!row || row.account_id !== account.id || !mayChange(viewerOf(user), scheduleShared(row), account)) {
      throw notFound(SCHEDULE_NOT_FOUND);
    }
    return { row, account };
  }

  /**
   * Checks a report's or schedule's devices and sharing: at most `REPORT_MAX_CHANNELS` channels in
   * all, every device in the caller's scope (404 like a missing one otherwise), access.type equal to the visibility, the
   * selected groups and users in the account, the validity rule (§5), the users to notify.
   */
  private async checkTemplate(
    user: UserContext,
    account: ReportAccount,
    template: Template,
  ): Promise<ReportDeviceRow[]> {
    const ids = template.devices.map((device) => device.deviceId);
    if (new Set(ids).size !== ids.length) throw new HttpError(400, 'Name each device once.');
    const channelsIssue = reportChannelsIssue(template.devices);
    if (channelsIssue) throw new HttpError(400, channelsIssue);
    const devices = await devicesWithPaths(this.db, ids);
    // Any device in the caller's scope, whatever account the report is kept under: a supplier reports
    // on its customers' devices from its own account (issue 35).
    for (const id of ids) {
      const device = devices.find((row) => row.id === id);
      if (!device || !viewerCovers(viewerOf(user), device.path)) throw notFound(DEVICE_NOT_FOUND);
    }
    if (template.access.type !== template.visibility) throw new HttpError(400, ACCESS_TYPE_MISMATCH);
    if (template.access.groupIds.some((id) => !account.groupPaths.has(id))) throw new HttpError(400, GROUP_NOT_FOUND);
    const accountUsers = await usersOfAccount(this.db, account.id);
    const groupsOf = (email: string) =>
      accountUsers
        .filter((row) => row.email.toLowerCase() === email.trim().toLowerCase())
        .map((row) => groupIdOfPath(row.path) ?? '');
    const issue = reportAccessIssue(
      {
        type: template.access.type,
        groupIds: template.access.groupIds,
        userGroupIds: template.access.users.map(groupsOf),
      },
      devices.map((device) => device.path),
    );
    if (issue) throw new HttpError(400, issue);
    if (
      template.notifyAudience === 'SELECTED_USERS' &&
      template.notifyUsers.some((email) => groupsOf(email).length === 0)
    ) {
      throw new HttpError(400, NOTIFY_USER_UNKNOWN);
    }
    return devices;
  }

  private async checkSchedule(user: UserContext, account: ReportAccount, props: NewScheduleProps) {
    if (!isKnownTimeZone(props.timeZone)) throw new HttpError(400, UNKNOWN_TIME_ZONE);
    return this.checkTemplate(user, account, props);
  }

  private schedule(user: UserContext, row: ScheduleRow, account: ReportAccount): ReportSchedule {
    return toReportSchedule(
      row,
      userCan(user, 'editReportSchedules') && mayChange(viewerOf(user), scheduleShared(row), account),
    );
  }

  private async meta(user: UserContext, row: ReportRow, item: SharedItem, account: ReportAccount): Promise<ReportMeta> {
    const file = row.file_id ? await this.options.files.find(row.file_id) : undefined;
    return toReportMeta(row, file ?? null, {
      canChange: userCan(user, 'editReports') && mayChange(viewerOf(user), item, account),
      publicUrl: this.options.publicUrl,
    });
  }

  /** Tells the browsers of those who may see the report where it stands. */
  private push(row: ReportRow, item: SharedItem, account: ReportAccount): void {
    this.options.notifyUsers(
      {
        type: 'server/reportProgress',
        reportId: row.id,
        accountId: row.account_id,
        state: row.state as ReportState,
        percent: row.percent === null ? null : Number(row.percent),
        error: row.error,
      },
      (user) => {
        const viewer = viewerOf(user);
        return viewer.readsReports && maySee(viewer, item, account);
      },
    );
  }

  private async pushRow(row: ReportRow): Promise<void> {
    const account = await this.accountOfRow(row.account_id);
    if (account) this.push(row, await this.reportShared(row), account);
  }

  /** Mails the report's notify audience that it is ready, with the file attached when small. */
  private async sendNotices(row: ReportRow, file: StoredFile): Promise<void> {
    const props = JSON.parse(row.props) as NewReportProps;
    if (props.notifyAudience === 'NOBODY') return;
    const account = await this.accountOfRow(row.account_id);
    if (!account) return;
    const item = await this.reportShared(row);
    const users = await usersOfAccount(this.db, row.account_id);
    const byUser = new Map<string, typeof users>();
    for (const entry of users) byUser.set(entry.id, [...(byUser.get(entry.id) ?? []), entry]);
    const selected = new Set(props.notifyUsers.map((email) => email.trim().toLowerCase()));
    const link = `${this.options.publicUrl}/reports?report=${encodeURIComponent(row.id)}`;
    const publicLink = row.public_token ? publicReportUrl(this.options.publicUrl, row.public_token) : null;
    for (const [id, points] of byUser) {
      const email = points[0]!.email;
      if (props.notifyAudience === 'SELECTED_USERS' && !selected.has(email.toLowerCase())) continue;
      const viewer = viewerOfRows(
        id,
        email,
        points.map((point) => ({
          accountId: row.account_id,
          path: point.path,
          ordinal: point.ordinal,
          permissions: point.permissions,
          secretPermissions: point.secret_permissions,
        })),
      );
      if (!viewer.readsReports || !maySee(viewer, item, account)) continue;
      await this.options.mailer.send({
        to: email,
        subject: `Report ready: ${row.name}`,
        text: [
          `The report "${row.name}" is ready (${REPORT_STATE_LABELS.READY.toLowerCase()}).`,
          '',
          `Open it in ${this.options.productName}: ${link}`,
          ...(publicLink ? [`Public link: ${publicLink}`] : []),
          file.size <= MAIL_ATTACHMENT_LIMIT_BYTES
            ? `The file ${file.name} is attached.`
            : `The file ${file.name} is too large to attach; open it from the link.`,
        ].join('\n'),
        link,
        ...(file.size <= MAIL_ATTACHMENT_LIMIT_BYTES
          ? { attachments: [{ fileId: file.id, name: file.name, contentType: file.contentType }] }
          : {}),
      });
    }
  }
}
