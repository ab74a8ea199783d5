import { describe, expect, it } from 'vitest';
import type { ServerAction } from '@fieldlink/api/realtime';
import { applyServerActions, INITIAL_REALTIME_STATE, mergeLatestValues, type RealtimeState } from './realtime-store';

const NOW = 1_700_000_000_000;
/** One action applied on its own: a burst of one. */
const applyServerAction = (state: RealtimeState, action: ServerAction, now: number) =>
  applyServerActions(state, [action], now);
const logs = (thingName: string, byCode: Record<string, { value: number; t: number }[]>) =>
  ({ type: 'server/newRawLogs', thingName, logs: byCode }) as const;

describe('latest values', () => {
  it('keeps the newest sample of a batch', () => {
    const state = applyServerAction(
      INITIAL_REALTIME_STATE,
      logs('PUMP_1', {
        c1: [
          { value: 1, t: NOW - 3000 },
          { value: 3, t: NOW - 1000 },
          { value: 2, t: NOW - 2000 },
        ],
      }),
      NOW,
    );
    expect(state.latest.PUMP_1?.c1).toEqual({ value: 3, t: NOW - 1000 });
  });

  it.each([
    { name: 'newer replaces', t: NOW - 500, value: 9, expected: 9 },
    { name: 'same time replaces', t: NOW - 1000, value: 9, expected: 9 },
    { name: 'older is ignored', t: NOW - 5000, value: 9, expected: 3 },
    { name: 'beyond 900 s in the future is dropped', t: NOW + 901_000, value: 9, expected: 3 },
    { name: 'within 900 s in the future is kept', t: NOW + 899_000, value: 9, expected: 9 },
  ])('$name', ({ t, value, expected }) => {
    const first = mergeLatestValues(INITIAL_REALTIME_STATE, 'PUMP_1', { c1: [{ value: 3, t: NOW - 1000 }] }, NOW);
    const next = mergeLatestValues(first, 'PUMP_1', { c1: [{ value, t }] }, NOW);
    expect(next.latest.PUMP_1?.c1?.value).toBe(expected);
  });

  it('keeps the identity of untouched devices and channels', () => {
    let state = mergeLatestValues(INITIAL_REALTIME_STATE, 'PUMP_1', { c1: [{ value: 1, t: NOW }] }, NOW);
    state = mergeLatestValues(state, 'PUMP_2', { c1: [{ value: 1, t: NOW }], c2: [{ value: 2, t: NOW }] }, NOW);
    const pump1 = state.latest.PUMP_1;
    const pump2c1 = state.latest.PUMP_2?.c1;
    const next = mergeLatestValues(state, 'PUMP_2', { c2: [{ value: 5, t: NOW + 1 }] }, NOW);
    expect(next.latest.PUMP_1).toBe(pump1);
    expect(next.latest.PUMP_2?.c1).toBe(pump2c1);
    expect(next.latest.PUMP_2?.c2?.value).toBe(5);
  });

  it('returns the same state when nothing changes', () => {
    const state = mergeLatestValues(INITIAL_REALTIME_STATE, 'PUMP_1', { c1: [{ value: 1, t: NOW }] }, NOW);
    expect(mergeLatestValues(state, 'PUMP_1', { c1: [{ value: 1, t: NOW }] }, NOW)).toBe(state);
    expect(mergeLatestValues(state, 'PUMP_1', { c1: [{ value: 0, t: NOW - 1 }] }, NOW)).toBe(state);
    expect(mergeLatestValues(state, 'PUMP_1', { c1: [] }, NOW)).toBe(state);
  });

  it('takes demo latest values through the same rule', () => {
    const state = applyServerAction(
      INITIAL_REALTIME_STATE,
      { type: 'server/demoLatestValue', thingName: 'X_DEMO', code: 'sp1', latest: { value: 21.5, t: NOW } },
      NOW,
    );
    expect(state.latest.X_DEMO?.sp1?.value).toBe(21.5);
  });
});

