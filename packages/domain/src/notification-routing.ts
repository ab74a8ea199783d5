/**
 * Who gets what (issue 39 item 5): each user's choice per channel of which alarms reach them, quiet
 * hours in their own zone, and the account's on-call rota, which decides who is woken out of hours
 * and whom an unanswered alarm moves on to. Pure rules with an injected instant; the server reads
 * the rows and sends.
 */
import { ALARM_SEVERITIES, type AlarmSeverity } from './alarms';
import { isKnownTimeZone, zoneFormatter } from './time-zone';

/** The ways an alarm reaches a person. SMS goes through the server's SMS sender (issue 39 item 6). */
export const NOTIFICATION_CHANNELS = ['email', 'push', 'sms'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** Channels that wake a person: quiet hours and the rota hold them back. E-mail waits in the inbox. */
export const WAKING_CHANNELS: readonly NotificationChannel[] = ['push', 'sms'];

/** Which alarms a channel carries: every one, those of the chosen severities, or none. */
export const CHANNEL_CHOICES = ['all', 'severities', 'none'] as const;
export type ChannelChoice = (typeof CHANNEL_CHOICES)[number];

export interface ChannelPreference {
  alarms: ChannelChoice;
  /** The severities carried when `alarms` is `severities` (ignored otherwise). */
  severities: AlarmSeverity[];
}

/**
 * A daily window of wall-clock time in an IANA zone, `HH:MM` to `HH:MM`, start included, end not. A
 * window whose end is earlier than its start crosses midnight (22:00 to 07:00).
 */
export interface QuietHours {
  from: string;
  to: string;
  timeZone: string;
}

export interface NotificationPreferences {
  channels: Record<NotificationChannel, ChannelPreference>;
  quietHours: QuietHours | null;
}

/**
 * What a user who chose nothing gets: every alarm by e-mail and push (as before this rule), no SMS
 * (a text message costs the operator money and needs a verified phone: one opts in).
 */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  channels: {
    email: { alarms: 'all', severities: [] },
    push: { alarms: 'all', severities: [] },
    sms: { alarms: 'none', severities: [] },
  },
  quietHours: null,
};

