import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { API_TOKEN_MAX_DAYS, MAX_API_TOKENS_PER_USER } from '@fieldlink/domain/api-tokens';
import { LAST_USE_INTERVAL_MS } from '@fieldlink/domain/last-use';
import { READ_ONLY_TOKEN_REFUSAL, TOKEN_MANAGEMENT_REFUSAL } from '@fieldlink/domain/permissions';
import { DIALECTS, addTestUser, baseUrl, startTestApp, type TestApp } from '../../../testing/test-app';
import { TestSocket } from '../../../testing/test-socket';
import { hashSecret } from '../../security/secrets';

const DAY = 86_400_000;

describe.each(DIALECTS)('personal API tokens on %s', (dialect) => {
  let t: TestApp;
  /** The app's clock: moved on by the tests that need time to pass. */
  let clock = Date.UTC(2026, 10, 29, 12);
  let accountId: string;
  let rootPath: string;
  /** A session of an administrator of the brewery. */
  let adminJwt: string;
  let adminEmail: string;
  let counter = 0;
  /** The id of the brewery's fermenter NGB-FV01. */
  let deviceId: string;

  const db = () => t.app.storage.db;
  const call = (
    authorization: string,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    rest: { payload?: object; query?: Record<string, string> } = {},
  ) => t.app.inject({ method, url, headers: { authorization, 'user-agent': 'integration/1.0' }, ...rest });
  const makeToken = async (jwt: string, body: object) => {
    const answer = await call(jwt, 'POST', '/api/v1/api-tokens', { payload: body });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ id: string; token: string; name: string; readOnly: boolean; expiresAt: number }>();
  };
  /** A new administrator of the brewery with a session of their own. */
  const newAdmin = async (permissions: string[] = ['ADMIN']) => {
    const email = `token-user-${++counter}@api-tokens.test`;
    const { id, token } = await addTestUser(t.app, { email, accountId, path: rootPath, permissions });
    return { id, email, jwt: token };
  };
  const auditRows = (actorId: string) =>
    db().selectFrom('audit_log').selectAll().where('actor_id', '=', actorId).orderBy('seq').execute();
  const tableState = async () =>
    JSON.stringify(await db().selectFrom('api_tokens').selectAll().orderBy('id').execute()) +
    JSON.stringify(await db().selectFrom('audit_log').select('id').orderBy('id').execute()) +
    JSON.stringify(await db().selectFrom('users').selectAll().orderBy('id').execute());

  beforeAll(async () => {
    t = await startTestApp(dialect, { listen: true, now: () => clock });
    const account = await db()
      .selectFrom('accounts')
      .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
      .select(['accounts.id', 'groups.path'])
      .where('accounts.name', '=', 'Northgate Brewing')
      .executeTakeFirstOrThrow();
    accountId = account.id;
    deviceId = (
      await db().selectFrom('devices').select('id').where('thing_name', '=', 'NGB-FV01').executeTakeFirstOrThrow()
    ).id;
    rootPath = account.path;
    const admin = await newAdmin();
    adminJwt = admin.jwt;
    adminEmail = admin.email;
  });
  afterAll(() => t?.close());

  it('answers a new token once, keeps only its SHA-256, and lists it without it', async () => {
    const made = await makeToken(adminJwt, { name: '  Grafana  ', readOnly: true });
    expect(made.token).toMatch(/^flk_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: 'Grafana', readOnly: true, expiresAt: clock + 90 * DAY });
    const row = await db().selectFrom('api_tokens').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashSecret(made.token));
    expect(JSON.stringify(row)).not.toContain(made.token.slice(4));
    const list = await call(adminJwt, 'GET', '/api/v1/api-tokens');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(made.token.slice(4));
    expect(list.json().tokens).toContainEqual({
      id: made.id,
      name: 'Grafana',
      readOnly: true,
      createdAt: clock,
      expiresAt: clock + 90 * DAY,
      lastUsedAt: null,
      lastUsedAddress: null,
    });
    // Made in the audit trail, by the user's session.
    const entry = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'apiToken.create')
      .where('target_id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ account_id: accountId, actor_kind: 'user', actor_name: adminEmail });
  });

  it('acts as its owner over Bearer, is named in the audit trail, and writes its last use once a minute', async () => {
    const owner = await newAdmin();
    const made = await makeToken(owner.jwt, { name: 'Nightly sync' });
    const self = await call(`Bearer ${made.token}`, 'GET', '/api/v1/self');
    expect(self.statusCode).toBe(200);
    expect(self.json().email).toBe(owner.email);
    const used = async () =>
      (await db().selectFrom('api_tokens').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow())
        .last_used_at;
    expect(await used()).toBe(clock);
    // A busy integration: many calls within the minute write nothing more.
    const firstUse = clock;
    clock += LAST_USE_INTERVAL_MS - 1;
    for (let i = 0; i < 5; i += 1)
      expect((await call(`Bearer ${made.token}`, 'GET', '/api/v1/self')).statusCode).toBe(200);
    expect(await used()).toBe(firstUse);
    clock += 1;
    await call(`Bearer ${made.token}`, 'GET', '/api/v1/self');
    expect(await used()).toBe(clock);
    const listed = (await call(owner.jwt, 'GET', '/api/v1/api-tokens')).json().tokens[0];
    expect(listed).toMatchObject({ id: made.id, lastUsedAt: clock, lastUsedAddress: '127.0.0.1' });

    // A change made with it names the token (and its owner) as the actor.
    const change = await call(`Bearer ${made.token}`, 'PUT', '/api/v1/user', {
      payload: { email: owner.email, props: { theme: 'DARK' } },
    });
    expect(change.statusCode, change.body).toBe(200);
    const [entry] = await auditRows(made.id);
    expect(entry).toMatchObject({
      action: 'user.update',
      actor_kind: 'token',
      actor_id: made.id,
      actor_name: `Nightly sync (${owner.email})`,
      client: 'http; integration/1.0',
    });
  });

  it('a read-only token reads but changes nothing, over REST and the real-time channel', async () => {
    const owner = await newAdmin();
    const { token } = await makeToken(owner.jwt, { name: 'Dashboard wall', readOnly: true });
    expect((await call(token, 'GET', '/api/v1/device', { query: { id: deviceId } })).statusCode).toBe(200);
    const before = await tableState();
    for (const [method, url, payload] of [
      ['PUT', '/api/v1/user', { email: owner.email, props: { theme: 'DARK' } }],
      ['POST', '/api/v1/group', { name: 'Read-only', parentId: 'x' }],
      ['POST', '/api/v1/signout', undefined],
    ] as const) {
      const answer = await call(token, method, url, payload ? { payload } : {});
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
      expect(answer.json().message).toBe(READ_ONLY_TOKEN_REFUSAL);
    }
    expect(await tableState()).toBe(before);

    const origin = baseUrl(t.app);
    const socket = await TestSocket.open(`${origin.replace('http', 'ws')}${REALTIME_PATH}`, token, origin);
    try {
      expect(await socket.request({ type: 'server/subscribeDevices', thingNames: ['NGB-FV01'] })).toMatchObject({
        ok: true,
      });
      for (const action of [
        { type: 'server/writeChannel', thingName: 'NGB-FV01', code: 'sp1', value: 1 },
        { type: 'server/readChannel', thingName: 'NGB-FV01', code: 'c1' },
        { type: 'server/systemCommand', thingName: 'NGB-FV01', command: 'FLASH LED' },
      ]) {
        expect(await socket.request(action), action.type).toMatchObject({ ok: false, error: READ_ONLY_TOKEN_REFUSAL });
      }
    } finally {
      socket.socket.close();
    }
    expect(await tableState()).toBe(before);
  });

  it('refuses a token managing tokens or signing out, even a read-write one', async () => {
    const owner = await newAdmin();
    const made = await makeToken(owner.jwt, { name: 'Deploy bot' });
    // Its first use is written down (its last use); what follows must write nothing.
    expect((await call(made.token, 'GET', '/api/v1/self')).statusCode).toBe(200);
    const before = await tableState();
    for (const [method, rest] of [
      ['GET', {}],
      ['POST', { payload: { name: 'Minted by a token' } }],
      ['DELETE', { query: { id: made.id } }],
    ] as const) {
      const answer = await call(made.token, method, '/api/v1/api-tokens', rest);
      expect(answer.statusCode, method).toBe(403);
      expect(answer.json().message).toBe(TOKEN_MANAGEMENT_REFUSAL);
    }
    const signout = await call(made.token, 'POST', '/api/v1/signout');
    expect(signout.statusCode).toBe(403);
    expect(await tableState()).toBe(before);
  });

  it('revokes at once: the next call is refused, its socket closes, the revocation is audited', async () => {
    const owner = await newAdmin();
    const made = await makeToken(owner.jwt, { name: 'Old integration' });
    const origin = baseUrl(t.app);
    const socket = await TestSocket.open(`${origin.replace('http', 'ws')}${REALTIME_PATH}`, made.token, origin);
    const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
    // Another user cannot revoke it: it is not found for them.
    const stranger = await newAdmin();
    const foreign = await call(stranger.jwt, 'DELETE', '/api/v1/api-tokens', { query: { id: made.id } });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('No such API token.');
    expect((await call(made.token, 'GET', '/api/v1/self')).statusCode).toBe(200);

    const revoked = await call(owner.jwt, 'DELETE', '/api/v1/api-tokens', { query: { id: made.id } });
    expect(revoked.statusCode).toBe(200);
    expect(await closed).toBe(4401);
    const refused = await call(made.token, 'GET', '/api/v1/self');
    expect(refused.statusCode).toBe(401);
    expect((await call(owner.jwt, 'GET', '/api/v1/api-tokens')).json().tokens).toEqual([]);
    const entry = await db()
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'apiToken.revoke')
      .where('target_id', '=', made.id)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actor_kind: 'user', actor_name: owner.email, target_name: 'Old integration' });
    // Revoking it again: it is gone.
    expect((await call(owner.jwt, 'DELETE', '/api/v1/api-tokens', { query: { id: made.id } })).statusCode).toBe(404);
  });

  it('holds only what its owner holds now, and stops with its owner', async () => {
    const owner = await newAdmin(['VIEW_DASH']);
    const made = await makeToken(owner.jwt, { name: 'Follows its owner' });
    const device = () => call(made.token, 'GET', '/api/v1/device', { query: { id: deviceId } });
    expect((await device()).statusCode).toBe(200);
    // No more than the owner: it cannot provision a device the owner cannot.
    const refused = await call(made.token, 'POST', '/api/v1/device', { payload: { name: 'Not mine to add' } });
    expect(refused.statusCode, refused.body).toBe(403);
    // The owner's dashboard access is taken away: the token loses it on its next call.
    const edited = await call(adminJwt, 'PUT', '/api/v1/user', {
      payload: { email: owner.email, props: { permissions: [] } },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await device()).statusCode).toBe(403);
    // The owner is removed: the token of a removed user is refused, and nothing is written.
    await db().deleteFrom('users').where('id', '=', owner.id).execute();
    const before = await tableState();
    const gone = await call(made.token, 'GET', '/api/v1/self');
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject({ message: 'Please sign in again.', sessionEnded: true });
    expect(await tableState()).toBe(before);
  });

  it('refuses malformed, unknown and expired tokens with 401 and writes nothing', async () => {
    const owner = await newAdmin();
    const made = await makeToken(owner.jwt, { name: 'Short lived', expiresAt: clock + DAY });
    const before = await tableState();
    for (const authorization of [
      'flk_',
      'flk_short',
      `flk_${'A'.repeat(43)}`,
      `Bearer ${made.token}x`,
      `Bearer ${made.token.toUpperCase()}`,
    ]) {
      const answer = await call(authorization, 'GET', '/api/v1/self');
      expect(answer.statusCode, authorization).toBe(401);
    }
    expect(await tableState()).toBe(before);
    clock += DAY;
    const expired = await call(`Bearer ${made.token}`, 'GET', '/api/v1/self');
    expect(expired.statusCode).toBe(401);
    // Its owner still sees it, with its expiry, until they revoke it.
    const listed = (await call(owner.jwt, 'GET', '/api/v1/api-tokens')).json().tokens;
    expect(listed).toMatchObject([{ id: made.id, expiresAt: clock }]);
  });

  it.each([
    ['an empty name', { name: '' }, 400],
    ['a blank name', { name: '   ' }, 400],
    ['a name too long', { name: 'x'.repeat(101) }, 400],
    ['an extra field', { name: 'x', userId: 'someone-else' }, 400],
    ['read-only not a boolean', { name: 'x', readOnly: 'yes' }, 400],
  ])('refuses a token with %s, and writes nothing', async (_name, body, status) => {
    const before = await tableState();
    const answer = await call(adminJwt, 'POST', '/api/v1/api-tokens', { payload: body });
    expect(answer.statusCode).toBe(status);
    expect(answer.json().message).toBeTruthy();
    expect(await tableState()).toBe(before);
  });

  it('refuses an expiry in the past or beyond the maximum', async () => {
    const before = await tableState();
    for (const [expiresAt, message] of [
      [clock - 1000, 'The expiry date must be in the future.'],
      [clock + (API_TOKEN_MAX_DAYS + 1) * DAY, `An API token can last at most ${API_TOKEN_MAX_DAYS} days.`],
    ] as const) {
      const answer = await call(adminJwt, 'POST', '/api/v1/api-tokens', { payload: { name: 'x', expiresAt } });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe(message);
    }
    expect(await tableState()).toBe(before);
    const longest = await makeToken(adminJwt, { name: 'A year', expiresAt: clock + API_TOKEN_MAX_DAYS * DAY });
    expect(longest.expiresAt).toBe(clock + API_TOKEN_MAX_DAYS * DAY);
  });

  it(`keeps at most ${MAX_API_TOKENS_PER_USER} working tokens a user`, async () => {
    const owner = await newAdmin();
    for (let i = 0; i < MAX_API_TOKENS_PER_USER; i += 1) await makeToken(owner.jwt, { name: `Token ${i}` });
    const before = await tableState();
    const refused = await call(owner.jwt, 'POST', '/api/v1/api-tokens', { payload: { name: 'One too many' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `You have ${MAX_API_TOKENS_PER_USER} API tokens already. Revoke one you no longer use first.`,
    );
    expect(await tableState()).toBe(before);
  });
});
