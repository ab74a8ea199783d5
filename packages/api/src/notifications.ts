import { Type, type Static } from '@sinclair/typebox';
import { ALARM_SEVERITIES } from '@fieldlink/domain/alarms';
import { CHANNEL_CHOICES, MAX_ON_CALL_SHIFTS } from '@fieldlink/domain/notification-routing';
import { EntityId, Nullable, Timestamp } from './fields';

/**
 * Who gets what (issue 39 item 5). `GET/PUT /user/notification-preferences`: the caller's choice per
 * channel and quiet hours. `GET/PUT /account/on-call-rota?accountId=`: an account's on-call shifts
 * (administrators edit). `GET/POST /alarm-link?token=`: the signed one-time acknowledge link of
 * e-mail, SMS and push (a page on GET, the acknowledgement on POST only). Times are Unix ms.
 */

const Severity = Type.Union(ALARM_SEVERITIES.map((severity) => Type.Literal(severity)));

const ChannelPreference = Type.Object(
  {
    alarms: Type.Union(CHANNEL_CHOICES.map((choice) => Type.Literal(choice))),
    severities: Type.Array(Severity, { maxItems: ALARM_SEVERITIES.length }),
  },
  { additionalProperties: false },
);

const ClockTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });

const QuietHours = Type.Object(
  { from: ClockTime, to: ClockTime, timeZone: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

const Channels = Type.Object(
  { email: ChannelPreference, push: ChannelPreference, sms: ChannelPreference },
  { additionalProperties: false },
);

/** `PUT /user/notification-preferences`: the whole choice, replacing the stored one. */
export const NotificationPreferencesBody = Type.Object(
  { channels: Channels, quietHours: Nullable(QuietHours) },
  { additionalProperties: false },
);
export type NotificationPreferencesBody = Static<typeof NotificationPreferencesBody>;

/** Whether a channel can reach the caller now, and why not (shown beside its choice). */
const ChannelReach = Type.Object({ available: Type.Boolean(), reason: Nullable(Type.String()) });

export const NotificationPreferencesAnswer = Type.Object({
  channels: Channels,
  quietHours: Nullable(QuietHours),
  /** E-mail always; push needs a browser with notifications on; SMS a server that sends it and a verified phone. */
  reach: Type.Object({ email: ChannelReach, push: ChannelReach, sms: ChannelReach }),
});
export type NotificationPreferencesAnswer = Static<typeof NotificationPreferencesAnswer>;

export const OnCallRotaQuery = Type.Object({ accountId: EntityId }, { additionalProperties: false });
export type OnCallRotaQuery = Static<typeof OnCallRotaQuery>;

/** A shift's start or end: a caller's time, as every other (unix ms, or seconds with 12 digits or fewer). */
const Instant = Timestamp();

export const OnCallShift = Type.Object(
  { userId: EntityId, from: Instant, to: Instant },
  { additionalProperties: false },
);

/** `PUT /account/on-call-rota?accountId=`: the whole rota, replacing the stored one. */
export const OnCallRotaBody = Type.Object(
  { shifts: Type.Array(OnCallShift, { maxItems: MAX_ON_CALL_SHIFTS }) },
  { additionalProperties: false },
);
export type OnCallRotaBody = Static<typeof OnCallRotaBody>;

/** A person the rota may name: the account's Alarm Responders. */
const RotaPerson = Type.Object({ userId: Type.String(), email: Type.String() });

export const OnCallRotaAnswer = Type.Object({
  accountId: Type.String(),
  shifts: Type.Array(Type.Object({ userId: Type.String(), from: Type.Integer(), to: Type.Integer() })),
  /** Who may be put on call (Alarm Responders attached in the account). */
  people: Type.Array(RotaPerson),
  /** Who is on call now; empty: in hours. */
  onCallNow: Type.Array(Type.String()),
  /** The caller may change the rota (an administrator of the whole account). */
  editable: Type.Boolean(),
});
export type OnCallRotaAnswer = Static<typeof OnCallRotaAnswer>;

export const AlarmLinkQuery = Type.Object(
  { token: Type.String({ minLength: 20, maxLength: 600 }) },
  { additionalProperties: false },
);
export type AlarmLinkQuery = Static<typeof AlarmLinkQuery>;

/** `POST /alarm-link?token=` answered to a script (the service worker): what became of the alarm. */
export const AlarmLinkAnswer = Type.Object({ acknowledged: Type.Boolean(), message: Type.String() });
export type AlarmLinkAnswer = Static<typeof AlarmLinkAnswer>;