describe('device state', () => {
  it('tracks connection state, health, config and setpoint status by thing name', () => {
    let state = applyServerAction(
      INITIAL_REALTIME_STATE,
      {
        type: 'server/connectionState',
        thingName: 'PUMP_1',
        isConnected: false,
        lastConnection: 1,
        lastDisconnection: 2,
      },
      NOW,
    );
    state = applyServerAction(state, { type: 'server/health', thingName: 'PUMP_1', health: { signal: -70 } }, NOW);
    state = applyServerAction(
      state,
      { type: 'server/deviceConfig', thingName: 'PUMP_1', config: { subtype: 'device', uploadInterval: 5 } },
      NOW,
    );
    state = applyServerAction(
      state,
      { type: 'server/deviceConfig', thingName: 'PUMP_1', config: { subtype: 'device', logInterval: 60 } },
      NOW,
    );
    state = applyServerAction(
      state,
      { type: 'server/setpointStatus', thingName: 'PUMP_1', code: 'sp2', state: 'on', value: 1 },
      NOW,
    );
    expect(state.connection.PUMP_1).toEqual({ isConnected: false, lastConnection: 1, lastDisconnection: 2 });
    expect(state.health.PUMP_1).toEqual({ signal: -70 });
    expect(state.config.PUMP_1).toMatchObject({ uploadInterval: 5, logInterval: 60 });
    expect(state.setpoints.PUMP_1?.sp2).toEqual({ state: 'on', value: 1 });
  });

  it('starts DISCONNECTED', () => {
    expect(INITIAL_REALTIME_STATE.status).toBe('DISCONNECTED');
  });
});

describe('OTA progress', () => {
  it('keeps the latest OTA update pushed per device, leaving other devices as they were', () => {
    const update = {
      id: 'u1',
      rolloutId: 'r1',
      state: 'DOWNLOADING' as const,
      percent: 40,
      updateCommand: 'firmware 5.0.0',
      submittedAt: NOW,
      finishedAt: null,
      error: null,
      fw: null,
    };
    const before = applyServerAction(INITIAL_REALTIME_STATE, logs('PUMP_2', { c1: [{ value: 1, t: NOW }] }), NOW);
    const state = applyServerAction(
      before,
      { type: 'server/otaProgress', thingName: 'PUMP_1', deviceId: 'd1', update, otaPendingSubmittedAt: NOW },
      NOW,
    );
    expect(state.ota.PUMP_1).toEqual({ deviceId: 'd1', update, otaPendingSubmittedAt: NOW });
    expect(state.latest).toBe(before.latest);
    const finished = applyServerAction(
      state,
      {
        type: 'server/otaProgress',
        thingName: 'PUMP_1',
        deviceId: 'd1',
        update: { ...update, state: 'SUCCEEDED', percent: 100, finishedAt: NOW + 1 },
        otaPendingSubmittedAt: null,
        reloadedAt: NOW + 30_001,
      },
      NOW,
    );
    expect(finished.ota.PUMP_1).toMatchObject({ update: { state: 'SUCCEEDED' }, reloadedAt: NOW + 30_001 });
  });
  it('keeps each report’s pushed progress by report id, leaving device state untouched', () => {
    const before = applyServerAction(INITIAL_REALTIME_STATE, logs('PUMP_1', { c1: [{ value: 1, t: NOW }] }), NOW);
    const progress = { accountId: 'a1', state: 'GENERATING' as const, percent: 40, error: null };
    const state = applyServerAction(before, { type: 'server/reportProgress', reportId: 'r1', ...progress }, NOW);
    expect(state.reports).toEqual({ r1: progress });
    expect(state.latest).toBe(before.latest);
    const failed = applyServerAction(
      state,
      {
        type: 'server/reportProgress',
        reportId: 'r1',
        accountId: 'a1',
        state: 'ERROR',
        percent: null,
        error: 'No data.',
      },
      NOW,
    );
    expect(failed.reports.r1).toEqual({ accountId: 'a1', state: 'ERROR', percent: null, error: 'No data.' });
  });
});
