import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Value } from '@sinclair/typebox/value';
import { DeviceTableAnswer, textColumnValues } from '@fieldlink/api/device-table';
import { DEVICE_TABLE_BINARY_TYPE, decodeDeviceTableBinary } from '@fieldlink/api/device-table-binary';
import { deviceTableColumnsOf } from '@fieldlink/api/testing/device-table-columns';
import { sortByColumn } from '@fieldlink/domain/device-sort';
import { newId } from '../../security/secrets';
import { insertDevice } from '../devices/repository';
import type { UserContext } from '../session/user-context';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { DeviceTableService } from './service';

const URL = '/api/v1/devices/table';

describe.each(DIALECTS)('device table call on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let brew: string;
  const db = () => t.app.storage.db;
  const get = (authorization: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: URL, headers: { authorization, ...headers } });
  const read = (body: string) => JSON.parse(body) as DeviceTableAnswer;
  const thingNamesOf = async (accountName: string) =>
    (
      await db()
        .selectFrom('devices')
        .innerJoin('accounts', 'accounts.id', 'devices.account_id')
        .select('devices.thing_name')
        .where('accounts.name', '=', accountName)
        .execute()
    )
      .map((row) => row.thing_name)
      .sort();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    admin = await signIn(t.app, 'admin@fieldlink.test');
    brew = await signIn(t.app, 'brew@fieldlink.test');
  });
  afterAll(() => t?.close());

  it('answers every device of the supplier’s tree to its admin, in the contract’s shape', async () => {
    const response = await get(admin);
    expect(response.statusCode).toBe(200);
    const answer = read(response.body);
    expect(Value.Check(DeviceTableAnswer, answer)).toBe(true);
    const all = (await db().selectFrom('devices').select('thing_name').execute()).map((row) => row.thing_name).sort();
    expect(answer.count).toBe(all.length);
    expect(textColumnValues(answer.text.thingName).sort()).toEqual(all);
    for (const column of [...Object.values(answer.numbers)]) expect(column).toHaveLength(answer.count);
    for (const column of Object.values(answer.text)) expect(textColumnValues(column)).toHaveLength(answer.count);
    const groupNames = answer.groups.map((group) => group.name);
    expect(groupNames).toEqual(
      expect.arrayContaining(['Fieldlink Supply', 'Customers', 'Northgate Brewing', 'Cellar']),
    );
  });

  it('answers a customer only its own devices and groups, and names nothing of another account', async () => {
    const answer = read((await get(brew)).body);
    const own = await thingNamesOf('Northgate Brewing');
    expect(textColumnValues(answer.text.thingName).sort()).toEqual(own);
    expect(answer.groups.every((group) => !['Customers', 'Fieldlink Supply'].includes(group.name))).toBe(true);
    const others = (await db().selectFrom('devices').select(['thing_name', 'name', 'id']).execute()).filter(
      (row) => !own.includes(row.thing_name),
    );
    const body = JSON.stringify(answer);
    for (const other of others) {
      expect(body).not.toContain(other.thing_name);
      expect(body).not.toContain(other.id);
    }
    const otherGroups = await db().selectFrom('groups').select('id').where('name', '=', 'North Block').execute();
    for (const group of otherGroups) expect(body).not.toContain(group.id);
  });

  it('maps each device’s reported data to its fields', async () => {
    const device = await db()
      .selectFrom('devices')
      .select(['id', 'thing_name'])
      .where('thing_name', '=', 'NGB-FV01')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('devices')
      .set({
        fw: '4.12.3',
        health: JSON.stringify({
          t: 1_700_000_000,
          signal: -71,
          cpuTemp: 41.5,
          errorStatus: 9,
          networkInterface: 'LTE',
        }),
        ports: JSON.stringify([{ index: 1, portType: 'modem', iccid: '8961000000000000001', operator: 'Telstra' }]),
        status: JSON.stringify({ sp: 192 }),
        channels: JSON.stringify([{ code: 'c1' }, { code: 'cs2' }, { code: 'sp1' }]),
        time_date: JSON.stringify({ tzName: 'Australia/Brisbane' }),
        is_connected: 1,
      })
      .where('id', '=', device.id)
      .execute();
    await db()
      .insertInto('device_messages')
      .values({
        id: newId(),
        device_id: device.id,
        target: device.thing_name,
        message: JSON.stringify({ cmd: 'refreshMetadata' }),
        status: 'pending',
        attempts: 0,
        created_by: null,
        created_at: Date.now(),
        expires_at: Date.now() + 60_000,
        claimed_at: null,
        settled_at: null,
        result: null,
      })
      .execute();
    const brewUser = await db()
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'brew@fieldlink.test')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('users')
      .set({ muted_devices: JSON.stringify(['NGB-FV01']) })
      .where('id', '=', brewUser.id)
      .execute();

    const answer = read((await get(brew)).body);
    const row = textColumnValues(answer.text.thingName).indexOf('NGB-FV01');
    const text = (field: keyof DeviceTableAnswer['text']) => textColumnValues(answer.text[field])[row];
    const number = (field: keyof DeviceTableAnswer['numbers']) => answer.numbers[field][row];
    expect([text('fw'), text('iccid'), text('operator'), text('networkInterface'), text('tzName')]).toEqual([
      '4.12.3',
      '8961000000000000001',
      'Telstra',
      'LTE',
      'Australia/Brisbane',
    ]);
    expect([number('signal'), number('cpuTemp'), number('errorStatus'), number('statusSp')]).toEqual([
      -71, 41.5, 9, 192,
    ]);
    // Health times in seconds are read as seconds (core §9: longer than 12 digits means milliseconds).
    expect(number('healthTime')).toBe(1_700_000_000_000);
    expect([number('channelCount'), number('isConnected'), number('pendingMessages'), number('muted')]).toEqual([
      2, 1, 1, 1,
    ]);
    expect(answer.groups[number('group')!]?.name).toBe('Cellar');
    expect(text('address')).toBe('2600 Cellar Rd, Irving, TX');
  });

  it('validates with an ETag: 304 and no body while nothing changed', async () => {
    const first = await get(admin, { 'accept-encoding': 'gzip, deflate, br' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"dt1-[A-Za-z0-9_-]{32}"$/);
    expect(read(gunzipSync(first.rawPayload).toString()).count).toBeGreaterThan(0);

    const again = await get(admin, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const listed = await get(admin, { 'if-none-match': `"other", ${etag.replace('W/', '')}` });
    expect(listed.statusCode).toBe(304);
    const stale = await get(admin, { 'if-none-match': 'W/"dt1-stale"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['content-encoding']).toBeUndefined();
  });

  it('answers the same table in the binary form, with its own ETag, for every demo user', async () => {
    for (const email of [
      'admin@fieldlink.test',
      'brew@fieldlink.test',
      'water@fieldlink.test',
      'spray@fieldlink.test',
    ]) {
      const token = await signIn(t.app, email);
      const json = await get(token);
      const binary = await t.app.inject({
        method: 'GET',
        url: `${URL}?format=binary`,
        headers: { authorization: token },
      });
      expect(binary.statusCode).toBe(200);
      expect(binary.headers['content-type']).toBe(DEVICE_TABLE_BINARY_TYPE);
      const { generatedAt: _binaryTime, nameOrder, ...columns } = decodeDeviceTableBinary(binary.rawPayload);
      const { generatedAt: _jsonTime, ...expected } = deviceTableColumnsOf(read(json.body));
      expect(columns).toEqual(expected);
      // With the rows in the console's order by name: the domain's sort of the names.
      const rows = Array.from({ length: expected.count }, (_, row) => row);
      expect(nameOrder && [...nameOrder]).toEqual(
        sortByColumn(rows, 'string', (row) => expected.text.name[row], 'asc'),
      );
      const etag = String(binary.headers.etag);
      expect(etag).toMatch(/^W\/"dt3-[A-Za-z0-9_-]{32}"$/);
      expect(etag.slice(6)).toBe(String(json.headers.etag).slice(6));
      const again = await t.app.inject({
        method: 'GET',
        url: `${URL}?format=binary`,
        headers: { authorization: token, 'if-none-match': etag, 'accept-encoding': 'gzip' },
      });
      expect(again.statusCode).toBe(304);
      // The JSON form's ETag does not validate the binary form, nor the other way round.
      const crossed = await t.app.inject({
        method: 'GET',
        url: `${URL}?format=binary`,
        headers: { authorization: token, 'if-none-match': String(json.headers.etag), 'accept-encoding': 'gzip' },
      });
      expect(crossed.statusCode).toBe(200);
      expect(crossed.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(crossed.rawPayload).equals(binary.rawPayload)).toBe(true);
      expect((await get(token, { 'if-none-match': etag })).statusCode).toBe(200);
    }
  });

  it('names nothing of another account in the binary form either', async () => {
    const body = (await t.app.inject({ method: 'GET', url: `${URL}?format=binary`, headers: { authorization: brew } }))
      .rawPayload;
    const own = await thingNamesOf('Northgate Brewing');
    expect([...decodeDeviceTableBinary(body).text.thingName].sort()).toEqual(own);
    const others = (await db().selectFrom('devices').select(['thing_name', 'id']).execute()).filter(
      (row) => !own.includes(row.thing_name),
    );
    for (const other of others) {
      expect(body.includes(other.thing_name)).toBe(false);
      expect(body.includes(other.id)).toBe(false);
    }
  });

  it('keeps the ETag across rebuilds of an unchanged fleet, and changes it when a device changes', async () => {
    const service = new DeviceTableService(db(), { maxAgeMs: 0, revalidateInBackground: false, buildCostFactor: 0 });
    const user = (await t.app.userFromToken(admin)) as UserContext;
    const first = await service.table(user);
    expect((await service.table(user)).hash).toBe(first.hash);
    await db().updateTable('devices').set({ site: 'Moved' }).where('thing_name', '=', 'FLS-BENCH-01').execute();
    const changed = await service.table(user);
    expect(changed.hash).not.toBe(first.hash);
    expect(changed.binary.bytes).toBeGreaterThan(changed.binary.gzip.length);
    expect((await changed.json()).bytes).toBeGreaterThan((await changed.json()).gzip.length);
  });

  it('serves a built table for a while, then builds it again', async () => {
    const service = new DeviceTableService(db(), { maxAgeMs: 60_000 });
    const user = (await t.app.userFromToken(admin)) as UserContext;
    const first = await service.table(user);
    await db().updateTable('devices').set({ site: 'Moved again' }).where('thing_name', '=', 'FLS-BENCH-01').execute();
    expect((await service.table(user)).hash).toBe(first.hash);
    expect((await new DeviceTableService(db(), { maxAgeMs: 0 }).table(user)).hash).not.toBe(first.hash);
  });

  it('serves an expired table at once while it builds the next one', async () => {
    const service = new DeviceTableService(db(), { maxAgeMs: 0 });
    const user = (await t.app.userFromToken(admin)) as UserContext;
    const first = await service.table(user);
    await db()
      .updateTable('devices')
      .set({ site: 'Moved once more' })
      .where('thing_name', '=', 'FLS-BENCH-01')
      .execute();
    // The expired table comes back at once; the rebuild it started replaces it when done.
    expect((await service.table(user)).hash).toBe(first.hash);
    await expect.poll(async () => (await service.table(user)).hash, { timeout: 10_000 }).not.toBe(first.hash);
  });

  it('shares one table between callers with the same scope', async () => {
    const service = new DeviceTableService(db(), { maxAgeMs: 60_000 });
    const adminUser = (await t.app.userFromToken(admin)) as UserContext;
    const first = await service.table(adminUser);
    // Another user with the same attachment point and no muted devices.
    const twin = { ...adminUser, id: 'another-user-id' } as UserContext;
    expect(await service.table(twin)).toBe(first);
  });

  it('compares group paths literally: an id containing _ is no wildcard, ./g1 does not cover ./g10', async () => {
    const account = await db().selectFrom('accounts').select('id').limit(1).executeTakeFirstOrThrow();
    const paths = ['./root_1', './root_1/child', './root_10', './rootX1', './rootX1/leaf_1'];
    for (const path of paths) {
      const id = path.split('/').at(-1)!;
      await db()
        .insertInto('groups')
        .values({ id, account_id: account.id, parent_id: null, name: id, kind: 'group', path, created_at: 0 })
        .execute();
      await insertDevice(db(), {
        id: `dev-${path}`,
        account_id: account.id,
        group_id: id,
        thing_name: `T-${path.replaceAll('/', '-')}`,
        secret_hash: 'x',
        name: `Device in ${path}`,
      });
    }
    const user = {
      ...((await t.app.userFromToken(admin)) as UserContext),
      attachmentPoints: [
        { accountId: account.id, path: './root_1', permissions: [], secretPermissions: [], appType: 'default' },
      ],
    } as UserContext;
    // Pages of one device: every group is read by a statement of its own.
    const answer = await new DeviceTableService(db(), { pageSize: 1 }).answer(user);
    expect(textColumnValues(answer.text.name).sort()).toEqual(['Device in ./root_1', 'Device in ./root_1/child']);
    expect(answer.groups.map((group) => group.path)).toEqual(['./root_1', './root_1/child']);
    await db().deleteFrom('devices').where('id', 'like', 'dev-./%').execute();
    await db().deleteFrom('groups').where('id', 'in', ['root_1', 'child', 'root_10', 'rootX1', 'leaf_1']).execute();
  });

  it('refuses callers without a session and arguments it does not take', async () => {
    expect((await t.app.inject({ method: 'GET', url: URL })).statusCode).toBe(401);
    const withArgument = await t.app.inject({
      method: 'GET',
      url: `${URL}?limit=5`,
      headers: { authorization: admin },
    });
    expect(withArgument.statusCode).toBe(400);
    for (const query of ['format=json', 'format=2', 'format=binary&limit=5']) {
      const refused = await t.app.inject({ method: 'GET', url: `${URL}?${query}`, headers: { authorization: admin } });
      expect(refused.statusCode).toBe(400);
    }
  });
});
