import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { AccountAnswer, GroupNode } from '@fieldlink/api/account';
import type { Scene } from '@fieldlink/api/scenes';
import { DEMO_ACCOUNT_KIND, isDemoDeviceId } from '@fieldlink/domain/demo';
import { READ_ONLY_SCENE_MESSAGE } from '@fieldlink/domain/widgets';
import { demoFleet as demoFleetOf, demoFleetDevices } from '@fieldlink/simulation/demo-fleet';
import { createDeviceIdentity } from '@fieldlink/simulation/device-identity';
import { seedFromText } from '@fieldlink/simulation/seeded-random';
import { hashSecret } from '../security/secrets';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../testing/test-app';
import { demoFleet } from './seed';

const PROSPECT = 'prospect@fieldlink.test';

const groupsOf = (group: GroupNode): GroupNode[] => [group, ...group.groups.flatMap(groupsOf)];

describe.each(DIALECTS)('the seeded demo account on %s', (dialect) => {
  let t: TestApp;
  let prospect: string;
  const db = () => t.app.storage.db;
  const call = (url: string, query?: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: prospect }, query });

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true });
    prospect = await signIn(t.app, PROSPECT);
  }, 120_000);
  afterAll(async () => t?.close());

  it('is an account of kind demo, every group marked simulation, holding the default app’s _DEMO fleet', async () => {
    const { accounts } = (await call('/account')).json() as AccountAnswer;
    expect(accounts).toHaveLength(1);
    const [account] = accounts;
    expect(account).toMatchObject({ name: 'Fieldlink Demo', kind: DEMO_ACCOUNT_KIND, appType: 'default' });
    const groups = groupsOf(account!.rootGroup);
    expect(groups.every((group) => group.simulation)).toBe(true);
    const thingNames = groups.flatMap((group) => group.devices.map((device) => device.thingName)).sort();
    expect(thingNames).toEqual(
      demoFleetDevices(demoFleetOf('default'))
        .map((device) => device.thingName)
        .sort(),
    );
    expect(thingNames.every(isDemoDeviceId)).toBe(true);
    // Core §1: their ids end with _DEMO too (the thing name is the id).
    const ids = groups.flatMap((group) => group.devices.map((device) => device.id)).sort();
    expect(ids).toEqual(thingNames);
    // They run in the browser that shows them, so they count as connected and name their model's channels.
    const devices = groups.flatMap((group) => group.devices);
    expect(devices.every((device) => device.isConnected && (device.channels ?? []).length > 0)).toBe(true);
    // With the identity the browser's simulation gives them, so the device table shows what their dash does.
    for (const demo of demoFleetDevices(demoFleetOf('default'))) {
      const stored = await db()
        .selectFrom('devices')
        .select(['fw', 'model', 'hw'])
        .where('thing_name', '=', demo.thingName)
        .executeTakeFirstOrThrow();
      const { fw, model, hw } = createDeviceIdentity(demo.kind, seedFromText(demo.thingName));
      expect(stored).toEqual({ fw, model, hw });
    }
    // Other accounts keep real devices in groups that are not simulated.
    const admin = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/account',
        headers: { authorization: await signIn(t.app, 'admin@fieldlink.test') },
      })
    ).json() as AccountAnswer;
    const realGroups = groupsOf(admin.accounts[0]!.rootGroup).filter((group) => group.accountId !== account!.id);
    expect(realGroups.some((group) => group.simulation)).toBe(false);
  });

  it('stores the devices as entities only: no fleet, no history, no latest value, and the broker refuses them', async () => {
    const fleet = await demoFleet(db());
    expect(fleet.length).toBeGreaterThan(0);
    expect(fleet.some((device) => isDemoDeviceId(device.thingName))).toBe(false);
    const devices = await db().selectFrom('devices').select(['id', 'thing_name']).execute();
    const demoIds = devices.filter((device) => isDemoDeviceId(device.thing_name)).map((device) => device.id);
    expect(demoIds).toHaveLength(3);
    for (const table of ['logs', 'latest_values'] as const) {
      const rows = await db().selectFrom(table).select('device_id').where('device_id', 'in', demoIds).execute();
      expect([table, rows]).toEqual([table, []]);
    }
    // Even with a secret it knows, a _DEMO device cannot connect: nothing is ingested for it.
    const thingName = 'CTL01_DEMO';
    await db()
      .updateTable('devices')
      .set({ secret_hash: hashSecret('known') })
      .where('thing_name', '=', thingName)
      .execute();
    const connecting = mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
      clientId: thingName,
      username: thingName,
      password: 'known',
      reconnectPeriod: 0,
    });
    await expect(connecting).rejects.toThrow();
  });

  it('gives its user read-only scenes built from the simulated devices', async () => {
    const { accounts } = (await call('/account')).json() as AccountAnswer;
    const root = accounts[0]!.rootGroup;
    const scenes = (await call('/scenes', { accountId: root.accountId, groupId: root.id })).json() as Scene[];
    expect(scenes.map((scene) => scene.name)).toEqual(['Overview']);
    const [scene] = scenes;
    expect(scene!.widgets.length).toBeGreaterThan(3);
    // The fleet's overview the browser demo shows too (domain `fleetOverview`): titled by the account,
    // every simulated device's main reading in it.
    expect(scene!.widgets[0]).toMatchObject({ type: 'customText', value: 'Fieldlink Demo: live overview' });
    const shown = new Set(scene!.widgets.flatMap((widget) => widget.channels.map((channel) => channel.deviceId)));
    expect([...shown].sort()).toEqual(
      demoFleetDevices(demoFleetOf('default'))
        .map((device) => device.thingName)
        .sort(),
    );
    // Its user holds scene and widget rights, and the supplier's administrator may change any scene: the
    // account's kind refuses both.
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    const before = JSON.stringify(await db().selectFrom('scenes').selectAll().orderBy('id').execute());
    for (const authorization of [prospect, admin]) {
      const response = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/scene',
        headers: { authorization },
        payload: { accountId: scene!.accountId, path: scene!.path, props: { name: 'Mine' } },
      });
      expect([response.statusCode, response.json().message]).toEqual([403, READ_ONLY_SCENE_MESSAGE]);
    }
    expect(JSON.stringify(await db().selectFrom('scenes').selectAll().orderBy('id').execute())).toBe(before);
  });
});
