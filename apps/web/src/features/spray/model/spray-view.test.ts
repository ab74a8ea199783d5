import { describe, expect, it } from 'vitest';
import type { GroupNode } from '@fieldlink/api/account';
import { BROADCAST_SPRAY_FAILED, BROADCAST_SPRAY_FORBIDDEN, SPRAYER_CHANNELS } from '@fieldlink/domain/spray';
import { ApiError } from '../../../lib/api-client';
import { treeDevice, treeGroup } from '../../../lib/tree-fixtures';
import {
  broadcastErrorMessage,
  broadcastOutcome,
  broadcastReadiness,
  broadcastRetryAfterSeconds,
  daysText,
  devicesUnder,
  findGroup,
  formatMinutesAhead,
  formatSeconds,
  hasSprayerChannels,
  nextSprayText,
  pickableGroups,
  secondsLeft,
  scheduleSummary,
} from './spray-view';

const H24 = { hourCycle: '24' } as const;
const H12 = { hourCycle: '12' } as const;

const group = (id: string, kind: GroupNode['kind'], devices: string[], groups: GroupNode[] = []): GroupNode =>
  treeGroup(id, {
    accountId: 'a',
    appType: 'spray',
    kind,
    relativePath: id,
    groups,
    devices: devices.map((deviceId) => treeDevice(deviceId)),
    deviceIds: devices,
  });

describe('a sprayer told by the account tree', () => {
  const sprayerCodes = Object.values(SPRAYER_CHANNELS);
  it.each([
    ['every channel a sprayer card shows', sprayerCodes, true],
    ['one of them missing', sprayerCodes.filter((code) => code !== SPRAYER_CHANNELS.broadcastSpray), false],
    ['a brew tank’s flags gpf1 to gpf7', ['gpf1', 'gpf2', 'gpf3', 'gpf4', 'gpf5', 'gpf6', 'gpf7', 'a16'], false],
    ['no channel at all', [], false],
  ])('%s', (_, codes, expected) => {
    expect(hasSprayerChannels(treeDevice('d', { channels: codes.map((code) => ({ code })) }))).toBe(expected);
  });

  it('is not told by a device whose channels the tree does not give', () => {
    expect(hasSprayerChannels(treeDevice('d'))).toBe(false);
  });
});

