import { describe, expect, it } from 'vitest';
import type { AlarmSeverity } from './alarms';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  alarmDeliveries,
  escalationDeliveries,
  escalationTarget,
  isQuietAt,
  notificationPreferencesProblem,
  onCallAt,
  onCallRotaProblem,
  smsUnavailableReason,
  type ChannelPreference,
  type NotificationChannel,
  type NotificationPreferences,
  type OnCallShift,
  type QuietHours,
  type RoutedUser,
} from './notification-routing';

const at = (iso: string) => Date.parse(iso);
const choice = (alarms: ChannelPreference['alarms'], severities: AlarmSeverity[] = []): ChannelPreference => ({
  alarms,
  severities,
});
const prefs = (
  channels: Partial<Record<NotificationChannel, ChannelPreference>> = {},
  quietHours: QuietHours | null = null,
): NotificationPreferences => ({
  channels: { ...DEFAULT_NOTIFICATION_PREFERENCES.channels, ...channels },
  quietHours,
});

describe('quiet hours, on the wall clock of the user’s zone', () => {
  const night = (timeZone: string): QuietHours => ({ from: '22:00', to: '07:00', timeZone });
  it.each([
    ['before the window, Berlin winter', night('Europe/Berlin'), '2026-01-15T20:59:00Z', false],
    ['22:00 Berlin winter (UTC+1) is quiet', night('Europe/Berlin'), '2026-01-15T21:00:00Z', true],
    ['after midnight, same window', night('Europe/Berlin'), '2026-01-16T03:00:00Z', true],
    ['06:59 Berlin is quiet', night('Europe/Berlin'), '2026-01-16T05:59:00Z', true],
    ['07:00 Berlin ends it (end not included)', night('Europe/Berlin'), '2026-01-16T06:00:00Z', false],
    ['22:00 Berlin summer (UTC+2) is quiet', night('Europe/Berlin'), '2026-07-15T20:00:00Z', true],
    ['21:00 UTC in summer is 23:00 Berlin', night('Europe/Berlin'), '2026-07-15T21:00:00Z', true],
    ['20:30 UTC in winter is 21:30 Berlin', night('Europe/Berlin'), '2026-01-15T20:30:00Z', false],
    // The night the clocks go forward (29 March 2026, 02:00 -> 03:00): 06:59 local is 04:59 UTC.
    ['06:59 Berlin on the spring-forward night', night('Europe/Berlin'), '2026-03-29T04:59:00Z', true],
    ['07:00 Berlin on the spring-forward night', night('Europe/Berlin'), '2026-03-29T05:00:00Z', false],
    // New York falls back on 1 November 2026: 07:00 EST is 12:00 UTC.
    ['06:30 New York after the fall-back', night('America/New_York'), '2026-11-01T11:30:00Z', true],
    ['07:00 New York after the fall-back', night('America/New_York'), '2026-11-01T12:00:00Z', false],
    ['a daytime window, inside', { from: '12:00', to: '14:00', timeZone: 'UTC' }, '2026-05-01T13:59:00Z', true],
    ['a daytime window, at its end', { from: '12:00', to: '14:00', timeZone: 'UTC' }, '2026-05-01T14:00:00Z', false],
    ['a daytime window, before it', { from: '12:00', to: '14:00', timeZone: 'UTC' }, '2026-05-01T11:59:00Z', false],
    ['no quiet hours', null, '2026-05-01T03:00:00Z', false],
  ])('%s', (_name, quiet, instant, expected) => {
    expect(isQuietAt(quiet, at(instant))).toBe(expected);
  });
});

