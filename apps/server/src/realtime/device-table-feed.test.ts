import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { REALTIME_PATH, type ServerAction, type ServerActionOf } from '@fieldlink/api/realtime';
import type { OtaUpdate } from '@fieldlink/api/ota';
import type { DeviceEvent } from '../events';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { TestSocket } from '../../testing/test-socket';
import { demoFleet } from '../seed/seed';
import { DeviceTableFeed, tableFieldsOf, type TableWatcher } from './device-table-feed';

const update = (state: OtaUpdate['state'], percent: number | null, fw: string | null = null): OtaUpdate => ({
  id: 'u1',
  rolloutId: 'r1',
  state,
  percent,
  updateCommand: 'firmware 4.14.2',
  submittedAt: 1,
  finishedAt: null,
  error: null,
  fw,
});

describe('device table feed: what an event changes in the table', () => {
  it.each<[string, DeviceEvent, ReturnType<typeof tableFieldsOf>]>([
    [
      'a connection state',
      { type: 'server/connectionState', thingName: 'A-1', isConnected: false, lastConnection: 5, lastDisconnection: 9 },
      { isConnected: false, lastConnection: 5, lastDisconnection: 9 },
    ],
    [
      'a config frame with the firmware',
      { type: 'server/deviceConfig', thingName: 'A-1', config: { subtype: 'device', fw: '4.2.0' } },
      { fw: '4.2.0' },
    ],
    [
      'a config frame without it',
      { type: 'server/deviceConfig', thingName: 'A-1', config: { subtype: 'device', uploadInterval: 60 } },
      null,
    ],
    [
      'OTA progress',
      {
        type: 'server/otaProgress',
        thingName: 'A-1',
        deviceId: 'd',
        update: update('DOWNLOADING', 40),
        otaPendingSubmittedAt: 7,
      },
      { otaState: 'DOWNLOADING', otaPercent: 40, otaPendingSubmittedAt: 7 },
    ],
    [
      'a finished update, with the firmware it installed',
      {
        type: 'server/otaProgress',
        thingName: 'A-1',
        deviceId: 'd',
        update: update('SUCCEEDED', 100, '4.14.2'),
        otaPendingSubmittedAt: null,
      },
      { otaState: 'SUCCEEDED', otaPercent: 100, otaPendingSubmittedAt: null, fw: '4.14.2' },
    ],
    ['a value', { type: 'server/newRawLogs', thingName: 'A-1', logs: { c1: [{ value: 1, t: 1 }] } }, null],
  ])('%s', (_name, event, fields) => {
    expect(tableFieldsOf(event)).toEqual(fields);
  });
});

