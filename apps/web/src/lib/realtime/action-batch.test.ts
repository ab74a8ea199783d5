import { describe, expect, it } from 'vitest';
import type { ServerAction } from '@fieldlink/api/realtime';
import { createStore } from '../create-store';
import { ActionBatch } from './action-batch';
import { applyServerActions, INITIAL_REALTIME_STATE, type RealtimeState } from './realtime-store';

const NOW = 1_700_000_000_000;

const connection = (thingName: string, isConnected: boolean): ServerAction => ({
  type: 'server/connectionState',
  thingName,
  isConnected,
  lastConnection: NOW - 10_000,
  lastDisconnection: isConnected ? null : NOW - 5_000,
});
const config = (thingName: string, fields: { uploadInterval?: number; logInterval?: number }): ServerAction => ({
  type: 'server/deviceConfig',
  thingName,
  config: { subtype: 'device', ...fields },
});
const alarms = (thingName: string, sp: number): ServerAction => ({ type: 'server/alarms', thingName, status: { sp } });
const health = (thingName: string, signal: number): ServerAction => ({
  type: 'server/health',
  thingName,
  health: { signal },
});
const setpoint = (thingName: string, code: string, value: number): ServerAction => ({
  type: 'server/setpointStatus',
  thingName,
  code,
  state: value !== 0 ? 'on' : 'off',
  value,
});
const sample = (thingName: string, code: string, value: number, t: number): ServerAction => ({
  type: 'server/newRawLogs',
  thingName,
  logs: { [code]: [{ value, t }] },
});

/** A batch over its own store; `flushes` runs what it scheduled. */
function setUp(watched: Iterable<string> = ['PUMP_1', 'PUMP_2', 'PUMP_3']) {
  const store = createStore<RealtimeState>(INITIAL_REALTIME_STATE);
  const watching = new Set(watched);
  let scheduled: (() => void)[] = [];
  let notifications = 0;
  store.subscribe(() => (notifications += 1));
  const batch = new ActionBatch({
    store,
    isWatched: (thingName) => watching.has(thingName),
    schedule: (flush) => scheduled.push(flush),
    now: () => NOW,
  });
  return {
    store,
    batch,
    watching,
    notifications: () => notifications,
    scheduledCount: () => scheduled.length,
    /** Runs the flushes asked for so far, or only the first `count` of them. */
    runScheduled: (count = scheduled.length) => {
      const due = scheduled.slice(0, count);
      scheduled = scheduled.slice(count);
      for (const flush of due) flush();
    },
  };
}

