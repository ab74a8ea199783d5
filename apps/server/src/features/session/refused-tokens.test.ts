import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../../testing/test-app';

const START = Date.UTC(2026, 11, 13, 12, 0, 0);

/**
 * Issue 38 item 5: an expired session token and the session token of a removed user are each a
 * clear 401 that ends the console's session, and write nothing (no session's last sight, no audit
 * entry, no row of anyone).
 */
describe.each(DIALECTS)('refused session tokens on %s', (dialect) => {
  let t: TestApp;
  const clock = { now: START };
  beforeAll(async () => {
    t = await startTestApp(dialect, { now: () => clock.now });
  });
  afterAll(() => t?.close());

  const db = () => t.app.storage.db;
  /** Every row a refused call could touch. */
  const state = async () =>
    JSON.stringify([
      await db().selectFrom('users').selectAll().orderBy('id').execute(),
      await db().selectFrom('sessions').selectAll().orderBy('id').execute(),
      await db().selectFrom('revoked_tokens').selectAll().execute(),
      await db().selectFrom('audit_log').select(['id', 'hash']).orderBy('id').execute(),
    ]);
  const self = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization: token } });

  it('refuses an expired session token with 401, writing nothing', async () => {
    const token = await signIn(t.app, 'viewer@fieldlink.test');
    expect((await self(token)).statusCode).toBe(200);
    clock.now += t.config.tokenTtlSeconds * 1000 + 1000;
    const before = await state();
    for (const call of [
      () => self(token),
      () => t.app.inject({ method: 'POST', url: '/api/v1/signout', headers: { authorization: token } }),
      () => t.app.inject({ method: 'GET', url: '/api/v1/user/passkeys', headers: { authorization: token } }),
    ]) {
      const answer = await call();
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toMatchObject({ sessionEnded: true });
    }
    expect(await state()).toBe(before);
  });

  it('refuses the session token of a removed user with 401, writing nothing', async () => {
    const email = 'water@fieldlink.test';
    const token = await signIn(t.app, email);
    expect((await self(token)).statusCode).toBe(200);
    const { id } = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await db().deleteFrom('attachment_points').where('user_id', '=', id).execute();
    await db().deleteFrom('sessions').where('user_id', '=', id).execute();
    await db().deleteFrom('users').where('id', '=', id).execute();
    const before = await state();
    const gone = await self(token);
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject({ sessionEnded: true });
    const change = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/user',
      headers: { authorization: token },
      payload: { email, props: { theme: 'DARK' } },
    });
    expect(change.statusCode).toBe(401);
    expect(await state()).toBe(before);
  });
});