describe('device table feed: batches', () => {
  const paths = new Map([
    ['A-1', './a/'],
    ['A-2', './a/'],
    ['B-1', './b/'],
  ]);
  const watcher = (scope: string) => {
    const sent: ServerActionOf<'server/deviceTableChanges'>[] = [];
    const w: TableWatcher = { inScope: (path) => path.startsWith(scope), send: (action) => sent.push(action) };
    return { w, sent };
  };
  const feedOf = (maxChanges = 10) =>
    new DeviceTableFeed({
      groupPaths: (names) => Promise.resolve(new Map(names.flatMap((n) => (paths.has(n) ? [[n, paths.get(n)!]] : [])))),
      onError: (error) => {
        throw error;
      },
      intervalMs: 60_000,
      maxChanges,
      now: () => 1000,
    });
  const connection = (thingName: string, isConnected: boolean): DeviceEvent => ({
    type: 'server/connectionState',
    thingName,
    isConnected,
    lastConnection: 1,
    lastDisconnection: 2,
  });

  it('sends each watcher one batch of its own devices, each device once with its latest fields', async () => {
    const feed = feedOf();
    const a = watcher('./a/');
    const b = watcher('./b/');
    feed.watch(a.w);
    feed.watch(b.w);
    feed.note(connection('A-1', false));
    feed.note({ type: 'server/deviceConfig', thingName: 'A-1', config: { subtype: 'device', fw: '4.3.0' } });
    feed.note(connection('A-1', true));
    feed.note(connection('B-1', true));
    feed.note(connection('GONE-1', true));
    await feed.flush();
    expect(a.sent).toEqual([
      {
        type: 'server/deviceTableChanges',
        at: 1000,
        changes: [{ thingName: 'A-1', isConnected: true, lastConnection: 1, lastDisconnection: 2, fw: '4.3.0' }],
      },
    ]);
    expect(b.sent.map((batch) => batch.changes.map((change) => change.thingName))).toEqual([['B-1']]);
    // Nothing new: nothing sent.
    await feed.flush();
    expect(a.sent).toHaveLength(1);
    feed.stop();
  });

  it('asks a watcher’s scope once per group of a batch, not once per device', async () => {
    const feed = feedOf();
    const asked: string[] = [];
    const sent: ServerActionOf<'server/deviceTableChanges'>[] = [];
    feed.watch({
      inScope: (path) => (asked.push(path), path === './a/'),
      send: (action) => sent.push(action),
    });
    for (const thingName of ['A-1', 'B-1', 'A-2']) feed.note(connection(thingName, true));
    await feed.flush();
    expect(asked.sort()).toEqual(['./a/', './b/']);
    expect(sent.flatMap((batch) => batch.changes.map((change) => change.thingName))).toEqual(['A-1', 'A-2']);
    feed.stop();
  });

  it('gathers nothing while nobody watches, and stops when the last watcher leaves', async () => {
    const feed = feedOf();
    const a = watcher('./a/');
    feed.note(connection('A-1', true));
    feed.watch(a.w);
    await feed.flush();
    expect(a.sent).toEqual([]);
    feed.note(connection('A-2', true));
    feed.unwatch(a.w);
    feed.watch(a.w);
    await feed.flush();
    expect(a.sent).toEqual([]);
    feed.stop();
  });

  it('asks for a reload instead of sending more changes than a batch may hold', async () => {
    const feed = feedOf(1);
    const a = watcher('./a/');
    feed.watch(a.w);
    feed.note(connection('A-1', true));
    feed.note(connection('A-2', true));
    await feed.flush();
    expect(a.sent).toEqual([{ type: 'server/deviceTableChanges', at: 1000, changes: [], reload: true }]);
    feed.stop();
  });
});

describe.each(DIALECTS)('device table feed over the real-time channel on %s', (dialect) => {
  let t: TestApp;
  let wsUrl: string;
  const closers: (() => unknown)[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, listen: true });
    wsUrl = `${baseUrl(t.app).replace('http', 'ws')}${REALTIME_PATH}`;
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.close();
  });

  const open = async (email: string) => {
    const socket = await TestSocket.open(wsUrl, await signIn(t.app, email), baseUrl(t.app));
    closers.push(() => socket.socket.close());
    return socket;
  };
  const isBatch = (action: ServerAction): action is ServerActionOf<'server/deviceTableChanges'> =>
    action.type === 'server/deviceTableChanges';

  it('pushes a device connecting to the browsers watching the table in its scope, and only to them', async () => {
    const viewer = await open('viewer@fieldlink.test');
    const water = await open('water@fieldlink.test');
    const leaving = await open('viewer@fieldlink.test');
    for (const socket of [viewer, water, leaving]) {
      expect(await socket.request({ type: 'server/watchDeviceTable' })).toMatchObject({ ok: true });
    }
    expect(await leaving.request({ type: 'server/unwatchDeviceTable' })).toMatchObject({ ok: true });

    const password = (await demoFleet(t.app.storage.db)).find((entry) => entry.thingName === 'ACME-BLR01')!.password;
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: 'ACME-BLR01',
      username: 'ACME-BLR01',
      password,
      reconnectPeriod: 0,
    });
    closers.push(() => client.endAsync(true));

    const batch = (await viewer.waitFor(
      (action) => isBatch(action) && action.changes.some((change) => change.thingName === 'ACME-BLR01'),
    )) as ServerActionOf<'server/deviceTableChanges'>;
    expect(batch.changes.find((change) => change.thingName === 'ACME-BLR01')).toMatchObject({ isConnected: true });
    expect(batch.at).toBeGreaterThan(Date.now() - 10_000);
    // Another account's browser, and one that stopped watching, hear nothing of it: one flush sends
    // every watcher its share at once, so what they were sent has arrived once each has settled.
    await water.settle();
    await leaving.settle();
    expect(water.received.filter(isBatch)).toEqual([]);
    expect(leaving.received.filter(isBatch)).toEqual([]);
  });
});
