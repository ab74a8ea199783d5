import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeProtectedHeader, SignJWT, UnsecuredJWT } from 'jose';
import { DIALECTS, DEMO_PASSWORD, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { hashSecret } from '../../security/secrets';
import { newId } from '../../security/secrets';

describe.each(DIALECTS)('session calls on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  it('signs in with a trimmed, upper-case e-mail and answers a HS256 JWT', async () => {
    const jwt = await signIn(t.app, '  Admin@Fieldlink.TEST ');
    expect(decodeProtectedHeader(jwt).alg).toBe('HS256');
  });

  it('refuses a wrong password with 401 "Bad Login Info"', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: 'viewer@fieldlink.test', password: 'wrong' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('Bad Login Info');
  });

  it('answers 400 with a clear message for a bad body and ignores nothing silently', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email: 'viewer@fieldlink.test', password: 'x', admin: true },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/additional properties/);
  });

  it('GET /self answers the caller with linked accounts; accepts a Bearer prefix', async () => {
    const jwt = await signIn(t.app, 'brew@fieldlink.test');
    for (const authorization of [jwt, `Bearer ${jwt}`]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization } });
      expect(response.statusCode).toBe(200);
      const self = response.json();
      expect(self.email).toBe('brew@fieldlink.test');
      expect(self.linkedAccounts[0].attachmentPoints[0].permissions).toEqual(['ADMIN']);
    }
  });

  it.each([
    ['no token', undefined],
    ['garbage', 'not-a-jwt'],
    ['alg none', new UnsecuredJWT({ tv: 0 }).setSubject('x').setIssuer('fieldlink').setExpirationTime('1h').encode()],
  ])('refuses %s with 401', async (_name, authorization) => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/v1/self',
      headers: authorization ? { authorization } : {},
    });
    expect(response.statusCode).toBe(401);
  });

  it('refuses a token signed with another key, and an expired one', async () => {
    const self = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/self',
        headers: { authorization: await signIn(t.app, 'viewer@fieldlink.test') },
      })
    ).json();
    const forged = await new SignJWT({ tv: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('fieldlink')
      .setSubject(self.id)
      .setJti('x')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a guessed default secret'));
    const forgedAnswer = await t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization: forged } });
    expect(forgedAnswer.statusCode).toBe(401);
  });

  it('sign-out revokes the token', async () => {
    const jwt = await signIn(t.app, 'viewer@fieldlink.test');
    const out = await t.app.inject({ method: 'POST', url: '/api/v1/signout', headers: { authorization: jwt } });
    expect(out.statusCode).toBe(200);
    const after = await t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization: jwt } });
    expect(after.statusCode).toBe(401);
  });

  it('password reset: mails a link, the code sets a new password once, old sessions end', async () => {
    const oldJwt = await signIn(t.app, 'ops@fieldlink.test');
    const request = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/password/email-reset-code',
      payload: { email: 'ops@fieldlink.test', subdomain: 'app', isLinkReset: true },
    });
    expect(request.statusCode).toBe(200);
    const mail = await t.app.storage.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'ops@fieldlink.test')
      .executeTakeFirstOrThrow();
    const code = /code=([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/password',
      payload: { email: 'ops@fieldlink.test', code, password: 'a-new-long-password' },
    });
    expect(reset.statusCode).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization: oldJwt } })).statusCode,
    ).toBe(401);
    await signIn(t.app, 'ops@fieldlink.test', 'a-new-long-password');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/password',
      payload: { email: 'ops@fieldlink.test', code, password: 'another-long-password' },
    });
    expect(again.statusCode).toBe(400);
  });

  it('a reset request for an unknown e-mail answers the same and mails nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/password/email-reset-code',
      payload: { email: 'nobody@fieldlink.test' },
    });
    expect(response.statusCode).toBe(200);
    const mails = await t.app.storage.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', 'nobody@fieldlink.test')
      .execute();
    expect(mails).toHaveLength(0);
  });

  it('signs up from an invitation exactly once, with the invited permissions', async () => {
    const code = 'invitation-code-0123456789abcdef';
    const self = (
      await t.app.inject({
        method: 'GET',
        url: '/api/v1/self',
        headers: { authorization: await signIn(t.app, 'viewer@fieldlink.test') },
      })
    ).json();
    const point = self.linkedAccounts[0];
    await t.app.storage.db
      .insertInto('invitations')
      .values({
        code_hash: hashSecret(code),
        email: 'new.user@fieldlink.test',
        account_id: point.accountId,
        path: point.attachmentPoints[0].path,
        permissions: JSON.stringify(['VIEW_DASH']),
        secret_permissions: '[]',
        app_type: 'default',
        invited_by: null,
        expires_at: Date.now() + 60_000,
        used_at: null,
        monitor_only: 0,
      })
      .execute();
    const body = {
      email: 'New.User@fieldlink.test',
      password: 'long-enough-pw',
      firstName: 'New',
      lastName: 'User',
      code,
    };
    const first = await t.app.inject({ method: 'POST', url: '/api/v1/user', payload: body });
    expect(first.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/v1/self', headers: { authorization: first.json().jwt } });
    expect(me.json().linkedAccounts[0].attachmentPoints[0].permissions).toEqual(['VIEW_DASH']);
    const second = await t.app.inject({ method: 'POST', url: '/api/v1/user', payload: body });
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toMatch(/not valid/);
  });

  it(
    'slows failed sign-ins per account and address with 429, and lets the owner in from elsewhere',
    { timeout: 120_000 },
    async () => {
      const attempt = (password: string, remoteAddress: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/signin',
          payload: { email: 'moe@fieldlink.test', password },
          remoteAddress,
        });
      // Made at once, so all are counted before any hash: three free failures, the rest must wait.
      const answers = await Promise.all(Array.from({ length: 6 }, () => attempt(`wrong-${newId()}`, '10.9.0.1')));
      const codes = answers.map((answer) => answer.statusCode);
      expect(codes.filter((code) => code === 401)).toHaveLength(3);
      expect(codes.filter((code) => code === 429)).toHaveLength(3);
      for (const answer of answers.filter((a) => a.statusCode === 429)) {
        expect(answer.headers['retry-after']).toBe('1');
        expect(answer.json().message).toBe('Too many sign-in attempts. Please try again later.');
      }
      // The failures of one address do not keep the owner out of their account from another.
      expect((await attempt(DEMO_PASSWORD, '10.9.0.2')).statusCode).toBe(200);
    },
  );

  it('serves the public client configuration and the OpenAPI description', async () => {
    const config = await t.app.inject({ method: 'GET', url: '/api/v1/client-config' });
    expect(config.json()).toMatchObject({ productName: 'Fieldlink', clientVersion: '0.17.8', mapTileUrl: null });
    const openapi = await t.app.inject({ method: 'GET', url: '/api/v1/docs/json' });
    expect(openapi.statusCode).toBe(200);
    expect(Object.keys(openapi.json().paths)).toEqual(expect.arrayContaining(['/api/v1/signin', '/api/v1/device']));
  });
});
