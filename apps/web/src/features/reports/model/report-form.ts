import type { Account, GroupNode } from '@fieldlink/api/account';
import type {
  NewReportBody,
  NewScheduleBody,
  ReportMeta,
  ReportSchedule,
  ReportMetaUpdate,
  ScheduleUpdate,
} from '@fieldlink/api/reports';
import { channelName } from '@fieldlink/domain/channels';
import {
  reportAccessIssue,
  reportChannelsIssue,
  reportPeriodIssue,
  type NotifyAudience,
  type ReportFormat,
  type ReportFrequency,
  type ReportInterval,
  type ReportVisibility,
} from '@fieldlink/domain/reports';

/** A device that can go in a report, with where it sits and its channels. */
export interface PickableDevice {
  id: string;
  name: string;
  thingName: string;
  groupName: string;
  groupPath: string;
  channels: { code: string; name: string }[];
}

/** A group that can be shared with. */
export interface PickableGroup {
  id: string;
  name: string;
  path: string;
}

/** A user that can be shared with or notified: every group they are attached at. */
export interface PickableUser {
  email: string;
  name: string;
  groupIds: string[];
}

/** What the account tree offers a report of one account. */
export interface ReportChoices {
  devices: PickableDevice[];
  groups: PickableGroup[];
  users: PickableUser[];
}

