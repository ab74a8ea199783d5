import { describe, expect, it } from 'vitest';
import {
  OTA_DEFAULT_ABORT_CRITERIA,
  OTA_RELOAD_DELAY_MS,
  applyOtaReport,
  approvalEffect,
  bannerContent,
  checkUpdateCommand,
  dispatchAllowance,
  dispatchSlotAt,
  firmwareUpdateCommand,
  isOtaFinal,
  isOtaInFlight,
  knownFirmware,
  otaColumns,
  otaReloadAt,
  otaStatusText,
  rolloutProgress,
  shouldStopRollout,
  targetFirmwareOf,
  type FamilyFirmware,
  type OtaProgress,
  type OtaState,
  type RolloutProgress,
} from './ota';

describe('OTA constants', () => {
  it('reloads a device 30 s after its update finished (§9)', () => {
    expect(OTA_RELOAD_DELAY_MS).toBe(30_000);
    expect(otaReloadAt(1_000)).toBe(31_000);
  });
});

describe('states', () => {
  it.each([
    ['AWAITING_APPROVAL', false, false],
    ['QUEUED', false, false],
    ['SENT', false, true],
    ['DOWNLOADING', false, true],
    ['INSTALLING', false, true],
    ['REBOOTING', false, true],
    ['SUCCEEDED', true, false],
    ['FAILED', true, false],
    ['CANCELLED', true, false],
  ] as const)('%s: final %s, in flight %s', (state, final, inFlight) => {
    expect(isOtaFinal(state)).toBe(final);
    expect(isOtaInFlight(state)).toBe(inFlight);
  });

  it.each([
    [{ state: 'AWAITING_APPROVAL' }, 'Awaiting approval'],
    [{ state: 'QUEUED' }, 'Queued'],
    [{ state: 'DOWNLOADING', percent: 45.4 }, 'Downloading 45%'],
    [{ state: 'DOWNLOADING', percent: 130 }, 'Downloading 100%'],
    [{ state: 'DOWNLOADING', percent: null }, 'Downloading'],
    [{ state: 'INSTALLING', percent: 100 }, 'Installing'],
    [{ state: 'SUCCEEDED' }, 'Succeeded'],
    [{ state: 'FAILED' }, 'Failed'],
    [{ state: 'CANCELLED' }, 'Cancelled'],
  ] as const)('%j is shown as %s', (update, text) => expect(otaStatusText(update)).toBe(text));
});

describe('applyOtaReport', () => {
  const at = (state: OtaProgress['state'], percent: number | null = null): OtaProgress => ({ state, percent });
  it.each([
    ['sent -> downloading 10', at('SENT'), { state: 'downloading', percent: 10 }, at('DOWNLOADING', 10)],
    ['downloading percent rises', at('DOWNLOADING', 10), { state: 'downloading', percent: 55 }, at('DOWNLOADING', 55)],
    ['downloading percent falls: ignored', at('DOWNLOADING', 55), { state: 'downloading', percent: 40 }, null],
    ['same percent: ignored', at('DOWNLOADING', 55), { state: 'downloading', percent: 55 }, null],
    ['percent clamped', at('SENT'), { state: 'downloading', percent: 250 }, at('DOWNLOADING', 100)],
    ['downloading -> installing', at('DOWNLOADING', 100), { state: 'installing' }, at('INSTALLING', 100)],
    ['installing -> rebooting', at('INSTALLING', 100), { state: 'rebooting' }, at('REBOOTING', 100)],
    ['rebooting -> succeeded', at('REBOOTING', 100), { state: 'succeeded' }, at('SUCCEEDED', 100)],
    ['late downloading after installing: ignored', at('INSTALLING', 100), { state: 'downloading', percent: 90 }, null],
    ['repeated installing: ignored', at('INSTALLING', 100), { state: 'installing' }, null],
    ['failure while downloading', at('DOWNLOADING', 30), { state: 'failed' }, at('FAILED', 30)],
    ['a re-queued update the device started', at('QUEUED'), { state: 'downloading', percent: 5 }, at('DOWNLOADING', 5)],
    ['succeeded is final', at('SUCCEEDED', 100), { state: 'failed' }, null],
    ['failed is final', at('FAILED', 30), { state: 'succeeded' }, null],
    ['cancelled ignores reports', at('CANCELLED'), { state: 'downloading', percent: 1 }, null],
    ['held for approval ignores reports', at('AWAITING_APPROVAL'), { state: 'succeeded' }, null],
  ] as const)('%s', (_label, current, report, expected) => expect(applyOtaReport(current, report)).toEqual(expected));
});