describe('a burst of actions, applied in order as one store change', () => {
  it.each<{ name: string; actions: ServerAction[]; expected: (state: RealtimeState) => unknown; value: unknown }>([
    {
      name: 'the later connection state wins',
      actions: [connection('PUMP_1', false), connection('PUMP_1', true)],
      expected: (state) => state.connection.PUMP_1?.isConnected,
      value: true,
    },
    {
      name: 'configs merge in order, the later field winning',
      actions: [config('PUMP_1', { uploadInterval: 5 }), config('PUMP_1', { uploadInterval: 7, logInterval: 60 })],
      expected: (state) => state.config.PUMP_1,
      value: { subtype: 'device', uploadInterval: 7, logInterval: 60 },
    },
    {
      name: 'a config sent after the state merges into it',
      actions: [config('PUMP_1', { uploadInterval: 5, logInterval: 30 }), config('PUMP_1', { logInterval: 60 })],
      expected: (state) => state.config.PUMP_1,
      value: { subtype: 'device', uploadInterval: 5, logInterval: 60 },
    },
    {
      name: 'the later alarm bits win',
      actions: [alarms('PUMP_1', 1 << 14), alarms('PUMP_1', 0)],
      expected: (state) => state.alarms.PUMP_1,
      value: { sp: 0 },
    },
    {
      name: 'setpoints of two codes both stay, the later value of one code wins',
      actions: [setpoint('PUMP_1', 'sp1', 1), setpoint('PUMP_1', 'sp2', 1), setpoint('PUMP_1', 'sp1', 0)],
      expected: (state) => state.setpoints.PUMP_1,
      value: { sp1: { state: 'off', value: 0 }, sp2: { state: 'on', value: 1 } },
    },
    {
      name: 'a latest value keeps the newest sample, whatever order they came in',
      actions: [sample('PUMP_1', 'c1', 2, NOW - 1000), sample('PUMP_1', 'c1', 1, NOW - 2000)],
      expected: (state) => state.latest.PUMP_1?.c1,
      value: { value: 2, t: NOW - 1000 },
    },
    {
      name: 'devices do not mix',
      actions: [health('PUMP_1', -70), health('PUMP_2', -80), health('PUMP_1', -75)],
      expected: (state) => state.health,
      value: { PUMP_1: { signal: -75 }, PUMP_2: { signal: -80 } },
    },
    {
      name: 'a device no longer watched is left out (a push still in flight after the unsubscribe)',
      actions: [health('PUMP_1', -70), health('GONE_1', -80)],
      expected: (state) => state.health,
      value: { PUMP_1: { signal: -70 } },
    },
    {
      name: 'the later server error wins',
      actions: [
        { type: 'server/error', message: 'First.' },
        { type: 'server/error', message: 'Second.' },
      ],
      expected: (state) => state.lastServerError,
      value: 'Second.',
    },
  ])('$name', ({ actions, expected, value }) => {
    const { store, batch, notifications, runScheduled } = setUp();
    for (const action of actions) batch.add(action);
    expect(store.getState()).toBe(INITIAL_REALTIME_STATE);
    runScheduled();
    expect(expected(store.getState())).toEqual(value);
    expect(notifications()).toBe(1);
  });

  it('tells the store’s listeners once for 4,000 actions of 1,000 devices, and schedules one flush', () => {
    const thingNames = Array.from({ length: 1000 }, (_, index) => `DEV-${index}`);
    const { store, batch, notifications, scheduledCount, runScheduled } = setUp(thingNames);
    for (const [index, thingName] of thingNames.entries()) {
      batch.add(connection(thingName, index % 2 === 0));
      batch.add(config(thingName, { uploadInterval: 60 }));
      batch.add(alarms(thingName, index));
      batch.add(health(thingName, -index));
    }
    expect(scheduledCount()).toBe(1);
    runScheduled();
    expect(notifications()).toBe(1);
    const state = store.getState();
    expect(Object.keys(state.connection)).toHaveLength(1000);
    expect(state.connection['DEV-1']?.isConnected).toBe(false);
    expect(state.health['DEV-999']).toEqual({ signal: -999 });
  });

  it('changes nothing (and tells nobody) for a burst of nothing new', () => {
    const { store, batch, notifications, runScheduled } = setUp();
    batch.add(health('GONE_1', -70));
    batch.add({ type: 'server/reply', id: '1', ok: true });
    runScheduled();
    runScheduled();
    expect(store.getState()).toBe(INITIAL_REALTIME_STATE);
    expect(notifications()).toBe(0);
  });

  it('applies at once when flushed before its time (a reply follows the states it answers)', () => {
    const { store, batch, notifications, runScheduled } = setUp();
    batch.add(connection('PUMP_1', true));
    batch.flush();
    expect(store.getState().connection.PUMP_1?.isConnected).toBe(true);
    batch.add(connection('PUMP_1', false));
    runScheduled();
    expect(store.getState().connection.PUMP_1?.isConnected).toBe(false);
    expect(notifications()).toBe(2);
  });

  // The connection schedules a frame and a hidden tab's timer for each burst: the one left over
  // from a burst flushed early (by a reply) must not cut the next burst short.
  it('does not flush the next burst at a time asked for by one flushed early', () => {
    const { store, batch, notifications, scheduledCount, runScheduled } = setUp();
    batch.add(connection('PUMP_1', true));
    batch.flush();
    batch.add(connection('PUMP_2', true));
    expect(scheduledCount()).toBe(2);
    runScheduled(1);
    expect(store.getState().connection.PUMP_2).toBeUndefined();
    runScheduled();
    expect(store.getState().connection.PUMP_2?.isConnected).toBe(true);
    expect(notifications()).toBe(2);
  });

  it('drops what waits when cleared (sign-out)', () => {
    const { store, batch, notifications, runScheduled } = setUp();
    batch.add(connection('PUMP_1', true));
    batch.clear();
    runScheduled();
    expect(store.getState()).toBe(INITIAL_REALTIME_STATE);
    expect(notifications()).toBe(0);
  });
});

