import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { LAST_USE_INTERVAL_MS } from '@fieldlink/domain/last-use';
import { TOKEN_MANAGEMENT_REFUSAL } from '@fieldlink/domain/permissions';
import { DEMO_PASSWORD, DIALECTS, addTestUser, baseUrl, startTestApp, type TestApp } from '../../../testing/test-app';
import { TestSocket } from '../../../testing/test-socket';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';

describe.each(DIALECTS)('signed-in sessions on %s', (dialect) => {
  let t: TestApp;
  /** The app's clock: moved on by the tests that need time to pass. */
  let clock = Date.UTC(2026, 10, 29, 12);
  let accountId: string;
  let rootPath: string;
  let counter = 0;

  const db = () => t.app.storage.db;
  const call = (
    authorization: string,
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    rest: { query?: Record<string, string>; payload?: object } = {},
  ) => t.app.inject({ method, url, headers: { authorization }, ...rest });
  /** A new user of the brewery and sessions of theirs, signed in from the given browsers. */
  const newUser = async (...agents: string[]) => {
    const email = `session-user-${++counter}@sessions.test`;
    const { id } = await addTestUser(t.app, { email, accountId, path: rootPath, permissions: ['VIEW_DASH'] });
    // addTestUser signs the user in once: only the sessions opened below stay open.
    await db().updateTable('sessions').set({ ended_at: clock }).where('user_id', '=', id).execute();
    const sessions = [];
    for (const [index, userAgent] of agents.entries()) {
      sessions.push(await t.app.tokens.issueSession(id, 0, { address: `192.0.2.${index + 1}`, userAgent }));
    }
    return { id, email, sessions };
  };
  const listed = async (jwt: string) => {
    const answer = await call(jwt, 'GET', '/api/v1/sessions');
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json<{ sessions: { id: string; current: boolean; browser: string; address: string }[] }>().sessions;
  };
  const auditOf = (action: string, actorId: string) =>
    db().selectFrom('audit_log').selectAll().where('action', '=', action).where('actor_id', '=', actorId).execute();
  const state = async () =>
    JSON.stringify(await db().selectFrom('sessions').selectAll().orderBy('id').execute()) +
    JSON.stringify(await db().selectFrom('audit_log').select('id').orderBy('id').execute());

  beforeAll(async () => {
    t = await startTestApp(dialect, { listen: true, now: () => clock });
    const account = await db()
      .selectFrom('accounts')
      .innerJoin('groups', 'groups.id', 'accounts.root_group_id')
      .select(['accounts.id', 'groups.path'])
      .where('accounts.name', '=', 'Northgate Brewing')
      .executeTakeFirstOrThrow();
    accountId = account.id;
    rootPath = account.path;
  });
  afterAll(() => t?.close());

  it('records a sign-in as a session with its browser and address, and marks the caller’s own', async () => {
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      headers: { 'user-agent': FIREFOX },
      payload: { email: 'brew@fieldlink.test', password: DEMO_PASSWORD },
    });
    expect(signin.statusCode).toBe(200);
    const jwt = signin.json<{ jwt: string }>().jwt;
    const mine = (await listed(jwt)).find((session) => session.current);
    expect(mine).toMatchObject({
      id: decodeJwt(jwt).jti,
      browser: 'Firefox on Linux',
      address: '127.0.0.1',
      createdAt: clock,
      lastSeenAt: clock,
    });
  });

  it('lists only the caller’s open sessions, and writes their last sight once a minute', async () => {
    const user = await newUser(FIREFOX, IPHONE);
    const [firefox, iphone] = user.sessions;
    const other = await newUser(FIREFOX);
    const sessions = await listed(firefox!.token);
    expect(sessions.map((session) => [session.id, session.current, session.browser])).toEqual(
      expect.arrayContaining([
        [firefox!.sessionId, true, 'Firefox on Linux'],
        [iphone!.sessionId, false, 'Safari on iPhone'],
      ]),
    );
    expect(sessions).toHaveLength(2);
    expect(sessions.map((session) => session.id)).not.toContain(other.sessions[0]!.sessionId);
    const seen = async () =>
      (
        await db()
          .selectFrom('sessions')
          .select('last_seen_at')
          .where('id', '=', iphone!.sessionId)
          .executeTakeFirstOrThrow()
      ).last_seen_at;
    const created = clock;
    clock += LAST_USE_INTERVAL_MS - 1;
    await listed(iphone!.token);
    expect(await seen()).toBe(created);
    clock += 1;
    await listed(iphone!.token);
    expect(await seen()).toBe(clock);
  });

  it('signs one other session out at once: refused on its next call, its socket closed, audited', async () => {
    const user = await newUser(FIREFOX, IPHONE);
    const [firefox, iphone] = user.sessions;
    const origin = baseUrl(t.app);
    const socket = await TestSocket.open(`${origin.replace('http', 'ws')}${REALTIME_PATH}`, iphone!.token, origin);
    const closed = new Promise<number>((resolve) => socket.socket.once('close', (code) => resolve(code)));
    // Another user cannot end it: it is not found for them, and nothing changes.
    const stranger = await newUser(FIREFOX);
    const before = await state();
    const foreign = await call(stranger.sessions[0]!.token, 'DELETE', '/api/v1/sessions', {
      query: { id: iphone!.sessionId },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('No such session.');
    expect(await state()).toBe(before);

    const ended = await call(firefox!.token, 'DELETE', '/api/v1/sessions', { query: { id: iphone!.sessionId } });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(await closed).toBe(4401);
    expect((await call(iphone!.token, 'GET', '/api/v1/self')).statusCode).toBe(401);
    expect((await listed(firefox!.token)).map((session) => session.id)).toEqual([firefox!.sessionId]);
    expect(await auditOf('session.end', user.id)).toMatchObject([
      { target_id: iphone!.sessionId, target_name: 'Safari on iPhone', account_id: accountId },
    ]);
  });

  it('signs every other session out, keeping the caller’s', async () => {
    const user = await newUser(FIREFOX, IPHONE, IPHONE);
    const [kept, ...others] = user.sessions;
    const answer = await call(kept!.token, 'DELETE', '/api/v1/sessions/others');
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ ended: 2 });
    for (const other of others) expect((await call(other.token, 'GET', '/api/v1/self')).statusCode).toBe(401);
    expect((await call(kept!.token, 'GET', '/api/v1/self')).statusCode).toBe(200);
    expect(await auditOf('session.endOthers', user.id)).toMatchObject([{ after: JSON.stringify({ ended: 2 }) }]);
    // Nothing left to end: it answers so and records nothing.
    const again = await call(kept!.token, 'DELETE', '/api/v1/sessions/others');
    expect(again.json()).toEqual({ ended: 0 });
    expect(await auditOf('session.endOthers', user.id)).toHaveLength(1);
  });

  it('ends the other sessions when the password is changed', async () => {
    const user = await newUser(FIREFOX, IPHONE);
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/password/email-reset-code',
      payload: { email: user.email },
    });
    const mail = await db()
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', user.email)
      .executeTakeFirstOrThrow();
    const code = /code=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/password',
      payload: { email: user.email, code, password: 'a-new-long-password' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const jwt = reset.json<{ jwt: string }>().jwt;
    expect((await listed(jwt)).map((session) => [session.id, session.current])).toEqual([[decodeJwt(jwt).jti, true]]);
    const rows = await db().selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
    expect(rows.filter((row) => row.ended_at === null).map((row) => row.id)).toEqual([decodeJwt(jwt).jti]);
  });

  it('leaves a signed-out session out of the list', async () => {
    const user = await newUser(FIREFOX, IPHONE);
    const [firefox, iphone] = user.sessions;
    expect((await call(iphone!.token, 'POST', '/api/v1/signout')).statusCode).toBe(200);
    expect((await listed(firefox!.token)).map((session) => session.id)).toEqual([firefox!.sessionId]);
  });

  it('refuses API tokens and bad input, changing nothing', async () => {
    const user = await newUser(FIREFOX, IPHONE);
    const made = await call(user.sessions[0]!.token, 'POST', '/api/v1/api-tokens', { payload: { name: 'Bot' } });
    const token = made.json<{ token: string }>().token;
    await call(token, 'GET', '/api/v1/self');
    const before = await state();
    for (const [method, url, query] of [
      ['GET', '/api/v1/sessions', undefined],
      ['DELETE', '/api/v1/sessions', { id: user.sessions[1]!.sessionId }],
      ['DELETE', '/api/v1/sessions/others', undefined],
    ] as const) {
      const answer = await call(token, method, url, query ? { query } : {});
      expect(answer.statusCode, url).toBe(403);
      expect(answer.json().message).toBe(TOKEN_MANAGEMENT_REFUSAL);
    }
    for (const query of [{}, { id: '' }, { id: 'x'.repeat(65) }, { id: 'a', extra: '1' }] as Record<string, string>[]) {
      expect((await call(user.sessions[0]!.token, 'DELETE', '/api/v1/sessions', { query })).statusCode).toBe(400);
    }
    const missing = await call(user.sessions[0]!.token, 'DELETE', '/api/v1/sessions', {
      query: { id: 'no-such-session' },
    });
    expect(missing.statusCode).toBe(404);
    expect(await state()).toBe(before);
  });
});
