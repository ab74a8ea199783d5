// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryObserver } from '@tanstack/react-query';
import { accountQuery } from '../api/get-account';
import { appStore } from '../app-store/app-store';
import { deviceQueryKey } from '../api/get-device';
import { queryClient } from '../query-client';
import { startRealtime, stopRealtime, watchDevices } from './realtime-connection';
import { realtimeStore } from './realtime-store';
import {
  AnsweringSocket,
  breakRealtime,
  openRealtime,
  pushConnectionState,
  resetSentRequests,
  sentRequests as sent,
} from './fixtures';

/** A break of the channel, then the console's second socket open. */
async function reconnect(): Promise<void> {
  await breakRealtime();
  await vi.waitFor(() => expect(realtimeStore.getState().connectionCount).toBe(2));
}

const subscriptions = () => sent.filter((request) => request.type === 'server/subscribeDevices');

beforeEach(() => {
  resetSentRequests();
  vi.stubGlobal('WebSocket', AnsweringSocket);
});
afterEach(() => {
  stopRealtime();
  queryClient.clear();
  vi.unstubAllGlobals();
});

// A page may open before the real-time client's chunks are in (a demo's simulation worker loads
// longer): its watches wait for the first socket instead of being dropped.
describe('watches made before the connection starts', () => {
  it('are subscribed when the first socket opens', async () => {
    const stop = watchDevices(['DEV-1', 'DEV-2']);
    await startRealtime({ token: 'token', canViewDash: true, onUnauthorized: () => {} });
    await vi.waitFor(() =>
      expect(subscriptions()).toEqual([{ type: 'server/subscribeDevices', thingNames: ['DEV-1', 'DEV-2'] }]),
    );
    stop();
    await vi.waitFor(() =>
      expect(sent.at(-1)).toEqual({ type: 'server/unsubscribeDevices', thingNames: ['DEV-1', 'DEV-2'] }),
    );
  });

  // The server takes at most 500 devices a request (and answers each with their current state): a
  // page watching more used to send them in one request, which was refused whole.
  it('are subscribed in requests of at most 500 devices, and so are later watches and unwatches', async () => {
    const many = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) => `DEV-${String(from + index).padStart(4, '0')}`);
    const stopFirst = watchDevices(many(0, 1200));
    await openRealtime();
    await vi.waitFor(() =>
      expect(subscriptions().map((request) => (request.thingNames as string[]).length)).toEqual([500, 500, 200]),
    );
    expect(subscriptions().flatMap((request) => request.thingNames as string[])).toEqual(many(0, 1200));
    resetSentRequests();
    const stopSecond = watchDevices(many(1200, 600));
    await vi.waitFor(() =>
      expect(subscriptions().map((request) => (request.thingNames as string[]).length)).toEqual([500, 100]),
    );
    stopFirst();
    stopSecond();
    const unsubscriptions = () => sent.filter((request) => request.type === 'server/unsubscribeDevices');
    await vi.waitFor(() =>
      expect(unsubscriptions().map((request) => (request.thingNames as string[]).length)).toEqual([
        500, 500, 200, 500, 100,
      ]),
    );
  });

  it('subscribe nothing for a user without view-dashboard (§4)', async () => {
    watchDevices(['DEV-1']);
    await openRealtime(false);
    expect(subscriptions()).toEqual([]);
  });

  it('are forgotten at sign-out', async () => {
    watchDevices(['DEV-1']);
    stopRealtime();
    await startRealtime({ token: 'token', canViewDash: true, onUnauthorized: () => {} });
    watchDevices(['DEV-2']);
    await vi.waitFor(() =>
      expect(subscriptions()).toEqual([{ type: 'server/subscribeDevices', thingNames: ['DEV-2'] }]),
    );
  });
});