/** The devices, groups and users of an account, from the tree (trash and new-device groups left out). */
export function reportChoices(account: Account): ReportChoices {
  const devices: PickableDevice[] = [];
  const groups: PickableGroup[] = [];
  const users = new Map<string, PickableUser>();
  const visit = (group: GroupNode) => {
    if (group.kind === 'trash' || group.kind === 'new') return;
    groups.push({ id: group.id, name: group.name, path: group.relativePath });
    for (const device of group.devices) {
      devices.push({
        id: device.id,
        name: device.name,
        thingName: device.thingName,
        groupName: group.name,
        groupPath: group.relativePath,
        channels: (device.channels ?? []).map((channel) => ({
          code: channel.code,
          name: channelName(channel.code, channel.name),
        })),
      });
    }
    for (const user of group.fullUsers) {
      const known = users.get(user.email) ?? {
        email: user.email,
        name: `${user.firstName} ${user.lastName}`.trim() || user.email,
        groupIds: [],
      };
      known.groupIds.push(group.id);
      users.set(user.email, known);
    }
    group.groups.forEach(visit);
  };
  visit(account.rootGroup);
  return { devices, groups, users: [...users.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}

/** The last N days, or a custom period. */
export type PeriodChoice = 'DAY' | 'WEEK' | 'MONTH' | 'CUSTOM';

export const PERIOD_CHOICES: { value: PeriodChoice; label: string; days: number }[] = [
  { value: 'DAY', label: 'Last 24 hours', days: 1 },
  { value: 'WEEK', label: 'Last 7 days', days: 7 },
  { value: 'MONTH', label: 'Last 30 days', days: 30 },
  { value: 'CUSTOM', label: 'Custom', days: 0 },
];

/** Everything the report and schedule dialogs edit. */
export interface ReportForm {
  name: string;
  comments: string;
  tags: string[];
  format: ReportFormat;
  interval: ReportInterval;
  /** Chosen channel codes by device id. */
  channels: Record<string, string[]>;
  period: PeriodChoice;
  start: number;
  end: number;
  visibility: ReportVisibility;
  groupIds: string[];
  users: string[];
  notifyAudience: NotifyAudience;
  notifyUsers: string[];
  frequency: ReportFrequency;
  time: string;
  dayOfWeek: number;
  dayOfMonth: number;
  timeZone: string;
  enabled: boolean;
}

const DAY_MS = 86_400_000;

/**
 * A fresh form: a CSV of the last 24 hours per hour, only me, nobody told; schedules weekly on
 * Monday 07:00 in the reader's own zone.
 */
export function emptyReportForm(now: number, timeZone: string): ReportForm {
  return {
    name: '',
    comments: '',
    tags: [],
    format: 'CSV',
    interval: 'HOUR',
    channels: {},
    period: 'DAY',
    start: now - DAY_MS,
    end: now,
    visibility: 'CREATOR_ONLY',
    groupIds: [],
    users: [],
    notifyAudience: 'NOBODY',
    notifyUsers: [],
    frequency: 'WEEKLY',
    time: '07:00',
    dayOfWeek: 1,
    dayOfMonth: 1,
    timeZone,
    enabled: true,
  };
}

type Template = ReportMeta['props'] | ReportSchedule['props'];

function fromTemplate(
  base: ReportForm,
  item: { name: string; comments: string | null; tags: string[] },
  props: Template,
) {
  return {
    ...base,
    name: item.name,
    comments: item.comments ?? '',
    tags: item.tags,
    format: props.format,
    interval: props.interval,
    channels: Object.fromEntries(props.devices.map((device) => [device.deviceId, device.codes])),
    visibility: props.visibility,
    groupIds: props.access.groupIds,
    users: props.access.users,
    notifyAudience: props.notifyAudience,
    notifyUsers: props.notifyUsers,
  };
}

/** The form of an existing report. */
export function reportFormOf(report: ReportMeta, now: number, timeZone: string): ReportForm {
  return {
    ...fromTemplate(emptyReportForm(now, timeZone), report, report.props),
    period: 'CUSTOM',
    start: report.props.start,
    end: report.props.end,
  };
}

/** The form of an existing schedule. */
export function scheduleFormOf(schedule: ReportSchedule, now: number, timeZone: string): ReportForm {
  const { props } = schedule;
  return {
    ...fromTemplate(emptyReportForm(now, timeZone), schedule, props),
    frequency: props.frequency,
    time: props.time,
    dayOfWeek: props.dayOfWeek,
    dayOfMonth: props.dayOfMonth,
    timeZone: props.timeZone,
    enabled: props.enabled,
  };
}

/** The report's period: a preset counts back from now. */
export function periodOf(form: ReportForm, now: number): { start: number; end: number } {
  const preset = PERIOD_CHOICES.find((choice) => choice.value === form.period);
  if (!preset || preset.value === 'CUSTOM') return { start: form.start, end: form.end };
  return { start: now - preset.days * DAY_MS, end: now };
}

const chosenDevices = (form: ReportForm) =>
  Object.entries(form.channels)
    .filter(([, codes]) => codes.length > 0)
    .map(([deviceId, codes]) => ({ deviceId, codes }));

/** Why sharing as chosen is not allowed (the domain's validity rule, §5), or null. */
export function accessIssueOf(form: ReportForm, choices: ReportChoices): string | null {
  const devicePaths = chosenDevices(form).flatMap(
    ({ deviceId }) => choices.devices.find((device) => device.id === deviceId)?.groupPath ?? [],
  );
  return reportAccessIssue(
    {
      type: form.visibility,
      groupIds: form.groupIds,
      userGroupIds: form.users.map((email) => choices.users.find((user) => user.email === email)?.groupIds ?? []),
    },
    devicePaths,
  );
}

/** What keeps the form from being saved, in the order a person would fix it; null when it can be. */
export function formIssue(
  form: ReportForm,
  choices: ReportChoices,
  now: number,
  kind: 'report' | 'schedule',
): string | null {
  if (form.name.trim() === '') return 'Give the report a name.';
  if (chosenDevices(form).length === 0) return 'Choose at least one channel.';
  const channels = reportChannelsIssue(chosenDevices(form));
  if (channels) return channels;
  if (kind === 'report') {
    const { start, end } = periodOf(form, now);
    const issue = reportPeriodIssue(start, end, form.interval);
    if (issue) return issue;
  }
  const access = accessIssueOf(form, choices);
  if (access) return access;
  if (form.notifyAudience === 'SELECTED_USERS' && form.notifyUsers.length === 0) return 'Choose who to notify.';
  return null;
}

const optionalComments = (form: ReportForm) => (form.comments.trim() === '' ? undefined : form.comments.trim());

function templateOf(form: ReportForm) {
  return {
    format: form.format,
    visibility: form.visibility,
    access: {
      type: form.visibility,
      groupIds: form.visibility === 'SELECTED_GROUPS_IN_SCOPE' ? form.groupIds : [],
      users: form.visibility === 'SELECTED_USERS_IN_SCOPE' ? form.users : [],
    },
    notifyAudience: form.notifyAudience,
    notifyUsers: form.notifyAudience === 'SELECTED_USERS' ? form.notifyUsers : [],
    devices: chosenDevices(form),
    interval: form.interval,
  };
}

/** `POST /report` body. */
export function newReportBody(form: ReportForm, accountId: string, now: number): NewReportBody {
  return {
    accountId,
    name: form.name.trim(),
    comments: optionalComments(form),
    tags: form.tags,
    props: { ...templateOf(form), ...periodOf(form, now) },
  };
}

/** `PUT /report/meta` body: what may change once a report exists. */
export function reportUpdateBody(form: ReportForm, report: ReportMeta): ReportMetaUpdate {
  const { visibility, access, notifyAudience, notifyUsers } = templateOf(form);
  return {
    id: report.id,
    accountId: report.accountId,
    props: {
      name: form.name.trim(),
      comments: optionalComments(form) ?? null,
      tags: form.tags,
      visibility,
      access,
      notifyAudience,
      notifyUsers,
    },
  };
}

function timingOf(form: ReportForm) {
  return {
    frequency: form.frequency,
    time: form.time,
    dayOfWeek: form.dayOfWeek,
    dayOfMonth: form.dayOfMonth,
    timeZone: form.timeZone,
    enabled: form.enabled,
  };
}

/** `POST /reports/schedule` body. */
export function newScheduleBody(form: ReportForm, accountId: string): NewScheduleBody {
  return {
    accountId,
    name: form.name.trim(),
    comments: optionalComments(form),
    tags: form.tags,
    props: { ...templateOf(form), ...timingOf(form) },
  };
}

/** `PUT /reports/schedule` body. */
export function scheduleUpdateBody(form: ReportForm, schedule: ReportSchedule): ScheduleUpdate {
  return {
    id: schedule.id,
    accountId: schedule.accountId,
    props: {
      name: form.name.trim(),
      comments: optionalComments(form) ?? null,
      tags: form.tags,
      ...templateOf(form),
      ...timingOf(form),
    },
  };
}

/** Tags typed as comma-separated text, trimmed, blanks and repeats dropped. */
export function parseTags(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ''),
    ),
  ];
}
