import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import mqtt from 'mqtt';
import type { DeviceImportAnswer } from '@fieldlink/api/device';
import { deviceUpTopic } from '@fieldlink/api/mqtt-topics';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { THING_NAME_TAKEN } from './service';

/** Issue 35 item 6: adding devices from the console, one or a CSV file of them. */
describe.each(DIALECTS)('adding and importing devices on %s', (dialect) => {
  let t: TestApp;
  let ops: string;
  let viewer: string;
  let admin: string;
  let acmeId: string;

  const post = (url: string, authorization: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization }, payload });
  const importCsv = (csv: string, dryRun: boolean, token = ops, accountId = acmeId) =>
    post('/devices/import', token, { accountId, csv, dryRun });
  /** Every device row, as a snapshot that shows whether anything was written. */
  const deviceRows = () => t.app.storage.db.selectFrom('devices').select(['id', 'name', 'sn']).orderBy('id').execute();

  beforeAll(async () => {
    t = await startTestApp(dialect, { mqtt: true });
    [ops, viewer, admin] = (await Promise.all(
      ['ops', 'viewer', 'admin'].map((name) => signIn(t.app, `${name}@fieldlink.test`)),
    )) as [string, string, string];
    acmeId = (
      await t.app.storage.db
        .selectFrom('accounts')
        .select('id')
        .where('name', '=', 'Acme Controls')
        .executeTakeFirstOrThrow()
    ).id;
  }, 180_000);
  afterAll(() => t?.close());

  describe('POST /device with a serial or a thing name', () => {
    it('keeps a thing name the device carries, and the serial', async () => {
      const response = await post('/device', ops, { name: 'Labelled pump', sn: ' SN-77 ', thingName: 'ACME-PUMP-77' });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({
        device: { name: 'Labelled pump', sn: 'SN-77', thingName: 'ACME-PUMP-77' },
        credentials: { thingName: 'ACME-PUMP-77', password: expect.any(String) },
      });
    });

    it.each([
      ['a thing name some device has', { thingName: 'ACME-BLR01' }, 409, THING_NAME_TAKEN],
      ['a thing name with an MQTT wildcard', { thingName: 'ACME+#' }, 400, undefined],
      ['a blank name', { name: '   ' }, 400, undefined],
    ])('refuses %s, writing nothing', async (_name, extra, status, message) => {
      const before = await deviceRows();
      const response = await post('/device', ops, { name: 'X', ...extra });
      expect(response.statusCode).toBe(status);
      if (message) expect(response.json().message).toBe(message);
      expect(await deviceRows()).toEqual(before);
    });
  });

  describe('POST /devices/import', () => {
    const GOOD =
      'name,serial,group path,tags\r\n' +
      'Boiler 3,SN-9003,Boiler Room,site=North; floor=2\r\n' +
      'Freezer 2,SN-9004,Acme Controls / Cold Store,\r\n' +
      'Spare pump,,,\r\n';

    it('previews a good file: every row placed, no errors, nothing written', async () => {
      const before = await deviceRows();
      const response = await importCsv(GOOD, true);
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<DeviceImportAnswer>();
      expect(answer).toMatchObject({ fileError: null, imported: false, devices: [] });
      expect(answer.rows.map((row) => [row.line, row.groupPath, row.errors])).toEqual([
        [2, 'Acme Controls / Boiler Room', []],
        [3, 'Acme Controls / Cold Store', []],
        [4, 'Acme Controls / New Devices', []],
      ]);
      expect(await deviceRows()).toEqual(before);
    });

    it('imports every row in its group with its tags; the one-time credentials connect over MQTT', async () => {
      const response = await importCsv(GOOD, false);
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json<DeviceImportAnswer>();
      expect(answer.imported).toBe(true);
      expect(answer.devices.map((device) => [device.name, device.sn, device.groupPath])).toEqual([
        ['Boiler 3', 'SN-9003', 'Acme Controls / Boiler Room'],
        ['Freezer 2', 'SN-9004', 'Acme Controls / Cold Store'],
        ['Spare pump', null, 'Acme Controls / New Devices'],
      ]);
      const boiler = await t.app.storage.db
        .selectFrom('devices')
        .innerJoin('groups', 'groups.id', 'devices.group_id')
        .select(['groups.name as groupName', 'devices.tags', 'devices.secret_hash', 'devices.account_id'])
        .where('devices.id', '=', answer.devices[0]!.deviceId)
        .executeTakeFirstOrThrow();
      expect(boiler.groupName).toBe('Boiler Room');
      expect(boiler.account_id).toBe(acmeId);
      expect(JSON.parse(boiler.tags)).toEqual([
        { id: expect.any(String), key: 'site', value: 'North' },
        { id: expect.any(String), key: 'floor', value: '2' },
      ]);
      expect(boiler.secret_hash).not.toContain(answer.devices[0]!.password);

      const { thingName, password } = answer.devices[2]!;
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${t.app.broker!.port}`, {
        clientId: thingName,
        username: thingName,
        password,
        reconnectPeriod: 0,
      });
      await client.publishAsync(
        deviceUpTopic(thingName),
        JSON.stringify({ v: 4, type: 'log', t: Date.now(), values: { c1: 7 } }),
        { qos: 1 },
      );
      await client.endAsync();
      const latest = await t.app.inject({
        method: 'GET',
        url: `/api/v1/device/channels/latest-values?ids=${answer.devices[2]!.deviceId}`,
        headers: { authorization: ops },
      });
      expect(latest.json()[answer.devices[2]!.deviceId].c1.value).toBe(7);
    });

    it('names every fault of a malformed file on its row, and writes nothing', async () => {
      const malformed =
        'name,serial,group path,tags\n' +
        'Good one,SN-9100,Boiler Room,\n' +
        ',SN-9101,Boiler Room,\n' +
        'Typo,SN-9102,Boiler Rom,\n' +
        'Binned,SN-9103,Trash,\n' +
        'Again,SN-9003,,\n' +
        'Twice,SN-9100,,\n' +
        'Short,SN-9104\n' +
        'Tagged,SN-9105,,colour\n';
      const before = await deviceRows();
      const preview = await importCsv(malformed, true);
      expect(preview.statusCode).toBe(200);
      expect(
        preview
          .json<DeviceImportAnswer>()
          .rows.map((row) => [row.line, row.errors])
          .filter(([, errors]) => (errors as string[]).length > 0),
      ).toEqual([
        [3, ['The name is missing.']],
        [4, ['No group Boiler Rom in Acme Controls.']],
        [5, ['Devices cannot be added to the Trash group.']],
        [6, ['Serial SN-9003 is already on device Boiler 3.']],
        [7, ['Serial SN-9100 is also on line 2.']],
        [8, ['Expected 4 cells, found 2.']],
        [9, ['Tag “colour” is not written key=value.']],
      ]);
      const refused = await importCsv(malformed, false);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toMatch(
        /^Nothing was imported: 7 rows have errors\. line 3: The name is missing\.; line 4: No group Boiler Rom/,
      );
      expect(await deviceRows()).toEqual(before);
    });

    it.each([
      ['a file that is not CSV of devices', 'hello world', 'The first line must name the columns'],
      ['an unclosed quote', 'name,serial,group path\n"Pump,SN-1,\n', 'Line 2: a quoted cell is never closed.'],
    ])('refuses %s as a whole, writing nothing', async (_name, csv, message) => {
      const before = await deviceRows();
      const preview = (await importCsv(csv, true)).json<DeviceImportAnswer>();
      expect(preview.fileError).toContain(message);
      const refused = await importCsv(csv, false);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().message).toContain(message);
      expect(await deviceRows()).toEqual(before);
    });

    it('reads a group of a customer account below the supplier’s, for the supplier', async () => {
      const supplierId = (
        await t.app.storage.db
          .selectFrom('attachment_points')
          .innerJoin('users', 'users.id', 'attachment_points.user_id')
          .select('attachment_points.account_id')
          .where('users.email', '=', 'admin@fieldlink.test')
          .executeTakeFirstOrThrow()
      ).account_id;
      const csv = 'name,serial,group path\nSupplied,SN-9200,Customers / Acme Controls / Cold Store\n';
      const answer = (await importCsv(csv, false, admin, supplierId)).json<DeviceImportAnswer>();
      expect(answer.devices[0]).toMatchObject({ groupPath: expect.stringMatching(/Acme Controls \/ Cold Store$/) });
      const stored = await t.app.storage.db
        .selectFrom('devices')
        .select('account_id')
        .where('id', '=', answer.devices[0]!.deviceId)
        .executeTakeFirstOrThrow();
      expect(stored.account_id).toBe(acmeId);
    });

    it('answers another account like a missing one, and refuses a user without Add devices; nothing written', async () => {
      const before = await deviceRows();
      const water = (
        await t.app.storage.db
          .selectFrom('accounts')
          .select('id')
          .where('name', '=', 'Filtec Water')
          .executeTakeFirstOrThrow()
      ).id;
      const foreign = await importCsv(GOOD, true, ops, water);
      const missing = await importCsv(GOOD, true, ops, 'no-such-account');
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      expect((await importCsv(GOOD, false, viewer)).statusCode).toBe(403);
      expect(await deviceRows()).toEqual(before);
    });
  });
});