describe('checkUpdateCommand', () => {
  it.each([
    ['firmware 4.3.0', { ok: true, updateCommand: 'firmware 4.3.0' }],
    ['  https://fw.example.com/zen-4.3.0.bin  ', { ok: true, updateCommand: 'https://fw.example.com/zen-4.3.0.bin' }],
    ['', { ok: false, error: 'Enter an update command.' }],
    ['   ', { ok: false, error: 'Enter an update command.' }],
    ['x'.repeat(256), { ok: true, updateCommand: 'x'.repeat(256) }],
    ['x'.repeat(257), { ok: false, error: 'The update command may be at most 256 characters.' }],
    ['update\n4.3', { ok: false, error: 'The update command may not contain control characters.' }],
    ['update\u00004.3', { ok: false, error: 'The update command may not contain control characters.' }],
  ])('%j', (text, expected) => expect(checkUpdateCommand(text)).toEqual(expected));

  it.each([
    ['firmware 4.3.0', '4.3.0'],
    ['https://fw.example.com/zen-4.3.1.bin', '4.3.1'],
    ['v5.1', '5.1'],
    ['latest', null],
    ['42', null],
  ])('%s names firmware %s', (command, version) => expect(targetFirmwareOf(command)).toBe(version));
});

describe('pacing', () => {
  it.each([
    [0, 60, 1000],
    [1, 60, 1000 + 1000],
    [5, 60, 1000 + 5000],
    [3, 120, 1000 + 1500],
    [1, 7, 1000 + 8572],
  ])('device %d at %d a minute is due at %d', (index, rate, at) => expect(dispatchSlotAt(1000, index, rate)).toBe(at));

  it.each([
    ['the first at once', 0, 0, 60, 1],
    ['not a second one before its slot', 999, 1, 60, 0],
    ['the second at its slot', 1000, 1, 60, 1],
    ['catches up after a pause', 10_000, 2, 60, 9],
    ['fast pace', 1000, 0, 600, 11],
    ['nothing before the start', -5, 0, 60, 0],
    ['never negative', 0, 4, 60, 0],
  ])('%s', (_label, elapsed, dispatched, devicesPerMinute, allowance) =>
    expect(dispatchAllowance({ startedAt: 10_000, now: 10_000 + elapsed, dispatched, devicesPerMinute })).toBe(
      allowance,
    ),
  );
});

describe('shouldStopRollout', () => {
  it.each([
    ['nothing finished', 0, 0, OTA_DEFAULT_ABORT_CRITERIA, false],
    ['below the minimum sample', 0, 4, OTA_DEFAULT_ABORT_CRITERIA, false],
    ['minimum sample, all failed', 0, 5, OTA_DEFAULT_ABORT_CRITERIA, true],
    ['exactly at 20 %', 4, 1, OTA_DEFAULT_ABORT_CRITERIA, true],
    ['under 20 %', 9, 2, OTA_DEFAULT_ABORT_CRITERIA, false],
    ['over 20 %', 7, 3, OTA_DEFAULT_ABORT_CRITERIA, true],
    ['count reached before the sample', 0, 2, { ...OTA_DEFAULT_ABORT_CRITERIA, failureThresholdCount: 2 }, true],
    ['count not reached', 0, 1, { ...OTA_DEFAULT_ABORT_CRITERIA, failureThresholdCount: 2 }, false],
    ['100 % threshold', 1, 9, { failureThresholdPercent: 100, minExecuted: 1, failureThresholdCount: null }, false],
  ])('%s', (_label, succeeded, failed, criteria, stop) =>
    expect(shouldStopRollout({ succeeded, failed }, criteria)).toBe(stop),
  );
});

describe('approvalEffect', () => {
  it.each([
    [{ otaPendingSubmittedAt: 5, state: 'AWAITING_APPROVAL' }, 'release'],
    [{ otaPendingSubmittedAt: 5, state: 'DOWNLOADING' }, 'signOff'],
    // Issue 35 item 9: a succeeded update has nothing left to sign off; a failure waits for a look.
    [{ otaPendingSubmittedAt: 5, state: 'SUCCEEDED' }, 'none'],
    [{ otaPendingSubmittedAt: 5, state: 'FAILED' }, 'signOff'],
    [{ otaPendingSubmittedAt: null, state: 'QUEUED' }, 'none'],
    [{ otaPendingSubmittedAt: null, state: null }, 'none'],
  ] as const)('%j -> %s', (device, effect) => expect(approvalEffect(device)).toBe(effect));
});

describe('otaColumns', () => {
  it.each([
    [
      'never updated',
      { state: null, percent: null, otaPendingSubmittedAt: null, pendingMessages: 0 },
      { otaStatus: null, updatePending: false, hasPendingUpdate: false },
    ],
    [
      'marked pending, no update recorded',
      { state: null, percent: null, otaPendingSubmittedAt: 9, pendingMessages: 0 },
      { otaStatus: 'Pending', updatePending: true, hasPendingUpdate: false },
    ],
    [
      'held for approval',
      { state: 'AWAITING_APPROVAL', percent: null, otaPendingSubmittedAt: 9, pendingMessages: 0 },
      { otaStatus: 'Awaiting approval', updatePending: true, hasPendingUpdate: false },
    ],
    [
      'sent with skipApproval, downloading',
      { state: 'DOWNLOADING', percent: 40, otaPendingSubmittedAt: 9, pendingMessages: 0 },
      { otaStatus: 'Downloading 40%', updatePending: true, hasPendingUpdate: true },
    ],
    [
      'approved, queued',
      { state: 'QUEUED', percent: null, otaPendingSubmittedAt: null, pendingMessages: 0 },
      { otaStatus: 'Queued', updatePending: false, hasPendingUpdate: true },
    ],
    [
      'finished, settings queued',
      { state: 'SUCCEEDED', percent: 100, otaPendingSubmittedAt: null, pendingMessages: 2 },
      { otaStatus: 'Succeeded', updatePending: false, hasPendingUpdate: true },
    ],
  ] as const)('%s', (_label, device, columns) => expect(otaColumns(device)).toEqual(columns));
});