// The settings screen shows a device's registers as its record's, overridden by the live config.
describe('device configs after a reconnect', () => {
  type Registers = Record<string, number>;
  /** What the server stores per device record; a request waits while `held` is set. */
  const stored = new Map<string, Registers>();
  let held: Promise<void> | null = null;
  let reads = 0;
  /** How many subscriptions had left when each record was read. */
  let subscribedAtRead: number[] = [];

  /** A screen showing one device's record, as the device pages keep it (an active query). */
  function showRecord(id: string) {
    const observer = new QueryObserver(queryClient, {
      queryKey: deviceQueryKey(id),
      queryFn: async () => {
        reads += 1;
        subscribedAtRead.push(subscriptions().length);
        await held;
        return { registers: { ...stored.get(id) } };
      },
      staleTime: 30_000,
    });
    const stop = observer.subscribe(() => {});
    return { stop, registers: () => observer.getCurrentResult().data?.registers };
  }
  const liveRegisters = (thingName: string) => realtimeStore.getState().config[thingName]?.registers;
  const pushRegisters = (thingName: string, registers: Registers) =>
    AnsweringSocket.latest!.push({ type: 'server/deviceConfig', thingName, config: { subtype: 'device', registers } });

  beforeEach(async () => {
    stored.clear();
    held = null;
    reads = 0;
    subscribedAtRead = [];
    await openRealtime();
  });

  afterEach(() => history.replaceState(null, '', '/'));

  it('show a change the device confirmed while the socket was down', async () => {
    // The device dash watches the device and subscribes again after a break (§2).
    history.replaceState(null, '', '/dash/PUMP_1');
    const stopWatching = watchDevices(['PUMP_1']);
    await vi.waitFor(() => expect(subscriptions()).toHaveLength(1));
    stored.set('dev-1', { '40': 0 });
    const record = showRecord('dev-1');
    await vi.waitFor(() => expect(record.registers()).toEqual({ '40': 0 }));
    stored.set('dev-1', { '40': 1 });
    pushRegisters('PUMP_1', { '40': 1 });
    await vi.waitFor(() => expect(liveRegisters('PUMP_1')).toEqual({ '40': 1 }));

    // The write of 2 is confirmed while the socket is down: the server stores it, its push is lost.
    stored.set('dev-1', { '40': 2 });
    const readsBefore = reads;
    await reconnect();

    await vi.waitFor(() => expect({ ...record.registers(), ...liveRegisters('PUMP_1') }).toEqual({ '40': 2 }));
    expect(reads).toBe(readsBefore + 1);
    // Read once the device is watched again, so no push falls between the read and the watch.
    expect(subscriptions()).toHaveLength(2);
    expect(subscribedAtRead.at(-1)).toBe(2);
    record.stop();
    stopWatching();
  });

  it('keep a config pushed on the new socket before the records are read', async () => {
    // Shown on a page: the server pushes only what a socket subscribed to.
    const stopWatching = watchDevices(['PUMP_1', 'PUMP_2']);
    stored.set('dev-1', { '40': 0 });
    stored.set('dev-2', { '7': 0 });
    const first = showRecord('dev-1');
    const second = showRecord('dev-2');
    await vi.waitFor(() => expect(second.registers()).toEqual({ '7': 0 }));
    pushRegisters('PUMP_1', { '40': 1 });
    pushRegisters('PUMP_2', { '7': 1 });
    await vi.waitFor(() => expect(liveRegisters('PUMP_2')).toEqual({ '7': 1 }));

    let answer = () => {};
    held = new Promise((resolve) => (answer = resolve));
    stored.set('dev-1', { '40': 2 });
    stored.set('dev-2', { '7': 2 });
    await reconnect();
    await vi.waitFor(() => expect(reads).toBe(4));
    // Until the records are in, the live configs stay: no screen falls back to an older record.
    expect(liveRegisters('PUMP_2')).toEqual({ '7': 1 });
    pushRegisters('PUMP_1', { '40': 3 });
    await vi.waitFor(() => expect(liveRegisters('PUMP_1')).toEqual({ '40': 3 }));
    answer();

    await vi.waitFor(() => expect(liveRegisters('PUMP_2')).toBeUndefined());
    expect(second.registers()).toEqual({ '7': 2 });
    expect({ ...first.registers(), ...liveRegisters('PUMP_1') }).toEqual({ '40': 3 });
    first.stop();
    second.stop();
    stopWatching();
  });
});

