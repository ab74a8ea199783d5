import { randomUUID } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely, Updateable } from 'kysely';
import type { Database, DevicesTable } from '../../db/schema';
import type { UserContext } from '../session/user-context';
import { DIALECTS, signIn, startTestApp, TREE_DEMO_USERS, type TestApp } from '../../../testing/test-app';
import { accountTreeVersions } from './repository';
import { AccountService } from './service';

type Bump = 'tree' | 'connection' | 'none';

const ADDED_DEVICE = 'Aa renamed';
const ADDED_USER = 'added@fieldlink.test';

/** Writes to the device the writes below added and renamed. */
const updateAddedDevice = (db: Kysely<Database>, values: Updateable<DevicesTable>) =>
  db.updateTable('devices').set(values).where('name', '=', ADDED_DEVICE).execute();

/** The id of the user the writes below added. */
const addedUserId = async (db: Kysely<Database>) =>
  (await db.selectFrom('users').select('id').where('email', '=', ADDED_USER).executeTakeFirstOrThrow()).id;

/**
 * Each kind of write to what the account tree shows (and a few to what it does not), with the counter
 * it must bump. They run in order, on the demo data, each against the state the previous ones left.
 */
const WRITES: [string, Bump, (db: Kysely<Database>) => Promise<unknown>][] = [
  [
    'a group is added',
    'tree',
    async (db) => {
      const parent = await demoGroup(db);
      const id = randomUUID();
      await db
        .insertInto('groups')
        .values({ ...parent, id, parent_id: parent.id, kind: 'group', name: 'Added', path: `${parent.path}/${id}` })
        .execute();
    },
  ],
  [
    'a group is renamed',
    'tree',
    (db) => db.updateTable('groups').set({ name: 'Renamed group' }).where('name', '=', 'Added').execute(),
  ],
  [
    'a group is marked as simulated',
    'tree',
    (db) => db.updateTable('groups').set({ simulation: 1 }).where('name', '=', 'Renamed group').execute(),
  ],
  [
    'a device is added',
    'tree',
    async (db) => {
      const device = await demoDevice(db);
      await db
        .insertInto('devices')
        .values({ ...device, id: randomUUID(), thing_name: `AT-${randomUUID()}`, name: 'Added device' })
        .execute();
    },
  ],
  [
    'a device is renamed',
    'tree',
    (db) => db.updateTable('devices').set({ name: ADDED_DEVICE }).where('name', '=', 'Added device').execute(),
  ],
  ['a device gets a serial number', 'tree', (db) => updateAddedDevice(db, { sn: 'SN-1' })],
  [
    "a device's channels change",
    'tree',
    (db) => updateAddedDevice(db, { channels: JSON.stringify([{ code: 'x1', name: 'Pressure', units: 'bar' }]) }),
  ],
  [
    "a device's tags change",
    'tree',
    (db) => updateAddedDevice(db, { tags: JSON.stringify([{ key: 'site', value: 'North' }]) }),
  ],
  [
    'a device moves to another group',
    'tree',
    async (db) => {
      const group = await db
        .selectFrom('groups')
        .select('id')
        .where('name', '=', 'Renamed group')
        .executeTakeFirstOrThrow();
      await updateAddedDevice(db, { group_id: group.id });
    },
  ],
  [
    'a device connects',
    'connection',
    (db) => updateAddedDevice(db, { is_connected: 1, last_connection: Date.UTC(2026, 10, 25, 12) }),
  ],
  [
    'a demo device disconnects',
    'connection',
    async (db) => {
      const device = await demoDevice(db);
      await db
        .updateTable('devices')
        .set({ is_connected: 0, last_disconnection: Date.UTC(2026, 10, 25, 13) })
        .where('id', '=', device.id)
        .execute();
    },
  ],
  [
    "a device's health and status are written",
    'none',
    (db) =>
      updateAddedDevice(db, {
        health: JSON.stringify({ signal: -70 }),
        status: JSON.stringify({ sp: 4 }),
        fw: '2.0.1',
      }),
  ],
  ['a device is written with its own name', 'none', (db) => updateAddedDevice(db, { name: ADDED_DEVICE })],
  ['a device is removed', 'tree', (db) => db.deleteFrom('devices').where('name', '=', ADDED_DEVICE).execute()],
  [
    'a scene is added',
    'tree',
    async (db) => {
      const group = await demoGroup(db);
      await db
        .insertInto('scenes')
        .values({
          id: randomUUID(),
          group_id: group.id,
          name: 'Added scene',
          type: 'scene',
          position: 99,
          is_grid_locked: 0,
          grid_layout: '{}',
          created_at: Date.UTC(2026, 10, 25),
        })
        .execute();
    },
  ],
  [
    'a scene is renamed',
    'tree',
    (db) => db.updateTable('scenes').set({ name: 'Renamed scene' }).where('name', '=', 'Added scene').execute(),
  ],
  [
    'a scene is moved first',
    'tree',
    (db) => db.updateTable('scenes').set({ position: -1 }).where('name', '=', 'Renamed scene').execute(),
  ],
  [
    "a scene's layout changes",
    'none',
    (db) =>
      db
        .updateTable('scenes')
        .set({ grid_layout: '{"lg":[]}', is_grid_locked: 1 })
        .where('name', '=', 'Renamed scene')
        .execute(),
  ],
  ['a scene is removed', 'tree', (db) => db.deleteFrom('scenes').where('name', '=', 'Renamed scene').execute()],
  [
    'a user is attached',
    'tree',
    async (db) => {
      const group = await demoGroup(db);
      const id = randomUUID();
      await db
        .insertInto('users')
        .values({
          id,
          email: ADDED_USER,
          password_hash: 'not-a-password',
          first_name: 'Added',
          last_name: 'User',
          theme: null,
          muted_devices: '[]',
          latest_user_update_id: null,
          token_version: 0,
          created_at: Date.UTC(2026, 10, 25),
          monitor_only: 0,
        })
        .execute();
      await db
        .insertInto('attachment_points')
        .values({
          id: randomUUID(),
          user_id: id,
          account_id: group.account_id,
          ordinal: 0,
          path: group.path,
          permissions: JSON.stringify(['viewDevices']),
          secret_permissions: '[]',
          app_type: 'default',
        })
        .execute();
    },
  ],
  [
    "a user's name changes",
    'tree',
    (db) => db.updateTable('users').set({ first_name: 'Renamed' }).where('email', '=', ADDED_USER).execute(),
  ],
  [
    "a user's password, theme and mute list change",
    'none',
    (db) =>
      db
        .updateTable('users')
        .set({ password_hash: 'another', theme: 'dark', muted_devices: '["x"]', token_version: 1 })
        .where('email', '=', ADDED_USER)
        .execute(),
  ],
  [
    "a user's permissions change",
    'tree',
    async (db) => {
      const userId = await addedUserId(db);
      await db
        .updateTable('attachment_points')
        .set({ permissions: JSON.stringify(['viewDevices', 'inviteUsers']) })
        .where('user_id', '=', userId)
        .execute();
    },
  ],
  [
    'a user is detached',
    'tree',
    async (db) => {
      const userId = await addedUserId(db);
      await db.deleteFrom('attachment_points').where('user_id', '=', userId).execute();
    },
  ],
  [
    'a user is invited',
    'tree',
    async (db) => {
      const group = await demoGroup(db);
      await db
        .insertInto('invitations')
        .values({
          code_hash: randomUUID(),
          email: 'invited@fieldlink.test',
          account_id: group.account_id,
          path: group.path,
          permissions: '[]',
          secret_permissions: '[]',
          app_type: 'default',
          invited_by: null,
          expires_at: Date.UTC(2026, 11, 25),
          used_at: null,
          monitor_only: 0,
        })
        .execute();
    },
  ],
  [
    'an invitation is used',
    'tree',
    (db) =>
      db
        .updateTable('invitations')
        .set({ used_at: Date.UTC(2026, 10, 26) })
        .where('email', '=', 'invited@fieldlink.test')
        .execute(),
  ],
  [
    'an invitation is removed',
    'tree',
    (db) => db.deleteFrom('invitations').where('email', '=', 'invited@fieldlink.test').execute(),
  ],
  [
    'an account is renamed and given a theme',
    'tree',
    async (db) => {
      const group = await demoGroup(db);
      await db
        .updateTable('accounts')
        .set({ name: 'Renamed account', theme: 'filtec' })
        .where('id', '=', group.account_id)
        .execute();
    },
  ],
  ['a group is removed', 'tree', (db) => db.deleteFrom('groups').where('name', '=', 'Renamed group').execute()],
];

