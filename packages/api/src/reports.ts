import { Type, type Static, type TSchema } from '@sinclair/typebox';
import {
  NOTIFY_AUDIENCES,
  REPORT_FORMATS,
  REPORT_FREQUENCIES,
  REPORT_INTERVALS,
  REPORT_STATES,
  REPORT_VISIBILITIES,
  SCHEDULE_TIME_PATTERN,
} from '@fieldlink/domain/reports';
import { DEVICE_MAX_CHANNELS } from '@fieldlink/domain/device-settings';
import { ChannelCode, Email, EntityId, MAX_TIME_MS, Nullable } from './fields';

/**
 * Report and schedule calls (application §7 "Reports"), with the report meta and schedule of §3.
 * docs/decisions.md ("Reports and schedules") says what a report holds and how it is shared.
 */

/** Paths under `/api/v1`, as the specification lists them. */
export const REPORTS_META_PATH = '/reports/meta';
export const REPORT_META_PATH = '/report/meta';
export const REPORT_PATH = '/report';
export const REPORTS_SCHEDULE_PATH = '/reports/schedule';
export const REPORTS_SCHEDULES_PATH = '/reports/schedules';
/** Ours: a report's public link (visibility PUBLIC) is `{PUBLIC_URL}/api/v1/report/public/{token}`. */
export const REPORT_PUBLIC_PATH = '/report/public';

const literals = <T extends string>(values: readonly T[]) => Type.Union(values.map((value) => Type.Literal(value)));

export const ReportStateSchema = literals(REPORT_STATES);
export const ReportFrequencySchema = literals(REPORT_FREQUENCIES);
export const ReportVisibilitySchema = literals(REPORT_VISIBILITIES);
export const NotifyAudienceSchema = literals(NOTIFY_AUDIENCES);
export const ReportFormatSchema = literals(REPORT_FORMATS);
export const ReportIntervalSchema = literals(REPORT_INTERVALS);

const Name = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });
const Comments = Type.String({ maxLength: 2000 });
const Tag = Type.String({ minLength: 1, maxLength: 40, pattern: '\\S' });
const Tags = Type.Array(Tag, { maxItems: 20, uniqueItems: true });
/** Most devices in one report. */
export const REPORT_MAX_DEVICES = 200;

/** Who a report is shared with (§3 "Access: type, groupIds, users"); users are e-mail addresses. */
export const ReportAccess = Type.Object(
  {
    type: ReportVisibilitySchema,
    groupIds: Type.Array(EntityId, { maxItems: 100, uniqueItems: true }),
    users: Type.Array(Email, { maxItems: 100 }),
  },
  { additionalProperties: false },
);
export type ReportAccess = Static<typeof ReportAccess>;

/**
 * Channels of one device a report covers: any of its channels, all of them if wished; the total of a
 * report is bounded by `reportChannelsIssue` (domain).
 */
export const ReportDeviceChannels = Type.Object(
  {
    deviceId: EntityId,
    codes: Type.Array(ChannelCode, { minItems: 1, maxItems: DEVICE_MAX_CHANNELS, uniqueItems: true }),
  },
  { additionalProperties: false },
);
export type ReportDeviceChannels = Static<typeof ReportDeviceChannels>;

const Devices = Type.Array(ReportDeviceChannels, { minItems: 1, maxItems: REPORT_MAX_DEVICES });

/** What a report is made of and who hears of it: shared by a report and the schedule that makes it. */
const templateFields = {
  format: ReportFormatSchema,
  /** The visibility (§3); `access.type` carries the same value. */
  visibility: ReportVisibilitySchema,
  access: ReportAccess,
  notifyAudience: NotifyAudienceSchema,
  /** E-mail addresses told when the audience is SELECTED_USERS. */
  notifyUsers: Type.Array(Email, { maxItems: 100 }),
  devices: Devices,
  interval: ReportIntervalSchema,
};