// A device's online badge and the banner's disconnected count show its live connection state over
// the one read with its record or the account tree.
describe('connection states after a reconnect', () => {
  /** Per thing name, whether the server's stored state says connected; a read waits while `held` is set. */
  const stored = new Map<string, boolean>();
  let held: Promise<void> | null = null;
  let treeReads = 0;

  /** The shell's account tree (an active query), carrying each device's connection flag. */
  function showTree() {
    const observer = new QueryObserver(queryClient, {
      queryKey: accountQuery().queryKey,
      queryFn: async () => {
        treeReads += 1;
        await held;
        return new Map(stored);
      },
      staleTime: 60_000,
    });
    const stop = observer.subscribe(() => {});
    return {
      stop,
      /** What a badge shows: the live state, else the tree's flag. */
      isConnected: (thingName: string) =>
        realtimeStore.getState().connection[thingName]?.isConnected ?? observer.getCurrentResult().data?.get(thingName),
    };
  }
  const live = (thingName: string) => realtimeStore.getState().connection[thingName];

  beforeEach(async () => {
    stored.clear();
    held = null;
    treeReads = 0;
    await openRealtime();
  });

  afterEach(() => history.replaceState(null, '', '/'));

  it('show a device that went offline while the socket was down', async () => {
    // Shown on a page: the server pushes only what a socket subscribed to.
    const stopWatching = watchDevices(['PUMP_1']);
    stored.set('PUMP_1', false);
    const tree = showTree();
    await vi.waitFor(() => expect(tree.isConnected('PUMP_1')).toBe(false));
    stored.set('PUMP_1', true);
    pushConnectionState('PUMP_1', true);
    await vi.waitFor(() => expect(tree.isConnected('PUMP_1')).toBe(true));

    // The device drops while the console's socket is down: the server stores it, its push is lost.
    stored.set('PUMP_1', false);
    const readsBefore = treeReads;
    await reconnect();

    await vi.waitFor(() => expect(tree.isConnected('PUMP_1')).toBe(false));
    expect(treeReads).toBe(readsBefore + 1);
    expect(live('PUMP_1')).toBeUndefined();
    tree.stop();
    stopWatching();
  });

  it('keep a state pushed on the new socket, and the old ones until the tree is read', async () => {
    // Shown on a page: the server pushes only what a socket subscribed to.
    const stopWatching = watchDevices(['PUMP_1', 'PUMP_2']);
    stored.set('PUMP_1', true);
    stored.set('PUMP_2', true);
    const tree = showTree();
    await vi.waitFor(() => expect(tree.isConnected('PUMP_2')).toBe(true));
    pushConnectionState('PUMP_1', false);
    pushConnectionState('PUMP_2', false);
    await vi.waitFor(() => expect(live('PUMP_2')?.isConnected).toBe(false));

    let answer = () => {};
    held = new Promise((resolve) => (answer = resolve));
    stored.set('PUMP_1', false);
    stored.set('PUMP_2', true);
    await reconnect();
    await vi.waitFor(() => expect(treeReads).toBe(2));
    // Until the tree is in, the live states stay: no badge falls back to the tree read before the break.
    expect(tree.isConnected('PUMP_2')).toBe(false);
    // PUMP_1 comes back on the new socket, after the tree was asked for: its push is newer than the read.
    pushConnectionState('PUMP_1', true);
    await vi.waitFor(() => expect(live('PUMP_1')?.isConnected).toBe(true));
    answer();

    await vi.waitFor(() => expect(live('PUMP_2')).toBeUndefined());
    expect(tree.isConnected('PUMP_2')).toBe(true);
    expect(tree.isConnected('PUMP_1')).toBe(true);
    tree.stop();
    stopWatching();
  });

  it('do not hold the reconnect overlay for the tree on a page that subscribes again', async () => {
    history.replaceState(null, '', '/dash/PUMP_1');
    const stopWatching = watchDevices(['PUMP_1']);
    await vi.waitFor(() => expect(subscriptions()).toHaveLength(1));
    stored.set('PUMP_1', true);
    const tree = showTree();
    await vi.waitFor(() => expect(tree.isConnected('PUMP_1')).toBe(true));
    pushConnectionState('PUMP_1', true);
    await vi.waitFor(() => expect(live('PUMP_1')?.isConnected).toBe(true));

    let answer = () => {};
    held = new Promise((resolve) => (answer = resolve));
    stored.set('PUMP_1', false);
    await reconnect();
    await vi.waitFor(() => expect(subscriptions()).toHaveLength(2));
    await vi.waitFor(() => expect(treeReads).toBe(2));
    // The screen is usable again while the tree is read; the badge keeps the live state meanwhile.
    await vi.waitFor(() => expect(appStore.getState().overlays).toEqual([]));
    expect(tree.isConnected('PUMP_1')).toBe(true);
    answer();

    await vi.waitFor(() => expect(tree.isConnected('PUMP_1')).toBe(false));
    tree.stop();
    stopWatching();
  });
});

