import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROADCAST_SPRAY_FORBIDDEN } from '@fieldlink/domain/spray';
import { DIALECTS, signIn, startTestApp, type TestApp } from '../../testing/test-app';

/**
 * Issue 35, item 7: only a missing, invalid, expired or revoked token ends a session. Its 401 is
 * marked `sessionEnded`; the specification's other 401s (broadcast spray without its permission, a
 * wrong password) are not, so the console tells them apart.
 */
describe.each(DIALECTS)('the 401 that ends a session, on %s', (dialect) => {
  let t: TestApp;
  const self = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/api/v1/self', headers: authorization ? { authorization } : {} });

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it.each([
    ['no token', undefined],
    ['a forged token', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ])('marks the 401 of %s', async (_label, token) => {
    const answer = await self(token);
    expect(answer.statusCode).toBe(401);
    expect(answer.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: 'Please sign in again.',
      sessionEnded: true,
    });
  });

  it('marks the 401 of a token revoked by signing out', async () => {
    const token = await signIn(t.app, 'ops@fieldlink.test');
    expect((await self(token)).statusCode).toBe(200);
    await t.app.inject({ method: 'POST', url: '/api/v1/signout', headers: { authorization: token } });
    expect((await self(token)).json()).toMatchObject({ statusCode: 401, sessionEnded: true });
  });

  it('leaves the broadcast-spray refusal and a wrong password unmarked', async () => {
    const viewer = await signIn(t.app, 'viewer@fieldlink.test');
    const group = await t.app.storage.db.selectFrom('groups').select('id').executeTakeFirstOrThrow();
    const spray = await t.app.inject({
      method: 'POST',
      url: '/api/v1/mosnix/broadcast-spray',
      headers: { authorization: viewer },
      payload: { groupId: group.id },
    });
    expect(spray.statusCode).toBe(401);
    expect(spray.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: BROADCAST_SPRAY_FORBIDDEN });
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: 'viewer@fieldlink.test', password: 'wrong-password' },
    });
    expect(signin.statusCode).toBe(401);
    expect(signin.json()).not.toHaveProperty('sessionEnded');
    // The refusal left the session as it was.
    expect((await self(viewer)).statusCode).toBe(200);
  });
});
