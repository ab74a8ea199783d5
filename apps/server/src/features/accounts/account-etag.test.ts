import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AccountAnswer } from '@fieldlink/api/account';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import type { UserContext } from '../session/user-context';
import { ifNoneMatchNames } from '../../plugins/compression';
import { AccountService } from './service';

const TREE = '/api/v1/account?format=columns';
const ADMIN = 'admin@fieldlink.test';
const VIEWER = 'viewer@fieldlink.test';

describe.each(DIALECTS)('the account tree’s ETag on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  let viewer: string;

  const get = (authorization: string, headers: Record<string, string> = {}, url = TREE) =>
    t.app.inject({ method: 'GET', url, headers: { authorization, ...headers } });
  const tagOf = async (authorization: string, headers: Record<string, string> = {}) => {
    const response = await get(authorization, headers);
    expect(response.statusCode).toBe(200);
    return response.headers.etag as string;
  };
  /** A device the admin's tree shows, and another group of its account to move it to. */
  const someDevice = () => t.app.storage.db.selectFrom('devices').selectAll().orderBy('id').executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    admin = await signIn(t.app, ADMIN);
    viewer = await signIn(t.app, VIEWER);
  });
  afterAll(() => t?.close());

  it('answers a strong ETag with no-cache, and 304 without a body to the tag', async () => {
    const first = await get(admin);
    expect(first.statusCode).toBe(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    expect(String(first.headers.vary)).toMatch(/authorization/);
    const again = await get(admin, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    expect(again.headers['cache-control']).toBe('private, no-cache');
    // A list of tags, and the weak form of the same tag, match too (If-None-Match compares weakly).
    expect((await get(admin, { 'if-none-match': `"other", W/${etag}` })).statusCode).toBe(304);
    expect((await get(admin, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('gives each content coding its own tag, and each form its own', async () => {
    const plain = await tagOf(admin);
    const br = await tagOf(admin, { 'accept-encoding': 'br' });
    const gzip = await tagOf(admin, { 'accept-encoding': 'gzip' });
    expect(new Set([plain, br, gzip]).size).toBe(3);
    expect((await get(admin, { 'accept-encoding': 'br', 'if-none-match': br })).statusCode).toBe(304);
    // The client's stored bytes are gzip: a tag of another coding is not current for brotli.
    expect((await get(admin, { 'accept-encoding': 'br', 'if-none-match': gzip })).statusCode).toBe(200);
    const plainForm = await get(admin, {}, '/api/v1/account');
    expect(plainForm.headers.etag).not.toBe(plain);
    expect(
      (await get(admin, { 'if-none-match': plainForm.headers.etag as string }, '/api/v1/account')).statusCode,
    ).toBe(304);
  });

  it('changes the tag when a device connects, is renamed or moves, and not for a write it does not show', async () => {
    const db = t.app.storage.db;
    const device = await someDevice();
    const other = await db
      .selectFrom('groups')
      .select('id')
      .where('account_id', '=', device.account_id)
      .where('id', '!=', device.group_id)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const seen = [await tagOf(admin)];
    const expectNewTag = async () => {
      const before = seen.at(-1)!;
      // The client's tag is no longer current: the new tree comes with a new tag.
      const response = await get(admin, { 'if-none-match': before });
      expect(response.statusCode).toBe(200);
      const etag = response.headers.etag as string;
      expect(seen).not.toContain(etag);
      seen.push(etag);
    };
    await db
      .updateTable('devices')
      .set({ is_connected: device.is_connected === 1 ? 0 : 1, last_connection: Date.UTC(2026, 11, 2, 12) })
      .where('id', '=', device.id)
      .execute();
    await expectNewTag();
    await db.updateTable('devices').set({ name: 'Renamed for the tag' }).where('id', '=', device.id).execute();
    await expectNewTag();
    await db.updateTable('devices').set({ group_id: other.id }).where('id', '=', device.id).execute();
    await expectNewTag();
    // Health is not in the tree: the tag stays.
    await db
      .updateTable('devices')
      .set({ health: JSON.stringify({ signal: -71 }) })
      .where('id', '=', device.id)
      .execute();
    expect((await get(admin, { 'if-none-match': seen.at(-1)! })).statusCode).toBe(304);
    // Back to what it was: the same answer, the same tag (a hash of the answer, not a counter).
    await db
      .updateTable('devices')
      .set({ is_connected: device.is_connected, last_connection: device.last_connection, name: device.name })
      .where('id', '=', device.id)
      .execute();
    await db.updateTable('devices').set({ group_id: device.group_id }).where('id', '=', device.id).execute();
    expect((await get(admin, { 'if-none-match': seen[0]! })).statusCode).toBe(304);
  });

  it('keeps users apart: a tag is compared with the caller’s own tree only', async () => {
    const adminTag = await tagOf(admin);
    const viewerTag = await tagOf(viewer);
    expect(viewerTag).not.toBe(adminTag);
    // The admin's tag does not validate the viewer's tree: the viewer gets their own, in full.
    const asViewer = await get(viewer, { 'if-none-match': adminTag });
    expect(asViewer.statusCode).toBe(200);
    expect(asViewer.headers.etag).toBe(viewerTag);
    const names = (asViewer.json() as AccountAnswer).accounts.map((account) => account.name);
    expect(names).toEqual(((await get(viewer)).json() as AccountAnswer).accounts.map((account) => account.name));
    expect((await get(viewer, { 'if-none-match': viewerTag })).statusCode).toBe(304);
  });

  it('builds the tree once for callers of the same scope who ask at once, as after a restart', async () => {
    const accounts = new AccountService(t.app.storage.db);
    const builds = vi.spyOn(accounts, 'accountColumns');
    const user = (await t.app.userFromToken(admin)) as UserContext;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => accounts.answer(user, 'columns', 'br', i % 2 ? undefined : '"stale"')),
    );
    expect(builds).toHaveBeenCalledTimes(1);
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);
    // Those who hold the tree get their 304 from the same build.
    const tag = answers[0]!.etag;
    const again = await Promise.all(Array.from({ length: 5 }, () => accounts.answer(user, 'columns', 'br', tag)));
    expect(again.every((answer) => answer.notModified)).toBe(true);
    expect(builds).toHaveBeenCalledTimes(1);
  });

  it('reads the devices a few groups at a time and builds the same tree', async () => {
    const user = (await t.app.userFromToken(admin)) as UserContext;
    const whole = await new AccountService(t.app.storage.db).answer(user, 'columns', null, undefined);
    const inRuns = await new AccountService(t.app.storage.db, 8, 2).answer(user, 'columns', null, undefined);
    expect(inRuns.etag).toBe(whole.etag);
    expect(inRuns.notModified || whole.notModified).toBe(false);
    if (!inRuns.notModified && !whole.notModified) expect(inRuns.body).toBe(whole.body);
  });

  it('checks who asks before the tag: no 304 without a valid session', async () => {
    const etag = await tagOf(admin);
    const anonymous = await t.app.inject({ method: 'GET', url: TREE, headers: { 'if-none-match': etag } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers.etag).toBeUndefined();
    const forged = await get(`${admin.slice(0, -4)}AAAA`, { 'if-none-match': etag });
    expect(forged.statusCode).toBe(401);
    expect(forged.headers.etag).toBeUndefined();
  });
});

describe('If-None-Match', () => {
  it('names a tag in a list, in its weak form, or as *', () => {
    expect(ifNoneMatchNames(undefined, '"a"')).toBe(false);
    expect(ifNoneMatchNames('"a"', '"a"')).toBe(true);
    expect(ifNoneMatchNames('"b", W/"a"', '"a"')).toBe(true);
    expect(ifNoneMatchNames('*', '"a"')).toBe(true);
    expect(ifNoneMatchNames('"a-br"', '"a"')).toBe(false);
    expect(ifNoneMatchNames('a', '"a"')).toBe(false);
  });
});
