import { Type, type Static } from '@sinclair/typebox';
import { ALARM_SEVERITIES, ALARM_STATUSES, MAX_ALARM_DELAY_SECONDS } from '@fieldlink/domain/alarms';
import { ChannelCode, EntityId, Nullable, Timestamp } from './fields';
import { errorAnswers } from './errors';
import { apiRoute } from './routes';

/**
 * Alarm calls: the specification's `GET /device/alarms ?deviceId` and `PUT /device/alarm {alarm}`
 * (application §7), and ours for the /alarms and /alerts pages. Times are unix milliseconds.
 */

/**
 * A number or null in a request. One JSON-schema type list rather than a union: the server's
 * validator coerces types, and in a union it would read `null` as the number 0.
 */
const NullableNumber = Type.Unsafe<number | null>({ type: ['number', 'null'] });
const Severity = Type.Union(ALARM_SEVERITIES.map((severity) => Type.Literal(severity)));
const Side = Type.Union([Type.Literal('HIGH'), Type.Literal('LOW')]);
const Status = Type.Union(ALARM_STATUSES.map((status) => Type.Literal(status)));

/** The alarm of one channel, as stored and as sent by `PUT /device/alarm`. */
export const AlarmConfig = Type.Object(
  {
    deviceId: EntityId,
    code: ChannelCode,
    enabled: Type.Boolean(),
    high: NullableNumber,
    low: NullableNumber,
    hysteresis: Type.Number({ minimum: 0 }),
    delaySeconds: Type.Integer({ minimum: 0, maximum: MAX_ALARM_DELAY_SECONDS }),
    severity: Severity,
  },
  { additionalProperties: false },
);
export type AlarmConfig = Static<typeof AlarmConfig>;

/** One raised alarm: raised, perhaps acknowledged, perhaps cleared. */
export const AlarmRecord = Type.Object({
  id: Type.String(),
  deviceId: Type.String(),
  thingName: Type.String(),
  deviceName: Type.String(),
  code: Type.String(),
  /** The channel's display name (`SP_1`) or its own name. */
  channelName: Type.String(),
  /** The unit the device gives the channel (`°C`), or empty: the value and threshold are in it. */
  units: Type.String(),
  side: Side,
  severity: Severity,
  threshold: Type.Number(),
  /** The value that raised it. */
  value: Type.Number(),
  raisedAt: Type.Number(),
  clearedAt: Nullable(Type.Number()),
  clearedValue: Nullable(Type.Number()),
  acknowledgedAt: Nullable(Type.Number()),
  /** E-mail of who acknowledged it. */
  acknowledgedBy: Nullable(Type.String()),
  status: Status,
});
export type AlarmRecord = Static<typeof AlarmRecord>;

/** A channel's configuration with where its evaluation stands. */
export const ChannelAlarm = Type.Object({
  config: AlarmConfig,
  phase: Type.Union([Type.Literal('NORMAL'), Type.Literal('PENDING'), Type.Literal('ACTIVE')]),
  /** The open alarm of the channel (active, or cleared and not yet acknowledged). */
  current: Nullable(AlarmRecord),
});
export type ChannelAlarm = Static<typeof ChannelAlarm>;

export const DeviceAlarmsQuery = Type.Object({ deviceId: EntityId }, { additionalProperties: false });
export type DeviceAlarmsQuery = Static<typeof DeviceAlarmsQuery>;

/** Specification §3 Alarm: deviceId and the alarms list (every configured channel). */
export const DeviceAlarmsAnswer = Type.Object({
  deviceId: Type.String(),
  alarms: Type.Array(ChannelAlarm),
  alarmsHaveBeenRead: Type.Boolean(),
});
export type DeviceAlarmsAnswer = Static<typeof DeviceAlarmsAnswer>;

export const PutDeviceAlarmBody = Type.Object({ alarm: AlarmConfig }, { additionalProperties: false });
export type PutDeviceAlarmBody = Static<typeof PutDeviceAlarmBody>;

/** Which alarms `GET /alarms` lists: open (active, or not yet acknowledged), unacknowledged, or all. */
export const ALARM_LIST_STATES = ['open', 'unacknowledged', 'all'] as const;
export type AlarmListState = (typeof ALARM_LIST_STATES)[number];
export const MAX_ALARMS_PER_PAGE = 500;

export const AlarmListQuery = Type.Object(
  {
    state: Type.Optional(Type.Union(ALARM_LIST_STATES.map((state) => Type.Literal(state)))),
    deviceId: Type.Optional(EntityId),
    /** Alarms raised before this time (paging back through history). */
    before: Type.Optional(Timestamp()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ALARMS_PER_PAGE })),
  },
  { additionalProperties: false },
);
export type AlarmListQuery = Static<typeof AlarmListQuery>;

export const AlarmListAnswer = Type.Object({ alarms: Type.Array(AlarmRecord) });
export type AlarmListAnswer = Static<typeof AlarmListAnswer>;

export const AcknowledgeAlarmsBody = Type.Object(
  { ids: Type.Array(EntityId, { minItems: 1, maxItems: 100, uniqueItems: true }) },
  { additionalProperties: false },
);
export type AcknowledgeAlarmsBody = Static<typeof AcknowledgeAlarmsBody>;

/** Kinds of alerts on /alerts: a device that went offline. */
export const ALERT_KINDS = ['DISCONNECTED'] as const;

export const AlertRecord = Type.Object({
  id: Type.String(),
  kind: Type.Union(ALERT_KINDS.map((kind) => Type.Literal(kind))),
  deviceId: Type.String(),
  thingName: Type.String(),
  deviceName: Type.String(),
  /** When it happened (the disconnection). */
  t: Type.Number(),
  /** When it ended (the device reconnected); null while it lasts. */
  resolvedAt: Nullable(Type.Number()),
  /** The caller muted this device's disconnection alerts. */
  muted: Type.Boolean(),
});
export type AlertRecord = Static<typeof AlertRecord>;

export const AlertListQuery = Type.Object(
  {
    before: Type.Optional(Timestamp()),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ALARMS_PER_PAGE })),
  },
  { additionalProperties: false },
);
export type AlertListQuery = Static<typeof AlertListQuery>;

export const AlertListAnswer = Type.Object({ alerts: Type.Array(AlertRecord) });
export type AlertListAnswer = Static<typeof AlertListAnswer>;

const ALARM_ERRORS = errorAnswers(400, 401, 403, 404);

/** The alarm calls the browser demo answers too, as the server registers them. */
export const ALARM_ROUTES = {
  deviceAlarms: apiRoute('GET', '/device/alarms', {
    tags: ['alarms'],
    summary: 'Alarm configuration and state of every configured channel of a device',
    querystring: DeviceAlarmsQuery,
    response: { 200: DeviceAlarmsAnswer, ...ALARM_ERRORS },
  }),
  alarms: apiRoute('GET', '/alarms', {
    tags: ['alarms'],
    summary: 'Alarms of the devices in scope, newest first: open (default), unacknowledged or all',
    querystring: AlarmListQuery,
    response: { 200: AlarmListAnswer, ...ALARM_ERRORS },
  }),
  alerts: apiRoute('GET', '/alerts', {
    tags: ['alarms'],
    summary: 'Disconnection alerts of the devices in scope, newest first',
    querystring: AlertListQuery,
    response: { 200: AlertListAnswer, ...ALARM_ERRORS },
  }),
};