const strict = <T extends Record<string, TSchema>>(fields: T) => Type.Object(fields, { additionalProperties: false });

/** The body that makes a report or a schedule: its account, its name, comments and tags, and its props. */
const newItemBody = <P extends TSchema>(props: P) =>
  strict({
    accountId: EntityId,
    name: Name,
    comments: Type.Optional(Comments),
    tags: Type.Optional(Tags),
    props,
  });

/** The props of `POST /report`: the period is given in unix milliseconds. */
export const NewReportProps = strict({
  ...templateFields,
  start: Type.Integer({ minimum: 0, maximum: MAX_TIME_MS }),
  end: Type.Integer({ minimum: 0, maximum: MAX_TIME_MS }),
});
export type NewReportProps = Static<typeof NewReportProps>;

/** `POST /report`: the report body. Its generation starts at once (state GENERATING). */
export const NewReportBody = newItemBody(NewReportProps);
export type NewReportBody = Static<typeof NewReportBody>;

/** Report properties as answered: the template, the period, and where generation stands. */
export const ReportProps = Type.Object({
  ...templateFields,
  start: Type.Number(),
  end: Type.Number(),
  state: ReportStateSchema,
  /** Why generation failed (state ERROR). */
  error: Nullable(Type.String()),
  /** Generation progress, 0 to 100, while GENERATING. */
  percent: Nullable(Type.Number()),
  /** The frequency of the schedule that made the report; null for one made on demand. */
  frequency: Nullable(ReportFrequencySchema),
  scheduleId: Nullable(Type.String()),
  /** E-mail of the user who made it (of the schedule's creator for a scheduled one). */
  createdBy: Type.String(),
  fileName: Nullable(Type.String()),
  /** Size of the file in bytes, once READY. */
  size: Nullable(Type.Number()),
  completedAt: Nullable(Type.Number()),
  /** The public link while the visibility is PUBLIC; shown only to those who may edit the report. */
  publicUrl: Nullable(Type.String()),
  /** True when the caller may change or delete the report (its creator, or an administrator over its devices). */
  canChange: Type.Boolean(),
});
export type ReportProps = Static<typeof ReportProps>;

/** What a report and a schedule both answer: where it is, what it is called, when it was made. */
const listedFields = {
  id: Type.String(),
  accountId: Type.String(),
  name: Type.String(),
  comments: Nullable(Type.String()),
  tags: Type.Array(Type.String()),
  createdAt: Type.Number(),
};

/** Report meta (§3): id, accountId, props, state, name, comments, tags, createdAt. */
export const ReportMeta = Type.Object({ ...listedFields, state: ReportStateSchema, props: ReportProps });
export type ReportMeta = Static<typeof ReportMeta>;

export const ReportMetaList = Type.Array(ReportMeta);
export type ReportMetaList = Static<typeof ReportMetaList>;

/** `GET /reports/meta?accountId`. */
export const ReportsMetaQuery = strict({ accountId: EntityId });
export type ReportsMetaQuery = Static<typeof ReportsMetaQuery>;

/** `GET /report/meta?id&accountId`, `DELETE /report {id, accountId}` and `DELETE /reports/schedule {id, accountId}`. */
export const ReportRef = strict({ id: EntityId, accountId: EntityId });
export type ReportRef = Static<typeof ReportRef>;

/** `GET /report` params: the report, and whether the link should download rather than open. */
export const ReportFileQuery = strict({ id: EntityId, accountId: EntityId, download: Type.Optional(Type.Boolean()) });
export type ReportFileQuery = Static<typeof ReportFileQuery>;

/**
 * `PUT /report/meta {id, props, accountId}`: what may change once a report exists (its name,
 * comments, tags and sharing). What it covers is fixed: a different period is a new report.
 */