/** A group of the demo tree with devices in it (the first in path order). */
async function demoGroup(db: Kysely<Database>) {
  const device = await demoDevice(db);
  return db.selectFrom('groups').selectAll().where('id', '=', device.group_id).executeTakeFirstOrThrow();
}

/** The first demo device by id. */
function demoDevice(db: Kysely<Database>) {
  return db.selectFrom('devices').selectAll().orderBy('id').executeTakeFirstOrThrow();
}

describe.each(DIALECTS)('the kept account tree on %s', (dialect) => {
  let t: TestApp;
  let fresh: AccountService;
  const tokens = new Map<string, string>();

  /** For every demo user and both forms: the answer of the call (kept, patched or built) equals a fresh build. */
  async function expectEveryAnswerFresh(step: string): Promise<void> {
    for (const email of TREE_DEMO_USERS) {
      const token = tokens.get(email)!;
      const user = (await t.app.userFromToken(token)) as UserContext;
      const plain = await t.app.inject({ method: 'GET', url: '/api/v1/account', headers: { authorization: token } });
      expect(plain.statusCode, `${step}: ${email}`).toBe(200);
      expect(plain.json(), `${step}: ${email}, plain`).toEqual(JSON.parse(JSON.stringify(await fresh.accounts(user))));
      const columns = await t.app.inject({
        method: 'GET',
        url: '/api/v1/account?format=columns',
        headers: { authorization: token, 'accept-encoding': 'br' },
      });
      expect(columns.statusCode, `${step}: ${email}`).toBe(200);
      expect(columns.headers['content-encoding']).toBe('br');
      expect(JSON.parse(brotliDecompressSync(columns.rawPayload).toString()), `${step}: ${email}, columns`).toEqual(
        JSON.parse(JSON.stringify(await fresh.accountColumns(user))),
      );
    }
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    fresh = new AccountService(t.app.storage.db);
    for (const email of TREE_DEMO_USERS) tokens.set(email, await signIn(t.app, email));
    await expectEveryAnswerFresh('before any write');
  });
  afterAll(() => t?.close());

  it('serves a kept tree again while nothing it shows changes', async () => {
    const token = tokens.get('admin@fieldlink.test')!;
    const get = () =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/account?format=columns',
        headers: { authorization: token, 'accept-encoding': 'gzip' },
      });
    const first = await get();
    const again = await get();
    expect(again.headers['content-encoding']).toBe('gzip');
    expect(again.headers.vary).toMatch(/accept-encoding/i);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it.each(WRITES.map(([name, bump], index) => [name, bump, index] as const))(
    'after %s (bumps: %s), every answer equals a fresh build',
    async (_name, bump, index) => {
      const { db } = t.app.storage;
      const before = await accountTreeVersions(db);
      await WRITES[index]![2](db);
      const after = await accountTreeVersions(db);
      // A write of two statements (a user and their attachment point) bumps twice: at least once.
      expect(after.tree > before.tree, 'tree bumped').toBe(bump === 'tree');
      expect(after.connection > before.connection, 'connection bumped').toBe(bump === 'connection');
      await expectEveryAnswerFresh(WRITES[index]![0]);
    },
  );

  it('bumps each counter once for a transaction that writes many rows', async () => {
    const { db } = t.app.storage;
    const before = await accountTreeVersions(db);
    await db.transaction().execute(async (tx) => {
      await tx.updateTable('devices').set({ name: 'Many at once' }).execute();
      await tx
        .updateTable('devices')
        .set({ is_connected: 1, last_connection: Date.UTC(2026, 10, 25, 14) })
        .execute();
    });
    const after = await accountTreeVersions(db);
    // SQLite's triggers are per row: at least one; PostgreSQL's once per transaction.
    expect(after.tree).toBeGreaterThan(before.tree);
    expect(after.connection).toBeGreaterThan(before.connection);
    if (dialect === 'postgres')
      expect([after.tree - before.tree, after.connection - before.connection]).toEqual([1, 1]);
    await expectEveryAnswerFresh('after a transaction of many rows');
  });

  it('a rolled back write bumps nothing', async () => {
    const { db } = t.app.storage;
    const before = await accountTreeVersions(db);
    await expect(
      db.transaction().execute(async (tx) => {
        await tx.updateTable('groups').set({ name: 'Never' }).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await accountTreeVersions(db)).toEqual(before);
  });
});
