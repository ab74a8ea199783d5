import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { AccountAnswer, GroupNode } from '@fieldlink/api/account';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { REALTIME_CLOSE, REALTIME_PATH, type ServerAction } from '@fieldlink/api/realtime';
import { demoFleet } from '../../seed/seed';
import { DIALECTS, baseUrl, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { TestSocket } from '../../../testing/test-socket';

// SECURITY.md 3: subscriptions are authorised again when access is removed by a move.
describe.each(DIALECTS)('moves revoke real-time access on %s', (dialect) => {
  let t: TestApp;
  let ops: string;
  const closers: (() => unknown)[] = [];

  const call = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: ops }, payload });
  const findGroup = (node: GroupNode, name: string): GroupNode | undefined =>
    node.name === name ? node : node.groups.map((child) => findGroup(child, name)).find(Boolean);
  const groupOf = async (name: string) => {
    const answer = (
      await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: ops } })
    ).json() as AccountAnswer;
    return findGroup(answer.accounts[0]!.rootGroup, name)!;
  };
  const open = async (email: string) => {
    const origin = baseUrl(t.app);
    const socket = await TestSocket.open(
      `${origin.replace('http', 'ws')}${REALTIME_PATH}`,
      await signIn(t.app, email),
      origin,
    );
    closers.push(() => socket.socket.close());
    return socket;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true, listen: true });
    ops = await signIn(t.app, 'ops@fieldlink.test');
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await t?.close();
  });

  it('stops a device’s frames to a user who no longer sees it, and closes a moved user’s socket', async () => {
    const root = (await groupOf('Acme Controls'))!;
    const cold = await groupOf('Cold Store');
    const boilers = await groupOf('Boiler Room');
    expect(
      (
        await call('/move', {
          type: 'USER',
          id: 'viewer@fieldlink.test',
          sourceGroupId: root.id,
          destinationGroupId: cold.id,
        })
      ).statusCode,
    ).toBe(200);
    const viewer = await open('viewer@fieldlink.test');
    // The operator keeps the device in scope: once it hears a value, the hub has sent that value to all.
    const operator = await open('ops@fieldlink.test');
    for (const socket of [viewer, operator]) {
      expect((await socket.request({ type: 'server/subscribeDevices', thingNames: ['ACME-COLD01'] })).ok).toBe(true);
    }

    const password = (await demoFleet(t.app.storage.db)).find((entry) => entry.thingName === 'ACME-COLD01')!.password;
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: 'ACME-COLD01',
      username: 'ACME-COLD01',
      password,
      reconnectPeriod: 0,
    });
    closers.push(() => device.endAsync(true));
    const publish = (value: number) =>
      device.publishAsync(
        deviceUpTopic('ACME-COLD01'),
        JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: value } }),
        {
          qos: 1,
        },
      );
    await publish(1);
    await viewer.waitFor((action) => action.type === 'server/newRawLogs');

    const freezer = cold.devices.find((entry) => entry.thingName === 'ACME-COLD01')!;
    expect(
      (await call('/move', { type: 'DEVICE', id: freezer.id, sourceGroupId: cold.id, destinationGroupId: boilers.id }))
        .statusCode,
    ).toBe(200);
    expect(await viewer.waitFor((action) => action.type === 'server/error')).toEqual({
      type: 'server/error',
      message: 'Device ACME-COLD01 is no longer available.',
    });
    const seen = viewer.received.length;
    await publish(2);
    await operator.waitFor(
      (action) =>
        action.type === 'server/newRawLogs' && action.thingName === 'ACME-COLD01' && action.logs.c1?.[0]?.value === 2,
    );
    const settled = await viewer.settle();
    expect(viewer.received.slice(seen)).toEqual([settled]);

    const closed = new Promise<number>((resolve) => viewer.socket.once('close', (code) => resolve(code)));
    await call('/move', {
      type: 'USER',
      id: 'viewer@fieldlink.test',
      sourceGroupId: cold.id,
      destinationGroupId: root.id,
    });
    expect(await closed).toBe(REALTIME_CLOSE.accessChanged);
  });

  it('stops a device’s live table changes to a browser once the device is moved out of its scope', async () => {
    const root = await groupOf('Acme Controls');
    const boilers = await groupOf('Boiler Room');
    const cold = await groupOf('Cold Store');
    const moveUser = async (from: GroupNode, to: GroupNode) =>
      expect(
        (
          await call('/move', {
            type: 'USER',
            id: 'viewer@fieldlink.test',
            sourceGroupId: from.id,
            destinationGroupId: to.id,
          })
        ).statusCode,
      ).toBe(200);
    await moveUser(root, boilers);
    const viewer = await open('viewer@fieldlink.test');
    const operator = await open('ops@fieldlink.test');
    for (const socket of [viewer, operator]) {
      expect((await socket.request({ type: 'server/watchDeviceTable' })).ok).toBe(true);
    }
    const isBoilerChange = (action: ServerAction) =>
      action.type === 'server/deviceTableChanges' && action.changes.some((change) => change.thingName === 'ACME-BLR02');
    const changesAfter = (socket: TestSocket, from: number) => socket.received.slice(from).filter(isBoilerChange);

    const password = (await demoFleet(t.app.storage.db)).find((entry) => entry.thingName === 'ACME-BLR02')!.password;
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: 'ACME-BLR02',
      username: 'ACME-BLR02',
      password,
      reconnectPeriod: 0,
    });
    closers.push(() => device.endAsync(true));
    // In the viewer's scope (Boiler Room): its connection reaches the viewer's table.
    await viewer.waitFor(isBoilerChange, 10_000);

    const boiler = boilers.devices.find((entry) => entry.thingName === 'ACME-BLR02')!;
    expect(
      (await call('/move', { type: 'DEVICE', id: boiler.id, sourceGroupId: boilers.id, destinationGroupId: cold.id }))
        .statusCode,
    ).toBe(200);
    const [viewerSeen, operatorSeen] = [viewer.received.length, operator.received.length];
    await device.endAsync(true);
    // The operator, whose scope still holds it, hears the disconnection; the viewer, in the same batch, does not.
    await operator.waitFor((action) => changesAfter(operator, operatorSeen).includes(action), 10_000);
    // One flush sends every watcher its share at once: what the viewer was sent has arrived after settle.
    await viewer.settle();
    expect(changesAfter(viewer, viewerSeen)).toEqual([]);
    await moveUser(boilers, root);
  });
});