// The device's OTA status, a sprayer's alarm bits and the health panel show the live entry over the record.
describe('OTA progress, alarm bits and health after a reconnect', () => {
  interface Stored {
    percent: number;
    sp: number;
  }
  /** What the server stores per device record; a request waits while `held` is set. */
  const stored = new Map<string, Stored>();
  let held: Promise<void> | null = null;
  let reads = 0;

  const update = (percent: number) => ({
    id: 'update-1',
    rolloutId: 'rollout-1',
    state: percent < 100 ? 'DOWNLOADING' : 'SUCCEEDED',
    percent,
    updateCommand: 'fw 2.1',
    submittedAt: 1_700_000_000_000,
    finishedAt: percent < 100 ? null : 1_700_000_600_000,
    error: null,
    fw: percent < 100 ? null : '2.1',
  });
  /** A device page's record (an active query), and what it shows: the live entry, else the record. */
  function showRecord(id: string, thingName: string) {
    const observer = new QueryObserver(queryClient, {
      queryKey: deviceQueryKey(id),
      queryFn: async () => {
        reads += 1;
        await held;
        const { percent, sp } = stored.get(id)!;
        return { update: update(percent), status: { sp } };
      },
      staleTime: 30_000,
    });
    const stop = observer.subscribe(() => {});
    const record = () => observer.getCurrentResult().data;
    return {
      stop,
      percent: () => (realtimeStore.getState().ota[thingName]?.update ?? record()?.update)?.percent,
      sp: () => realtimeStore.getState().alarms[thingName]?.sp ?? record()?.status.sp,
    };
  }
  const push = (thingName: string, deviceId: string, { percent, sp }: Partial<Stored>) => {
    if (percent !== undefined) {
      AnsweringSocket.latest!.push({
        type: 'server/otaProgress',
        thingName,
        deviceId,
        update: update(percent),
        otaPendingSubmittedAt: null,
      });
    }
    if (sp !== undefined) AnsweringSocket.latest!.push({ type: 'server/alarms', thingName, status: { sp } });
  };

  beforeEach(async () => {
    stored.clear();
    held = null;
    reads = 0;
    await openRealtime();
  });

  it('show an update that ended and an alarm that cleared while the socket was down', async () => {
    // Shown on a page: the server pushes only what a socket subscribed to.
    const stopWatching = watchDevices(['SPRAY_1', 'SPRAY_2']);
    stored.set('dev-1', { percent: 10, sp: 0 });
    stored.set('dev-2', { percent: 10, sp: 0 });
    const first = showRecord('dev-1', 'SPRAY_1');
    const second = showRecord('dev-2', 'SPRAY_2');
    await vi.waitFor(() => expect(second.percent()).toBe(10));
    push('SPRAY_1', 'dev-1', { percent: 40, sp: 1 << 14 });
    push('SPRAY_2', 'dev-2', { percent: 40, sp: 1 << 14 });
    // Health comes every 15 minutes or so: the record read after the break is newer than this one.
    AnsweringSocket.latest!.push({ type: 'server/health', thingName: 'SPRAY_2', health: { t: 1_700_000_000_000 } });
    await vi.waitFor(() => expect(second.sp()).toBe(1 << 14));

    // Both updates end and both alarms clear during the break: stored, the pushes lost.
    let answer = () => {};
    held = new Promise((resolve) => (answer = resolve));
    stored.set('dev-1', { percent: 100, sp: 0 });
    stored.set('dev-2', { percent: 100, sp: 0 });
    await reconnect();
    await vi.waitFor(() => expect(reads).toBe(4));
    // Until the records are in, the live entries stay; SPRAY_1's alarm comes back on the new socket.
    expect(second.percent()).toBe(40);
    push('SPRAY_1', 'dev-1', { sp: 1 << 6 });
    await vi.waitFor(() => expect(first.sp()).toBe(1 << 6));
    answer();

    await vi.waitFor(() => expect(second.percent()).toBe(100));
    expect(second.sp()).toBe(0);
    expect(realtimeStore.getState().health.SPRAY_2).toBeUndefined();
    expect(first.percent()).toBe(100);
    expect(first.sp()).toBe(1 << 6);
    first.stop();
    second.stop();
    stopWatching();
  });
});