describe('preferences a user may store', () => {
  it.each([
    ['the defaults', DEFAULT_NOTIFICATION_PREFERENCES, null],
    ['severities chosen', prefs({ push: choice('severities', ['CRITICAL', 'MAJOR']) }), null],
    [
      'severities without any',
      prefs({ push: choice('severities') }),
      'Choose at least one severity for push notifications, or none.',
    ],
    ['an unknown severity', prefs({ email: choice('severities', ['SEVERE' as AlarmSeverity]) }), 'Unknown severity.'],
    ['a severity twice', prefs({ email: choice('severities', ['MINOR', 'MINOR']) }), 'A severity is named twice.'],
    ['quiet hours', prefs({}, { from: '22:30', to: '06:45', timeZone: 'Asia/Kolkata' }), null],
    [
      'a time that is not one',
      prefs({}, { from: '24:00', to: '06:00', timeZone: 'UTC' }),
      'Quiet hours are times of day, HH:MM.',
    ],
    [
      'an empty window',
      prefs({}, { from: '06:00', to: '06:00', timeZone: 'UTC' }),
      'Quiet hours must start and end at different times.',
    ],
    [
      'an unknown zone',
      prefs({}, { from: '22:00', to: '06:00', timeZone: 'Mars/Olympus' }),
      'Unknown time zone: Mars/Olympus',
    ],
  ])('%s', (_name, preferences, problem) => {
    expect(notificationPreferencesProblem(preferences)).toBe(problem);
  });
});

describe('SMS is offered honestly', () => {
  it.each([
    [{ smsConfigured: false, phoneVerified: true }, 'This server does not send text messages.'],
    [{ smsConfigured: true, phoneVerified: false }, 'Verify a mobile phone number to receive text messages.'],
    [{ smsConfigured: true, phoneVerified: true }, null],
  ])('%o', (reach, reason) => {
    expect(smsUnavailableReason(reach)).toBe(reason);
  });
});

const HOUR = 3_600_000;
const T0 = at('2026-06-01T17:00:00Z');
/** Ann 17:00-01:00, Bob 01:00-09:00, Cy 09:00-17:00 next day, Ann again 17:00-01:00. */
const ROTA: OnCallShift[] = [
  { userId: 'bob', from: T0 + 8 * HOUR, to: T0 + 16 * HOUR },
  { userId: 'ann', from: T0, to: T0 + 8 * HOUR },
  { userId: 'cy', from: T0 + 16 * HOUR, to: T0 + 24 * HOUR },
  { userId: 'ann', from: T0 + 24 * HOUR, to: T0 + 32 * HOUR },
];

describe('the on-call rota', () => {
  it.each([
    ['before the rota: in hours', T0 - 1, []],
    ['the start of Ann’s shift', T0, ['ann']],
    ['the end of Ann’s shift is Bob’s', T0 + 8 * HOUR, ['bob']],
    ['after the rota', T0 + 32 * HOUR, []],
  ])('%s', (_name, instant, expected) => {
    expect(onCallAt(ROTA, instant)).toEqual(expected);
  });

  it('has both on call where shifts overlap', () => {
    expect(onCallAt([...ROTA, { userId: 'dee', from: T0 + HOUR, to: T0 + 2 * HOUR }], T0 + HOUR)).toEqual([
      'ann',
      'dee',
    ]);
  });

  it.each([
    ['raised in Ann’s shift, step 1', T0 + HOUR, 1, 'bob'],
    ['raised in Ann’s shift, step 2', T0 + HOUR, 2, 'cy'],
    ['step 3 comes back to Ann: nobody new', T0 + HOUR, 3, null],
    ['raised in Bob’s shift, step 1', T0 + 9 * HOUR, 1, 'cy'],
    ['raised in Bob’s shift, step 2 is Ann’s later shift', T0 + 9 * HOUR, 2, 'ann'],
    ['raised in the last shift: nobody after', T0 + 25 * HOUR, 1, null],
    ['raised in hours: the rota does not escalate', T0 - HOUR, 1, null],
  ])('escalation: %s', (_name, raisedAt, step, expected) => {
    expect(escalationTarget(ROTA, raisedAt, step)).toBe(expected);
  });

  it.each([
    ['the defaults', [], null],
    ['a full rota', ROTA, null],
    ['a shift ending as it starts', [{ userId: 'ann', from: T0, to: T0 }], 'Shift 1 must end after it starts.'],
    [
      'a shift of five weeks',
      [{ userId: 'ann', from: T0, to: T0 + 35 * 24 * HOUR }],
      'Shift 1 is longer than four weeks.',
    ],
    ['a time that is not an instant', [{ userId: 'ann', from: 1.5, to: T0 }], 'Shift 1: times must be instants.'],
    [
      'too many shifts',
      Array.from({ length: 1001 }, (_, i) => ({ userId: 'ann', from: i * HOUR, to: (i + 1) * HOUR })),
      'A rota may hold at most 1000 shifts.',
    ],
  ])('stores %s: %s', (_name, shifts, problem) => {
    expect(onCallRotaProblem(shifts)).toBe(problem);
  });
});