export const ReportMetaUpdate = strict({
  id: EntityId,
  accountId: EntityId,
  props: strict({
    name: Type.Optional(Name),
    comments: Type.Optional(Nullable(Comments)),
    tags: Type.Optional(Tags),
    visibility: Type.Optional(ReportVisibilitySchema),
    access: Type.Optional(ReportAccess),
    notifyAudience: Type.Optional(NotifyAudienceSchema),
    notifyUsers: Type.Optional(Type.Array(Email, { maxItems: 100 })),
  }),
});
export type ReportMetaUpdate = Static<typeof ReportMetaUpdate>;

/** When a schedule runs (in its time zone) and the period each run covers (the frequency's length). */
const timingFields = {
  frequency: ReportFrequencySchema,
  /** `HH:MM`, 24-hour. */
  time: Type.String({ pattern: SCHEDULE_TIME_PATTERN }),
  /** 0 (Sunday) to 6, for WEEKLY. */
  dayOfWeek: Type.Integer({ minimum: 0, maximum: 6 }),
  /** 1 to 31, for MONTHLY (a shorter month runs on its last day). */
  dayOfMonth: Type.Integer({ minimum: 1, maximum: 31 }),
  /** IANA time zone the time is read in. */
  timeZone: Type.String({ minLength: 1, maxLength: 64 }),
  enabled: Type.Boolean(),
};

export const NewScheduleProps = strict({ ...templateFields, ...timingFields });
export type NewScheduleProps = Static<typeof NewScheduleProps>;

/** `POST /reports/schedule`: the schedule body. */
export const NewScheduleBody = newItemBody(NewScheduleProps);
export type NewScheduleBody = Static<typeof NewScheduleBody>;

export const ScheduleProps = Type.Object({
  ...templateFields,
  ...timingFields,
  createdBy: Type.String(),
  /** The next run (unix ms); null while disabled. */
  nextRunAt: Nullable(Type.Number()),
  lastRunAt: Nullable(Type.Number()),
  /** The report of the last run. */
  lastReportId: Nullable(Type.String()),
  /** True when the caller may change or delete the schedule. */
  canChange: Type.Boolean(),
});
export type ScheduleProps = Static<typeof ScheduleProps>;

/** Report schedule (§3): id, accountId, props, tags, name, comments. */
export const ReportSchedule = Type.Object({ ...listedFields, props: ScheduleProps });
export type ReportSchedule = Static<typeof ReportSchedule>;

export const ReportScheduleList = Type.Array(ReportSchedule);
export type ReportScheduleList = Static<typeof ReportScheduleList>;

/** `GET /reports/schedules`: every schedule the caller may see; `accountId` narrows it to one account. */
export const SchedulesQuery = strict({ accountId: Type.Optional(EntityId) });
export type SchedulesQuery = Static<typeof SchedulesQuery>;

/** `PUT /reports/schedule {id, props, accountId}`: any of the schedule's fields. */
export const ScheduleUpdate = strict({
  id: EntityId,
  accountId: EntityId,
  props: strict({
    name: Type.Optional(Name),
    comments: Type.Optional(Nullable(Comments)),
    tags: Type.Optional(Tags),
    format: Type.Optional(templateFields.format),
    visibility: Type.Optional(templateFields.visibility),
    access: Type.Optional(templateFields.access),
    notifyAudience: Type.Optional(templateFields.notifyAudience),
    notifyUsers: Type.Optional(templateFields.notifyUsers),
    devices: Type.Optional(templateFields.devices),
    interval: Type.Optional(templateFields.interval),
    frequency: Type.Optional(timingFields.frequency),
    time: Type.Optional(timingFields.time),
    dayOfWeek: Type.Optional(timingFields.dayOfWeek),
    dayOfMonth: Type.Optional(timingFields.dayOfMonth),
    timeZone: Type.Optional(timingFields.timeZone),
    enabled: Type.Optional(timingFields.enabled),
  }),
});
export type ScheduleUpdate = Static<typeof ScheduleUpdate>;