describe('devices no longer watched', () => {
  /** PUMP_1 and PUMP_2 with every kind of state, applied. */
  function withState() {
    const setup = setUp();
    for (const thingName of ['PUMP_1', 'PUMP_2']) {
      setup.batch.add(connection(thingName, false));
      setup.batch.add(config(thingName, { uploadInterval: 60 }));
      setup.batch.add(alarms(thingName, 1));
      setup.batch.add(health(thingName, -70));
      setup.batch.add(setpoint(thingName, 'sp1', 1));
      setup.batch.add(sample(thingName, 'c1', 5, NOW));
      setup.batch.add({
        type: 'server/otaProgress',
        thingName,
        deviceId: `id-${thingName}`,
        update: {
          id: 'u1',
          rolloutId: 'r1',
          state: 'DOWNLOADING',
          percent: 40,
          updateCommand: 'fw 2.1',
          submittedAt: NOW,
          finishedAt: null,
          error: null,
          fw: null,
        },
        otaPendingSubmittedAt: null,
      });
    }
    setup.runScheduled();
    return setup;
  }
  const stateOf = (state: RealtimeState, thingName: string) => ({
    connection: state.connection[thingName],
    config: state.config[thingName],
    alarms: state.alarms[thingName],
    health: state.health[thingName],
    setpoints: state.setpoints[thingName],
    ota: state.ota[thingName],
  });
  const NONE = {
    connection: undefined,
    config: undefined,
    alarms: undefined,
    health: undefined,
    setpoints: undefined,
    ota: undefined,
  };

  it.each<{ name: string; run: (setup: ReturnType<typeof withState>) => void; pump1: 'kept' | 'gone' }>([
    {
      name: 'leave the store with the next flush, in one change',
      run: ({ batch, watching }) => {
        watching.delete('PUMP_1');
        batch.forget(['PUMP_1']);
      },
      pump1: 'gone',
    },
    {
      name: 'stay when a page watched them again before the flush (one page left, the next shows it)',
      run: ({ batch }) => batch.forget(['PUMP_1']),
      pump1: 'kept',
    },
    {
      name: 'take no push of the same burst with them',
      run: ({ batch, watching }) => {
        batch.add(health('PUMP_1', -50));
        watching.delete('PUMP_1');
        batch.forget(['PUMP_1']);
        batch.add(connection('PUMP_1', true));
      },
      pump1: 'gone',
    },
  ])('$name', ({ run, pump1 }) => {
    const setup = withState();
    const before = setup.store.getState();
    const notificationsBefore = setup.notifications();
    run(setup);
    setup.runScheduled();
    const after = setup.store.getState();
    expect(setup.notifications() - notificationsBefore).toBe(pump1 === 'gone' ? 1 : 0);
    expect(stateOf(after, 'PUMP_1')).toEqual(pump1 === 'gone' ? NONE : stateOf(before, 'PUMP_1'));
    // The other device keeps its entries, each the same object (nothing showing it re-renders).
    for (const [slice, entry] of Object.entries(stateOf(before, 'PUMP_2')))
      expect(stateOf(after, 'PUMP_2')[slice as keyof typeof NONE]).toBe(entry);
    // Latest samples stay: each has its time and never replaces a newer read; the offline copy keeps them.
    expect(after.latest.PUMP_1).toBe(before.latest.PUMP_1);
  });
});

describe('applyServerActions', () => {
  const actions: ServerAction[] = [
    connection('PUMP_1', false),
    config('PUMP_1', { uploadInterval: 5 }),
    sample('PUMP_2', 'c1', 1, NOW - 10),
    connection('PUMP_1', true),
    config('PUMP_1', { logInterval: 60 }),
    setpoint('PUMP_2', 'sp1', 1),
    sample('PUMP_2', 'c1', 2, NOW),
    { type: 'server/reportProgress', reportId: 'r1', accountId: 'a1', state: 'GENERATING', percent: 10, error: null },
    health('PUMP_2', -70),
  ];

  it('gives what applying them one at a time gives', () => {
    const oneByOne = actions.reduce(
      (state, action) => applyServerActions(state, [action], NOW),
      INITIAL_REALTIME_STATE,
    );
    expect(applyServerActions(INITIAL_REALTIME_STATE, actions, NOW)).toEqual(oneByOne);
  });

  it('keeps the identity of every slice and entry no action touched', () => {
    const before = applyServerActions(INITIAL_REALTIME_STATE, actions, NOW);
    const after = applyServerActions(before, [health('PUMP_1', -60), connection('PUMP_2', true)], NOW);
    expect(after.health.PUMP_2).toBe(before.health.PUMP_2);
    expect(after.connection.PUMP_1).toBe(before.connection.PUMP_1);
    for (const slice of ['latest', 'config', 'setpoints', 'reports', 'alarms', 'ota'] as const)
      expect(after[slice]).toBe(before[slice]);
  });
});
