import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import type { Device } from '@fieldlink/api/device';
import { distanceKm } from '@fieldlink/domain/geo';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

describe.each(DIALECTS)('device calls on %s', (dialect) => {
  let t: TestApp;
  let ops: string;
  let viewer: string;
  let water: string;
  const get = (url: string, authorization: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });
  const deviceId = async (thingName: string) =>
    (
      await t.app.storage.db
        .selectFrom('devices')
        .select('id')
        .where('thing_name', '=', thingName)
        .executeTakeFirstOrThrow()
    ).id;
  const deviceCount = async () =>
    Number(
      (
        await t.app.storage.db
          .selectFrom('devices')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true });
    ops = await signIn(t.app, 'ops@fieldlink.test');
    viewer = await signIn(t.app, 'viewer@fieldlink.test');
    water = await signIn(t.app, 'water@fieldlink.test');
  });
  afterAll(() => t?.close());

  it('provisions a device into New Devices; its one-time credentials connect over MQTT', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/device',
      headers: { authorization: ops },
      payload: { name: 'Walk-in cooler' },
    });
    expect(response.statusCode).toBe(200);
    const { device, credentials } = response.json();
    expect(device).toMatchObject({ name: 'Walk-in cooler', plan: 'FREE', isConnected: false });
    const group = await t.app.storage.db
      .selectFrom('groups')
      .selectAll()
      .where('id', '=', device.groupId)
      .executeTakeFirstOrThrow();
    expect([group.kind, group.name]).toEqual(['new', 'New Devices']);
    const stored = await t.app.storage.db
      .selectFrom('devices')
      .select('secret_hash')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(stored.secret_hash).not.toContain(credentials.password);

    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: credentials.thingName,
      username: credentials.thingName,
      password: credentials.password,
      reconnectPeriod: 0,
    });
    await client.publishAsync(
      deviceUpTopic(credentials.thingName),
      JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 3.5 } }),
      { qos: 1 },
    );
    await client.endAsync();
    const latest = await get(`/api/v1/device/channels/latest-values?ids=${device.id}`, ops);
    expect(latest.json()[device.id].c1.value).toBe(3.5);
  });

  it.each([
    ['without ADD_DEVICES', () => viewer, {}, 403],
    ['into another account’s group', () => ops, { groupId: 'unknown-or-foreign' }, 404],
    ['with a field the caller must not set', () => ops, { accountId: 'x', plan: 'PREMIUM' }, 400],
  ])('refuses provisioning %s and changes nothing', async (_name, token, extra, status) => {
    const before = await deviceCount();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/device',
      headers: { authorization: token() },
      payload: { name: 'X', ...extra },
    });
    expect(response.statusCode).toBe(status);
    expect(await deviceCount()).toBe(before);
  });

  it('refuses a group of another account by its real id', async () => {
    const foreign = await t.app.storage.db
      .selectFrom('groups')
      .innerJoin('accounts', 'accounts.id', 'groups.account_id')
      .select('groups.id')
      .where('accounts.name', '=', 'Filtec Water')
      .where('groups.kind', '=', 'group')
      .executeTakeFirstOrThrow();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/device',
      headers: { authorization: ops },
      payload: { name: 'X', groupId: foreign.id },
    });
    expect(response.statusCode).toBe(404);
  });

  it('GET /device answers a device in scope and 404 for another account’s', async () => {
    const own = await get(`/api/v1/device?id=${await deviceId('ACME-BLR01')}`, viewer);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ thingName: 'ACME-BLR01', name: 'Boiler 1', location: { lat: 32.7831 } });
    const foreign = await get(`/api/v1/device?id=${await deviceId('ACME-BLR01')}`, water);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('Device not found.');
  });

  it('GET /device with a point answers the device’s distance from it (core §3 distance)', async () => {
    const id = await deviceId('ACME-BLR01');
    const near = await get(`/api/v1/device?id=${id}&latitude=32.7767&longitude=-96.797`, viewer);
    expect(near.statusCode, near.body).toBe(200);
    const { location, distance } = near.json<Device>();
    expect(location).not.toBeNull();
    expect(distance).toBeCloseTo(distanceKm({ lat: 32.7767, lng: -96.797 }, location!), 9);
    expect(distance).toBeGreaterThan(0);
    expect((await get(`/api/v1/device?id=${id}`, viewer)).json<Device>().distance).toBeUndefined();
    const half = await get(`/api/v1/device?id=${id}&latitude=32.7767`, viewer);
    expect(half.statusCode).toBe(400);
  });

  it('latest values leave out devices outside the caller’s scope', async () => {
    const ids = [await deviceId('ACME-BLR01'), await deviceId('FTW-PLANT01')];
    const answer = (await get(`/api/v1/device/channels/latest-values?ids=${ids.join(',')}`, water)).json();
    expect(Object.keys(answer)).toEqual([ids[1]]);
  });

  it('GET /account answers only the caller’s tree; the supplier admin sees every account beneath', async () => {
    const mine = (await get('/api/v1/account', water)).json();
    expect(mine.accounts).toHaveLength(1);
    expect(mine.accounts[0]).toMatchObject({ name: 'Filtec Water', appType: 'filtec' });
    const names = JSON.stringify(mine);
    expect(names).not.toContain('ACME-');
    expect(mine.accounts[0].rootGroup.groups.map((group: { name: string }) => group.name)).toEqual(
      expect.arrayContaining(['New Devices', 'Trash', 'Lakeside Plant', 'Hilltop Plant']),
    );
    const admin = (await get('/api/v1/account', await signIn(t.app, 'admin@fieldlink.test'))).json();
    const all = JSON.stringify(admin);
    for (const name of [
      'Northgate Brewing',
      'Orchard Spray Co',
      'Corner Retail',
      'Filtec Water',
      'Moe Township Water',
      'Acme Controls',
    ]) {
      expect(all).toContain(name);
    }
  });
});