const CLOCK_TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes past midnight of an `HH:MM` time, or null when it is not one. */
export function minutesOfClockTime(text: string): number | null {
  const match = CLOCK_TIME.exec(text);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** Why preferences cannot be stored, or null when they can (each reason answers 400). */
export function notificationPreferencesProblem(preferences: NotificationPreferences): string | null {
  for (const channel of NOTIFICATION_CHANNELS) {
    const choice = preferences.channels[channel];
    if (!choice || !CHANNEL_CHOICES.includes(choice.alarms))
      return `Choose which alarms ${channelName(channel)} carries.`;
    if (choice.severities.some((severity) => !ALARM_SEVERITIES.includes(severity))) return 'Unknown severity.';
    if (new Set(choice.severities).size !== choice.severities.length) return 'A severity is named twice.';
    if (choice.alarms === 'severities' && choice.severities.length === 0) {
      return `Choose at least one severity for ${channelName(channel)}, or none.`;
    }
  }
  const quiet = preferences.quietHours;
  if (quiet) {
    const from = minutesOfClockTime(quiet.from);
    const to = minutesOfClockTime(quiet.to);
    if (from === null || to === null) return 'Quiet hours are times of day, HH:MM.';
    if (from === to) return 'Quiet hours must start and end at different times.';
    if (!isKnownTimeZone(quiet.timeZone)) return `Unknown time zone: ${quiet.timeZone}`;
  }
  return null;
}

/** A channel as people read it. */
export function channelName(channel: NotificationChannel): string {
  return { email: 'e-mail', push: 'push notifications', sms: 'text messages (SMS)' }[channel];
}

/** True when the channel's choice carries an alarm of this severity. */
export function carriesAlarm(choice: ChannelPreference, severity: AlarmSeverity): boolean {
  if (choice.alarms === 'all') return true;
  return choice.alarms === 'severities' && choice.severities.includes(severity);
}

/** Minutes past midnight on the wall clock of the zone at the instant (what a clock there shows). */
function wallMinutes(timeZone: string, at: number): number {
  const parts = zoneFormatter(timeZone).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return part('hour') * 60 + part('minute');
}

/**
 * True when the instant falls in the quiet hours, read on the wall clock of their zone: so 22:00 is
 * 22:00 in summer and winter alike, and a window crossing midnight holds both evenings and mornings.
 */
export function isQuietAt(quietHours: QuietHours | null, at: number): boolean {
  if (!quietHours) return false;
  const from = minutesOfClockTime(quietHours.from);
  const to = minutesOfClockTime(quietHours.to);
  if (from === null || to === null || from === to) return false;
  const now = wallMinutes(quietHours.timeZone, at);
  return from < to ? now >= from && now < to : now >= from || now < to;
}

/** SMS is offered to a user only where the server sends SMS and the user's phone number is verified. */
export interface SmsReach {
  smsConfigured: boolean;
  phoneVerified: boolean;
}

/** Why SMS is not offered to this user, or null when it is (shown beside the SMS choice). */
export function smsUnavailableReason(reach: SmsReach): string | null {
  if (!reach.smsConfigured) return 'This server does not send text messages.';
  if (!reach.phoneVerified) return 'Verify a mobile phone number to receive text messages.';
  return null;
}

/** One shift of an account's on-call rota: the user on call from `from` (included) to `to` (Unix ms). */
export interface OnCallShift {
  userId: string;
  from: number;
  to: number;
}

/** Shifts one account's rota may hold (a year of daily shifts and more). */
export const MAX_ON_CALL_SHIFTS = 1000;
/** Longest shift: four weeks. */
export const MAX_ON_CALL_SHIFT_MS = 28 * 86_400_000;

/** Why a rota cannot be stored, or null when it can (each reason answers 400). */
export function onCallRotaProblem(shifts: readonly OnCallShift[]): string | null {
  if (shifts.length > MAX_ON_CALL_SHIFTS) return `A rota may hold at most ${MAX_ON_CALL_SHIFTS} shifts.`;
  for (const [index, shift] of shifts.entries()) {
    const which = `Shift ${index + 1}`;
    if (!Number.isSafeInteger(shift.from) || !Number.isSafeInteger(shift.to))
      return `${which}: times must be instants.`;
    if (shift.to <= shift.from) return `${which} must end after it starts.`;
    if (shift.to - shift.from > MAX_ON_CALL_SHIFT_MS) return `${which} is longer than four weeks.`;
  }
  return null;
}

/** The rota in the order shifts take place (by start; ties keep the order given). */
export function rotaInOrder(shifts: readonly OnCallShift[]): OnCallShift[] {
  return shifts
    .map((shift, index) => ({ shift, index }))
    .sort((a, b) => a.shift.from - b.shift.from || a.index - b.index)
    .map(({ shift }) => shift);
}

/** Who is on call at the instant (every shift covering it, in rota order); empty: in hours. */
export function onCallAt(shifts: readonly OnCallShift[], at: number): string[] {
  const users = rotaInOrder(shifts)
    .filter((shift) => shift.from <= at && at < shift.to)
    .map((shift) => shift.userId);
  return [...new Set(users)];
}

/**
 * Whom an alarm still unanswered moves to at escalation step `step` (1 after the first escalation
 * delay, 2 after the second, ...): the person of the `step`-th shift after the one on call when it
 * was raised, in rota order, skipping shifts of people already reached. Null when the rota had nobody
 * on call at the raise (in hours: the escalation to administrators alone applies) or has run out.
 */
export function escalationTarget(shifts: readonly OnCallShift[], raisedAt: number, step: number): string | null {
  const ordered = rotaInOrder(shifts);
  const current = ordered.findIndex((shift) => shift.from <= raisedAt && raisedAt < shift.to);
  if (current < 0 || step < 1) return null;
  const reached = new Set([ordered[current]!.userId]);
  for (const shift of ordered.slice(current + 1)) {
    if (reached.has(shift.userId)) continue;
    reached.add(shift.userId);
    if (reached.size === step + 1) return shift.userId;
  }
  return null;
}

/** A user an alarm may reach, with what the server knows of their channels. */
export interface RoutedUser {
  id: string;
  preferences: NotificationPreferences;
  /** SMS can reach this user now ({@link smsUnavailableReason} is null). */
  smsAvailable: boolean;
}

export interface NotificationDelivery {
  userId: string;
  channel: NotificationChannel;
}

function available(user: RoutedUser, channel: NotificationChannel): boolean {
  return channel !== 'sms' || user.smsAvailable;
}

/**
 * The channels the person on call is reached on: each they chose for the alarm, whatever their quiet
 * hours; where they chose none, e-mail all the same (on call means reachable).
 */
function onCallChannels(user: RoutedUser, severity: AlarmSeverity): NotificationChannel[] {
  const chosen = NOTIFICATION_CHANNELS.filter(
    (channel) => available(user, channel) && carriesAlarm(user.preferences.channels[channel], severity),
  );
  return chosen.length > 0 ? chosen : ['email'];
}

/**
 * Who is told of an alarm on which channel at the instant. `responders` are the users the alarm goes
 * to (the device's Alarm Responders); `onCall` who the rota has on call now ({@link onCallAt}).
 * - A channel a user set to carry no alarm of this severity carries none; SMS needs SMS available.
 * - In hours (nobody on call who is a responder): everyone on the channels they chose; push and SMS
 *   wait for nobody but are held back during the user's own quiet hours.
 * - Out of hours: only the person on call is woken (push, SMS), on every channel they chose whatever
 *   their quiet hours, and by e-mail at least; the others still get e-mail as they chose.
 */
export function alarmDeliveries(input: {
  responders: readonly RoutedUser[];
  severity: AlarmSeverity;
  onCall: readonly string[];
  at: number;
}): NotificationDelivery[] {
  const { responders, severity, at } = input;
  const onCall = new Set(input.onCall.filter((id) => responders.some((user) => user.id === id)));
  const deliveries: NotificationDelivery[] = [];
  for (const user of responders) {
    if (onCall.has(user.id)) {
      for (const channel of onCallChannels(user, severity)) deliveries.push({ userId: user.id, channel });
      continue;
    }
    for (const channel of NOTIFICATION_CHANNELS) {
      if (!available(user, channel) || !carriesAlarm(user.preferences.channels[channel], severity)) continue;
      if (WAKING_CHANNELS.includes(channel) && (onCall.size > 0 || isQuietAt(user.preferences.quietHours, at))) {
        continue;
      }
      deliveries.push({ userId: user.id, channel });
    }
  }
  return deliveries;
}

/**
 * The channels an escalation reaches the rota's next person on: as the person on call (they are the
 * one who must now answer).
 */
export function escalationDeliveries(user: RoutedUser, severity: AlarmSeverity): NotificationDelivery[] {
  return onCallChannels(user, severity).map((channel) => ({ userId: user.id, channel }));
}