describe('bannerContent', () => {
  const calm = { idle: true, reconnecting: false, disconnectedDevices: 0, pendingOtaDevices: 0, isAdmin: false };
  it.each([
    ['nothing to say', calm, null],
    [
      'reconnecting',
      { ...calm, reconnecting: true },
      { reconnecting: true, disconnectedDevices: 0, pendingOtaDevices: 0 },
    ],
    [
      'disconnected devices',
      { ...calm, disconnectedDevices: 3 },
      { reconnecting: false, disconnectedDevices: 3, pendingOtaDevices: 0 },
    ],
    ['pending OTA, not an admin', { ...calm, pendingOtaDevices: 2 }, null],
    [
      'pending OTA, admin',
      { ...calm, pendingOtaDevices: 2, isAdmin: true },
      { reconnecting: false, disconnectedDevices: 0, pendingOtaDevices: 2 },
    ],
    [
      'everything at once',
      { idle: true, reconnecting: true, disconnectedDevices: 1, pendingOtaDevices: 4, isAdmin: true },
      { reconnecting: true, disconnectedDevices: 1, pendingOtaDevices: 4 },
    ],
    ['not idle', { ...calm, idle: false, reconnecting: true, disconnectedDevices: 5 }, null],
  ])('%s', (_label, state, content) => expect(bannerContent(state)).toEqual(content));
});

describe('rolloutProgress', () => {
  const u = (state: OtaState, percent: number | null = null) => ({ state, percent });
  it.each<[string, { state: OtaState; percent: number | null }[], Partial<RolloutProgress>]>([
    ['nothing yet', [], { total: 0, percent: 0 }],
    [
      'held and queued devices wait',
      [u('AWAITING_APPROVAL'), u('QUEUED')],
      { total: 2, waiting: 2, running: 0, percent: 0 },
    ],
    [
      'a download counts for most of the way, installing and rebooting for more',
      [u('DOWNLOADING', 50), u('INSTALLING'), u('REBOOTING'), u('SENT')],
      { running: 4, percent: Math.round((100 * (0.4 + 0.85 + 0.95 + 0)) / 4) },
    ],
    [
      'finished updates count whole, whatever their outcome',
      [u('SUCCEEDED'), u('FAILED', 60), u('CANCELLED'), u('QUEUED')],
      { succeeded: 1, failed: 1, cancelled: 1, waiting: 1, percent: 75 },
    ],
    ['a percentage beyond 100 is held at 100', [u('DOWNLOADING', 140)], { percent: 80 }],
  ])('%s', (_name, updates, expected) => {
    expect(rolloutProgress(updates)).toMatchObject(expected);
  });
});

describe('knownFirmware', () => {
  const fleet = [
    { hw: 'ZEN_IOT:rev3:4G', fw: '4.10.2' },
    { hw: 'zen_iot:rev2', fw: '4.9.0' },
    { hw: 'ZEN_IOT', fw: '4.10.2' },
    { hw: 'ZEN_IOT', fw: null },
    { hw: 'NIM3:a', fw: '2.1' },
    { hw: null, fw: '1.0.0' },
  ];
  it.each<[string, { hw: string | null }[], FamilyFirmware[]]>([
    [
      'one family: each version once, newest first (by dotted parts)',
      [{ hw: 'ZEN_IOT:rev1' }],
      [{ family: 'ZEN_IOT', versions: ['4.10.2', '4.9.0'] }],
    ],
    [
      'several families: one list each',
      [{ hw: 'NIM3' }, { hw: 'ZEN_IOT' }],
      [
        { family: 'NIM3', versions: ['2.1'] },
        { family: 'ZEN_IOT', versions: ['4.10.2', '4.9.0'] },
      ],
    ],
    ['a family nobody runs: no version known', [{ hw: 'ZEN6' }], [{ family: 'ZEN6', versions: [] }]],
    ['devices of no known family', [{ hw: 'X1' }], [{ family: null, versions: ['1.0.0'] }]],
  ])('%s', (_name, chosen, expected) => {
    expect(knownFirmware(fleet, chosen)).toEqual(expected);
  });

  it('writes the update command of a version', () => {
    expect(firmwareUpdateCommand('4.10.2')).toBe('firmware 4.10.2');
  });
});
