import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountAnswer, GroupNode } from '@fieldlink/api/account';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

describe.each(DIALECTS)('group calls and moves on %s', (dialect) => {
  let t: TestApp;
  let ops: string;
  let viewer: string;
  let brew: string;
  let admin: string;

  const call = (method: 'POST' | 'PUT' | 'DELETE' | 'GET', url: string, authorization: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization }, ...(payload && { payload }) });
  const tree = async (authorization: string) => (await call('GET', '/account', authorization)).json() as AccountAnswer;
  const findGroup = (node: GroupNode, name: string): GroupNode | undefined =>
    node.name === name ? node : node.groups.map((child) => findGroup(child, name)).find(Boolean);
  const groupOf = async (authorization: string, name: string, account = 0) => {
    const found = findGroup((await tree(authorization)).accounts[account]!.rootGroup, name);
    if (!found) throw new Error(`No group ${name}`);
    return found;
  };
  const groupRow = (id: string) =>
    t.app.storage.db.selectFrom('groups').selectAll().where('id', '=', id).executeTakeFirst();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    [ops, viewer, brew, admin] = (await Promise.all(
      ['ops', 'viewer', 'brew', 'admin'].map((name) => signIn(t.app, `${name}@fieldlink.test`)),
    )) as [string, string, string, string];
  });
  afterAll(() => t?.close());

  it('adds a subgroup under the root with a tidied name, and it shows in the tree', async () => {
    const root = (await tree(ops)).accounts[0]!.rootGroup;
    const response = await call('POST', '/group', ops, { parentId: root.id, name: '  North   Yard ' });
    expect(response.statusCode).toBe(200);
    const group = response.json();
    expect(group).toMatchObject({ name: 'North Yard', parentId: root.id, path: `${root.relativePath}/${group.id}` });
    expect((await groupOf(ops, 'North Yard')).kind).toBe('group');
  });

  it.each([
    ['a blank name', { name: '   ' }, 400, 'Please enter a group name.'],
    ['a field the caller must not set', { name: 'X', accountId: 'other' }, 400, /additional properties/],
    ['no name', {}, 400, /name/],
  ])('refuses %s', async (_label, body, status, message) => {
    const root = (await tree(ops)).accounts[0]!.rootGroup;
    const response = await call('POST', '/group', ops, { parentId: root.id, ...body });
    expect(response.statusCode).toBe(status);
    expect(response.json().message).toMatch(message);
  });

  it('refuses subgroups in New Devices and Trash', async () => {
    const trash = await groupOf(ops, 'Trash');
    const response = await call('POST', '/group', ops, { parentId: trash.id, name: 'Bin' });
    expect([response.statusCode, response.json().message]).toEqual([
      400,
      'New Devices and Trash hold devices only, not groups.',
    ]);
  });

  it('renames a group; the root renames the account; placeholders keep their names', async () => {
    const yard = await groupOf(ops, 'North Yard');
    expect((await call('PUT', '/group', ops, { id: yard.id, name: 'North Depot' })).statusCode).toBe(200);
    expect((await groupRow(yard.id))!.name).toBe('North Depot');
    const root = (await tree(ops)).accounts[0]!.rootGroup;
    expect((await call('PUT', '/group', ops, { id: root.id, name: 'Acme Controls Inc' })).statusCode).toBe(200);
    expect((await tree(ops)).accounts[0]!.name).toBe('Acme Controls Inc');
    const newDevices = await groupOf(ops, 'New Devices');
    const refused = await call('PUT', '/group', ops, { id: newDevices.id, name: 'Inbox' });
    expect(refused.statusCode).toBe(400);
    expect((await groupRow(newDevices.id))!.name).toBe('New Devices');
  });

  it('moves a device to another group; the tree shows it there', async () => {
    const boilers = await groupOf(ops, 'Boiler Room');
    const depot = await groupOf(ops, 'North Depot');
    const device = boilers.devices.find((d) => d.name === 'Boiler 2')!;
    const response = await call('POST', '/move', ops, {
      type: 'DEVICE',
      id: device.id,
      sourceGroupId: boilers.id,
      destinationGroupId: depot.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ type: 'DEVICE', id: device.id, path: depot.relativePath });
    expect((await groupOf(ops, 'North Depot')).devices.map((d) => d.name)).toEqual(['Boiler 2']);
    expect((await groupOf(ops, 'Boiler Room')).devices.map((d) => d.name)).toEqual(['Boiler 1']);
  });

  it('moves a group with its subgroups; every path beneath follows', async () => {
    const depot = await groupOf(ops, 'North Depot');
    const inner = (await call('POST', '/group', ops, { parentId: depot.id, name: 'Bay 1' })).json();
    const cold = await groupOf(ops, 'Cold Store');
    const response = await call('POST', '/move', ops, {
      type: 'GROUP',
      id: depot.id,
      sourceGroupId: depot.relativePath.split('/').at(-2)!,
      destinationGroupId: cold.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().path).toBe(`${cold.relativePath}/${depot.id}`);
    expect((await groupRow(inner.id))!.path).toBe(`${cold.relativePath}/${depot.id}/${inner.id}`);
    expect((await groupRow(depot.id))!.parent_id).toBe(cold.id);
    expect(findGroup(await groupOf(ops, 'Cold Store'), 'Bay 1')).toBeDefined();
  });

  it.each([
    ['under itself', 'North Depot', 'North Depot', 'A group cannot be moved under itself.'],
    ['under its own subgroup', 'North Depot', 'Bay 1', 'A group cannot be moved under itself.'],
    ['into Trash', 'North Depot', 'Trash', 'Only devices can be moved into New Devices or Trash.'],
    ['the Trash group', 'Trash', 'Boiler Room', 'Root, New Devices and Trash groups cannot be moved.'],
  ])('refuses to move a group %s (400) and changes nothing', async (_label, moved, destination, message) => {
    const group = await groupOf(ops, moved);
    const before = await groupRow(group.id);
    const response = await call('POST', '/move', ops, {
      type: 'GROUP',
      id: group.id,
      sourceGroupId: before!.parent_id,
      destinationGroupId: (await groupOf(ops, destination)).id,
    });
    expect([response.statusCode, response.json().message]).toEqual([400, message]);
    expect(await groupRow(group.id)).toEqual(before);
  });

  it('refuses a move whose entity is not in the named source group (404)', async () => {
    const boilers = await groupOf(ops, 'Boiler Room');
    const cold = await groupOf(ops, 'Cold Store');
    const response = await call('POST', '/move', ops, {
      type: 'DEVICE',
      id: boilers.devices[0]!.id,
      sourceGroupId: cold.id,
      destinationGroupId: boilers.id,
    });
    expect(response.statusCode).toBe(404);
  });

  it('moves a user; the moved user sees only the new group', async () => {
    const root = (await tree(ops)).accounts[0]!.rootGroup;
    const cold = await groupOf(ops, 'Cold Store');
    const response = await call('POST', '/move', ops, {
      type: 'USER',
      id: 'Viewer@Fieldlink.test',
      sourceGroupId: root.id,
      destinationGroupId: cold.id,
    });
    expect(response.statusCode).toBe(200);
    expect((await groupOf(ops, 'Cold Store')).users).toContain('viewer@fieldlink.test');
    const seen = (await tree(viewer)).accounts;
    expect(seen.map((account) => account.rootGroup.name)).toEqual(['Cold Store']);
  });

  it.each([
    ['itself', 'ops@fieldlink.test', 'You cannot move yourself.'],
    [
      'a user holding permissions it lacks',
      'ops-admin',
      'You cannot move a user who holds permissions you do not hold.',
    ],
  ])('refuses to move %s (403)', async (_label, email, message) => {
    const root = (await tree(ops)).accounts[0]!.rootGroup;
    if (email === 'ops-admin') {
      // An administrator of the same account, attached at the root like ops.
      const account = (await tree(ops)).accounts[0]!;
      await t.app.storage.db
        .insertInto('users')
        .values({
          id: 'acme-admin',
          email: 'boss@acme.test',
          password_hash: 'x',
          first_name: 'Bo',
          last_name: 'Ss',
          theme: null,
          muted_devices: '[]',
          latest_user_update_id: null,
          token_version: 0,
          created_at: 0,
          monitor_only: 0,
        })
        .execute();
      await t.app.storage.db
        .insertInto('attachment_points')
        .values({
          id: 'acme-admin-point',
          user_id: 'acme-admin',
          account_id: account.id,
          ordinal: 0,
          path: root.relativePath,
          permissions: '["ADMIN"]',
          secret_permissions: '[]',
          app_type: 'default',
        })
        .execute();
      email = 'boss@acme.test';
    }
    const response = await call('POST', '/move', ops, {
      type: 'USER',
      id: email,
      sourceGroupId: root.id,
      destinationGroupId: (await groupOf(ops, 'Boiler Room')).id,
    });
    expect([response.statusCode, response.json().message]).toEqual([403, message]);
  });

  it('deletes a group: its devices and its subgroups’ devices go to Trash, nothing is lost', async () => {
    const depot = await groupOf(ops, 'North Depot');
    const bay = findGroup(depot, 'Bay 1')!;
    const trash = await groupOf(ops, 'Trash');
    const response = await call('DELETE', '/group', ops, { id: depot.id });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.deletedGroupIds.sort()).toEqual([depot.id, bay.id].sort());
    expect(answer.trashGroupId).toBe(trash.id);
    expect(answer.devicesMovedToTrash).toEqual([depot.devices[0]!.id]);
    expect((await groupOf(ops, 'Trash')).devices.map((d) => d.name)).toEqual(['Boiler 2']);
    expect(await groupRow(bay.id)).toBeUndefined();
  });

  it.each([
    ['a group with users attached', 'Cold Store', 409, 'Move the user of this group to another group first.'],
    ['the root group', 'Acme Controls Inc', 400, 'An account’s root group cannot be deleted.'],
    ['the Trash', 'Trash', 400, 'The New Devices and Trash groups cannot be deleted.'],
  ])('refuses to delete %s and changes nothing', async (_label, name, status, message) => {
    const group = await groupOf(ops, name);
    const response = await call('DELETE', '/group', ops, { id: group.id });
    expect([response.statusCode, response.json().message]).toEqual([status, message]);
    expect(await groupRow(group.id)).toBeDefined();
  });

  it('refuses to delete a supplier group that holds customer accounts', async () => {
    const customers = await groupOf(admin, 'Customers');
    const response = await call('DELETE', '/group', admin, { id: customers.id });
    expect([response.statusCode, response.json().message]).toEqual([
      409,
      'This group holds other accounts. Move them to another group first.',
    ]);
  });

  it('lets a supplier admin move a device into a customer account', async () => {
    const workshop = await groupOf(admin, 'Workshop');
    const boilers = await groupOf(admin, 'Boiler Room');
    const device = workshop.devices[0]!;
    const response = await call('POST', '/move', admin, {
      type: 'DEVICE',
      id: device.id,
      sourceGroupId: workshop.id,
      destinationGroupId: boilers.id,
    });
    expect(response.statusCode).toBe(200);
    const row = await t.app.storage.db
      .selectFrom('devices')
      .select('account_id')
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(row.account_id).toBe(boilers.accountId);
    expect((await groupOf(ops, 'Boiler Room')).devices.map((d) => d.name)).toContain(device.name);
  });

  it('refuses every group call to a user without group edit (403), changing nothing', async () => {
    const stock = await signIn(t.app, 'stock@fieldlink.test');
    const root = (await tree(stock)).accounts[0]!.rootGroup;
    const before = await t.app.storage.db.selectFrom('groups').selectAll().orderBy('id').execute();
    for (const [method, url, body] of [
      ['POST', '/group', { parentId: root.id, name: 'X' }],
      ['PUT', '/group', { id: root.groups[2]!.id, name: 'X' }],
      ['DELETE', '/group', { id: root.groups[2]!.id }],
      [
        'POST',
        '/move',
        { type: 'GROUP', id: root.groups[2]!.id, sourceGroupId: root.id, destinationGroupId: root.groups[3]!.id },
      ],
    ] as const) {
      expect((await call(method, url, stock, body)).statusCode).toBe(403);
    }
    expect(await t.app.storage.db.selectFrom('groups').selectAll().orderBy('id').execute()).toEqual(before);
  });

  it('answers another account’s groups as not found (404), exactly like missing ones', async () => {
    const cellar = await groupOf(brew, 'Cellar');
    const boilers = await groupOf(ops, 'Boiler Room');
    const foreign = await call('PUT', '/group', ops, { id: cellar.id, name: 'Mine' });
    const missing = await call('PUT', '/group', ops, { id: 'no-such-group', name: 'Mine' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    const into = await call('POST', '/move', ops, {
      type: 'DEVICE',
      id: boilers.devices[0]!.id,
      sourceGroupId: boilers.id,
      destinationGroupId: cellar.id,
    });
    expect(into.statusCode).toBe(404);
    expect((await groupRow(cellar.id))!.name).toBe('Cellar');
  });
});