describe('spray overview model', () => {
  const tree = group(
    'root',
    'root',
    ['r1'],
    [
      group('north', 'group', ['n1', 'n2'], [group('inner', 'group', ['i1'])]),
      group('new', 'new', ['x1']),
      group('trash', 'trash', ['t1']),
    ],
  );

  it('lists the devices of a group and the groups beneath it, never the trash', () => {
    expect(devicesUnder(tree).map((d) => d.id)).toEqual(['r1', 'n1', 'n2', 'i1', 'x1']);
    expect(devicesUnder(findGroup(tree, 'north')!).map((d) => d.id)).toEqual(['n1', 'n2', 'i1']);
    expect(findGroup(tree, 'missing')).toBeNull();
    expect(pickableGroups(tree).map(({ group: g, depth }) => `${depth}:${g.id}`)).toEqual([
      '0:root',
      '1:north',
      '2:inner',
    ]);
  });

  it.each([
    ['401', new ApiError(401, 'x', null), BROADCAST_SPRAY_FORBIDDEN],
    [
      '429 with its wait',
      new ApiError(429, 'x', { retryAfterSeconds: 87 }),
      'Broadcast spray has recently been initiated. Please wait 87 seconds before trying again.',
    ],
    ['429 without a wait', new ApiError(429, 'x', null), BROADCAST_SPRAY_FAILED],
    ['404', new ApiError(404, 'Group not found.', null), BROADCAST_SPRAY_FAILED],
    ['no answer', new ApiError(0, null, null), BROADCAST_SPRAY_FAILED],
    ['anything else', new Error('boom'), BROADCAST_SPRAY_FAILED],
  ])('broadcast failure %s', (_label, error, message) => expect(broadcastErrorMessage(error)).toBe(message));

  it('says how many sprayers took the broadcast and why others did not', () => {
    const sent = (result: 'OK' | 'FAIL' | 'TIMEOUT' | 'OFFLINE', name: string) => ({
      id: name,
      thingName: name,
      name,
      result,
    });
    expect(broadcastOutcome({ devices: [sent('OK', 'Row 1'), sent('OK', 'Row 2')] })).toEqual({
      tone: 'success',
      message: 'Broadcast spray sent: 2 of 2 sprayers spraying.',
    });
    expect(
      broadcastOutcome({ devices: [sent('OK', 'Row 1'), sent('OFFLINE', 'Row 2'), sent('FAIL', 'Row 3')] }),
    ).toEqual({
      tone: 'warning',
      message: 'Broadcast spray sent: 1 of 3 sprayers spraying. Not spraying: Row 2 (offline), Row 3 (refused).',
    });
  });

  it.each([
    [{ isConnected: false, alarmMask: 0, acceptsBroadcast: 1 }, false, 'Offline: it will not spray.'],
    [{ isConnected: true, alarmMask: 1 << 6, acceptsBroadcast: 1 }, false, 'Empty Alarm: it will not spray.'],
    [
      { isConnected: true, alarmMask: 1 << 14, acceptsBroadcast: 1 },
      false,
      'High Wind Speed Warning: it will not spray.',
    ],
    [{ isConnected: true, alarmMask: 1 << 7, acceptsBroadcast: 0 }, false, 'Does not accept broadcast spray (GPF-11).'],
    [{ isConnected: true, alarmMask: 1 << 7, acceptsBroadcast: undefined }, true, 'Ready to spray.'],
  ])('readiness of %j', (sprayer, willSpray, note) => expect(broadcastReadiness(sprayer)).toEqual({ willSpray, note }));

  it('says "Ready" only outside the cool-down (issue 35)', () => {
    const ready = { isConnected: true, alarmMask: 0, acceptsBroadcast: 1 };
    expect(broadcastReadiness(ready, 87)).toEqual({ willSpray: true, note: 'Waiting for the cool-down: 87 s.' });
    expect(broadcastReadiness(ready, 0)).toEqual({ willSpray: true, note: 'Ready to spray.' });
    // An offline sprayer is not waiting for anything: it will not spray.
    expect(broadcastReadiness({ ...ready, isConnected: false }, 87).note).toBe('Offline: it will not spray.');
  });

  it.each([
    ['a 429 with its wait', new ApiError(429, 'x', { retryAfterSeconds: 87 }), 87],
    ['a 429 with a fraction', new ApiError(429, 'x', { retryAfterSeconds: 3.2 }), 4],
    ['a 429 without a wait', new ApiError(429, 'x', null), null],
    ['a 401', new ApiError(401, 'x', null), null],
  ])('waits after %s', (_label, error, seconds) => expect(broadcastRetryAfterSeconds(error)).toBe(seconds));

  it.each([
    [null, 0],
    [10_000, 0],
    [10_001, 1],
    [97_000, 87],
  ])('counts down to %s from 10 000 ms: %s s', (until, left) => expect(secondsLeft(until, 10_000)).toBe(left));

  it.each([
    [5, '5 min'],
    [60, '1 h 00 min'],
    [125, '2 h 05 min'],
    [1500, '1 d 1 h'],
  ])('%d minutes ahead: %s', (minutes, text) => expect(formatMinutesAhead(minutes)).toBe(text));

  it.each([
    [0, '0 s'],
    [59.6, '1 min 00 s'],
    [200, '3 min 20 s'],
    [3720, '1 h 02 min'],
  ])('%d seconds: %s', (seconds, text) => expect(formatSeconds(seconds)).toBe(text));

  it('names the next spray and a schedule in words', () => {
    expect(nextSprayText({ index: 0, weekday: 2, minuteOfDay: 360, minutesAhead: 860 }, H24)).toBe(
      'Tuesday 06:00 · in 14 h 20 min',
    );
    expect(daysText([0, 1, 2, 3, 4, 5, 6])).toBe('Every day');
    expect(daysText([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(daysText([6, 0])).toBe('Weekends');
    expect(daysText([3, 1])).toBe('Mon Wed');
    expect(
      scheduleSummary({ enabled: true, minuteOfDay: 390, durationSteps: 3, days: [1, 2, 3, 4, 5, 6] }, 10, H24),
    ).toBe('06:30 · 30 s per zone · Mon–Sat');
    expect(scheduleSummary({ enabled: false, minuteOfDay: 0, durationSteps: 0, days: [] }, 10, H24)).toBe('Not set');
    expect(scheduleSummary({ enabled: false, minuteOfDay: 1500, durationSteps: 2, days: [0] }, 10, H24)).toBe(
      'unsupported time · 20 s per zone · Sun · off',
    );
    expect(scheduleSummary(null, 10, H24)).toBe('not reported');
  });

  it('writes the device’s times in the reader’s hour cycle (issue 36 item 2)', () => {
    expect(nextSprayText({ index: 0, weekday: 2, minuteOfDay: 360, minutesAhead: 860 }, H12)).toBe(
      'Tuesday 6:00 am · in 14 h 20 min',
    );
    expect(scheduleSummary({ enabled: true, minuteOfDay: 1110, durationSteps: 3, days: [0, 6] }, 10, H12)).toBe(
      '6:30 pm · 30 s per zone · Weekends',
    );
  });
});
