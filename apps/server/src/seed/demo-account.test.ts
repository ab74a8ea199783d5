import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { AccountAnswer, GroupNode } from '@fieldlink/api/account';
import type { Scene } from '@fieldlink/api/scenes';
import { textColumnValues, type DeviceTableAnswer } from '@fieldlink/api/device-table';
import { DEMO_ACCOUNT_KIND, isDemoDeviceId } from '@fieldlink/domain/demo';
import { READ_ONLY_SCENE_MESSAGE } from '@fieldlink/domain/widgets';
import { demoFleet as demoFleetOf, demoFleetDevices } from '@fieldlink/simulation/demo-fleet';
import { createModel } from '@fieldlink/simulation/create-model';
import { createDeviceIdentity, simulatedDeviceConfig } from '@fieldlink/simulation/device-identity';
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
    // With all their simulated device says of itself (the simulation's one description, which the
    // browser demo's record and the simulator's config frame start from), so the device table's model,
    // zone and cellular cells show what their dash does.
    for (const demo of demoFleetDevices(demoFleetOf('default'))) {
      const row = await db()
        .selectFrom('devices')
        .selectAll()
        .where('thing_name', '=', demo.thingName)
        .executeTakeFirstOrThrow();
      const seed = seedFromText(demo.thingName);
      const model = createModel(demo.kind, { seed, startTimeMs: row.created_at });
      const described = simulatedDeviceConfig(createDeviceIdentity(demo.kind, seed), model.channels, model.registers());
      const stored = {
        sn: row.sn,
        fw: row.fw,
        model: row.model,
        hw: row.hw,
        base: row.base,
        custom: row.custom,
        uploadInterval: row.upload_interval,
        logInterval: row.log_interval,
        expandedIoMax: row.expanded_io_max,
        timeDate: JSON.parse(row.time_date ?? 'null') as unknown,
        channels: JSON.parse(row.channels) as unknown,
        registers: JSON.parse(row.registers) as unknown,
        ports: JSON.parse(row.ports) as unknown,
      };
      expect([demo.thingName, stored]).toEqual([demo.thingName, described]);
      expect(described.ports[0]).toMatchObject({ portType: 'modem', iccid: expect.stringMatching(/^89/) });
      expect(Object.keys(described.registers).length).toBeGreaterThan(0);
      // The table's line reads them: its zone and cellular cells are filled.
      const { text } = (await call('/devices/table')).json() as DeviceTableAnswer;
      const index = textColumnValues(text.thingName).indexOf(demo.thingName);
      const cell = (field: keyof DeviceTableAnswer['text']) => textColumnValues(text[field])[index];
      expect([cell('tzName'), cell('iccid'), cell('operator'), cell('modemModel')]).toEqual([
        described.timeDate.tzName,
        described.ports[0]!.iccid,
        described.ports[0]!.operator,
        described.ports[0]!.model,
      ]);
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