describe('who gets a given alarm on which channel at a given instant', () => {
  const night = { from: '22:00', to: '07:00', timeZone: 'Europe/Berlin' };
  const user = (id: string, preferences = prefs(), smsAvailable = false): RoutedUser => ({
    id,
    preferences,
    smsAvailable,
  });
  const ann = user('ann', prefs({ sms: choice('all') }), true);
  const bob = user('bob', prefs({ push: choice('severities', ['CRITICAL']) }, night));
  const cy = user('cy', prefs({ email: choice('none'), push: choice('none'), sms: choice('all') }), false);
  const noon = at('2026-06-01T10:00:00Z'); // 12:00 in Berlin
  const midnight = at('2026-06-01T22:30:00Z'); // 00:30 in Berlin
  const show = (deliveries: { userId: string; channel: string }[]) =>
    deliveries.map((delivery) => `${delivery.userId}:${delivery.channel}`);

  it.each([
    ['in hours, MAJOR at noon', [ann, bob, cy], 'MAJOR', [], noon, ['ann:email', 'ann:push', 'ann:sms', 'bob:email']],
    [
      'in hours, CRITICAL at noon',
      [ann, bob],
      'CRITICAL',
      [],
      noon,
      ['ann:email', 'ann:push', 'ann:sms', 'bob:email', 'bob:push'],
    ],
    [
      'in hours, CRITICAL in Bob’s quiet hours',
      [ann, bob],
      'CRITICAL',
      [],
      midnight,
      ['ann:email', 'ann:push', 'ann:sms', 'bob:email'],
    ],
    ['SMS chosen but not available: none', [cy], 'CRITICAL', [], noon, []],
    [
      'out of hours, Ann on call: only Ann woken',
      [ann, bob],
      'CRITICAL',
      ['ann'],
      midnight,
      ['ann:email', 'ann:push', 'ann:sms', 'bob:email'],
    ],
    [
      'out of hours, Bob on call in his quiet hours: woken all the same',
      [ann, bob],
      'CRITICAL',
      ['bob'],
      midnight,
      ['ann:email', 'bob:email', 'bob:push'],
    ],
    [
      'out of hours, Bob on call for a MINOR alarm: e-mail only, as he chose',
      [ann, bob],
      'MINOR',
      ['bob'],
      midnight,
      ['ann:email', 'bob:email'],
    ],
    [
      'on call with every channel off: e-mail all the same',
      [ann, cy],
      'MAJOR',
      ['cy'],
      noon,
      ['ann:email', 'cy:email'],
    ],
    [
      'on call but no responder of this device: as in hours',
      [ann, bob],
      'CRITICAL',
      ['dee'],
      noon,
      ['ann:email', 'ann:push', 'ann:sms', 'bob:email', 'bob:push'],
    ],
  ] as const)('%s', (_name, responders, severity, onCall, instant, expected) => {
    expect(show(alarmDeliveries({ responders, severity, onCall, at: instant }))).toEqual(expected);
  });

  it.each([
    ['the next person’s chosen channels', ann, 'MINOR', ['ann:email', 'ann:push', 'ann:sms']],
    ['severities they chose', bob, 'CRITICAL', ['bob:email', 'bob:push']],
    ['e-mail at least', cy, 'CRITICAL', ['cy:email']],
  ] as const)('an escalation reaches %s', (_name, target, severity, expected) => {
    expect(show(escalationDeliveries(target, severity))).toEqual(expected);
  });
});
