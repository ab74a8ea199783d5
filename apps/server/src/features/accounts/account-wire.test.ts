import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountAnswer } from '@fieldlink/api/account';
import { AccountColumnsAnswer, decodeAccountColumns } from '@fieldlink/api/account-columns';
import { Value } from '@sinclair/typebox/value';
import { COMPRESSION_THRESHOLD_BYTES } from '../../plugins/compression';
import { DIALECTS, signIn, startTestApp, TREE_DEMO_USERS, type TestApp } from '../../../testing/test-app';

describe.each(DIALECTS)('GET /account on the wire on %s', (dialect) => {
  let t: TestApp;

  const get = (url: string, authorization: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization, ...headers } });

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it.each(TREE_DEMO_USERS)('%s: the compact form (format=columns) decodes to the plain tree', async (email) => {
    const token = await signIn(t.app, email);
    const plain = (await get('/account', token)).json() as AccountAnswer;
    const answer = await get('/account?format=columns', token);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const compact = answer.json() as AccountColumnsAnswer;
    expect(Value.Check(AccountColumnsAnswer, compact)).toBe(true);
    expect(decodeAccountColumns(compact)).toEqual(plain);
    const devices = plain.accounts.flatMap((account) => {
      const walk = (group: AccountAnswer['accounts'][number]['rootGroup']): string[] => [
        ...group.devices.map((device) => device.id),
        ...group.groups.flatMap(walk),
      ];
      return walk(account.rootGroup);
    });
    expect(compact.devices.id).toEqual(devices);
    expect(devices.length).toBeGreaterThan(0);
    // The demo devices of one model share a channel list: fewer lists than devices.
    if (devices.length > 3) expect(compact.devices.channelLists.length).toBeLessThan(devices.length);
    // Smaller than the plain form.
    expect(answer.rawPayload.length).toBeLessThan(JSON.stringify(plain).length);
  });

  it('refuses an unknown format with 400 and a clear message', async () => {
    const token = await signIn(t.app, 'ops@fieldlink.test');
    const refused = await get('/account?format=rows', token);
    expect(refused.statusCode).toBe(400);
    expect((refused.json() as { message: string }).message).toMatch(/format/);
    expect((await get('/account?devices=none', token)).statusCode).toBe(400);
  });

  it('still needs a signed-in caller', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/account?format=columns' })).statusCode).toBe(401);
  });

  it.each([
    ['br', 'br', brotliDecompressSync],
    ['gzip, deflate, br', 'br', brotliDecompressSync],
    ['gzip', 'gzip', gunzipSync],
    ['br;q=0.5, gzip', 'gzip', gunzipSync],
    ['br;q=0, gzip;q=0.8', 'gzip', gunzipSync],
    ['*', 'br', brotliDecompressSync],
  ])('Accept-Encoding %j: compressed with %s, the same JSON inside', async (accept, coding, decompress) => {
    const token = await signIn(t.app, 'admin@fieldlink.test');
    const plain = await get('/account?format=columns', token);
    const compressed = await get('/account?format=columns', token, { 'accept-encoding': accept });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers['content-encoding']).toBe(coding);
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(decompress(compressed.rawPayload).toString()).toBe(plain.body);
  });

  it('sends the answer as it is when the client accepts no coding it knows, or refuses them all', async () => {
    const token = await signIn(t.app, 'admin@fieldlink.test');
    for (const accept of ['identity', 'deflate', 'gzip;q=0, br;q=0', '*;q=0']) {
      const answer = await get('/account', token, { 'accept-encoding': accept });
      expect(answer.headers['content-encoding'], accept).toBeUndefined();
      expect(answer.headers.vary, accept).toMatch(/accept-encoding/i);
      expect((answer.json() as AccountAnswer).accounts.length).toBeGreaterThan(0);
    }
  });

  it(`leaves answers under ${COMPRESSION_THRESHOLD_BYTES} bytes uncompressed and keeps the device table's own gzip`, async () => {
    const token = await signIn(t.app, 'viewer@fieldlink.test');
    const small = await get('/self', token, { 'accept-encoding': 'br, gzip' });
    expect(small.statusCode).toBe(200);
    expect(small.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES);
    expect(small.headers['content-encoding']).toBeUndefined();
    const table = await get('/devices/table', token, { 'accept-encoding': 'br, gzip' });
    expect(table.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(table.rawPayload).toString())).toHaveProperty('format');
    // A refused call's error answer is JSON too, and small: as it is.
    const refused = await get('/account?format=rows', token, { 'accept-encoding': 'br' });
    expect(refused.headers['content-encoding']).toBeUndefined();
  });
});
