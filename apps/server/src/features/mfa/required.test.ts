import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import { ENROLMENT_REQUIRED_MESSAGE, SECOND_FACTOR_KEPT_MESSAGE } from '@fieldlink/domain/mfa';
import { REALTIME_PATH } from '@fieldlink/api/realtime';
import { DIALECTS, DEMO_PASSWORD, baseUrl, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { TestSocket } from '../../../testing/test-socket';

const START = Date.UTC(2026, 11, 12, 11, 0, 0);

// Each sign-in hashes a password (scrypt at OWASP's floor): slow on a loaded machine.
describe.each(DIALECTS)('a second factor required per account on %s', { timeout: 240_000 }, (dialect) => {
  let t: TestApp;
  const clock = { now: START };
  beforeAll(async () => {
    t = await startTestApp(dialect, { now: () => clock.now, listen: true });
  });
  afterAll(() => t?.close());

  const db = () => t.app.storage.db;
  const codeAt = (secret: string) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
      timestamp: clock.now,
    });
  const nextStep = () => {
    clock.now += 30_000;
  };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: token }, payload });
  const signInWith = (email: string, code?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email, password: DEMO_PASSWORD, ...(code === undefined ? {} : { code }) },
    });
  const accountId = async (name: string) =>
    (await db().selectFrom('accounts').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const accountRow = async (name: string) =>
    db().selectFrom('accounts').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
  const setRequired = async (token: string, name: string, required: boolean) =>
    call('PUT', '/account/second-factor', token, { accountId: await accountId(name), required });
  const requirementEntries = async (name: string) =>
    db()
      .selectFrom('audit_log')
      .select(['actor_name', 'before', 'after'])
      .where('account_id', '=', await accountId(name))
      .where('action', '=', 'account.secondFactorRequirement')
      .orderBy('seq')
      .execute();

  it('is set by an account administrator, covers the customers below, and is recorded', async () => {
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    const brew = await signIn(t.app, 'brew@fieldlink.test');
    const supplier = await accountId('Fieldlink Supply');
    const customer = await accountId('Northgate Brewing');
    const read = async (token: string, id: string) =>
      (await call('GET', `/account/second-factor?accountId=${id}`, token)).json() as Record<string, unknown>;
    expect(await read(admin, supplier)).toEqual({ accountId: supplier, required: false, requiredAbove: false });

    const on = await setRequired(admin, 'Fieldlink Supply', true);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toEqual({ accountId: supplier, required: true, requiredAbove: false });
    expect(await read(admin, customer)).toEqual({ accountId: customer, required: false, requiredAbove: true });
    // Setting it again changes nothing and records nothing.
    expect((await setRequired(admin, 'Fieldlink Supply', true)).statusCode).toBe(200);
    expect(
      (await requirementEntries('Fieldlink Supply')).map((e) => [
        e.actor_name,
        JSON.parse(e.before!),
        JSON.parse(e.after!),
      ]),
    ).toEqual([['admin@fieldlink.test', { requireSecondFactor: false }, { requireSecondFactor: true }]]);

    // The supplier's own users and its customers' users are led to set one up at their next sign-in;
    // sessions already open go on.
    for (const email of ['admin@fieldlink.test', 'brew@fieldlink.test']) {
      expect((await signInWith(email)).json()).toMatchObject({ mfaEnrolmentRequired: true });
    }
    expect((await call('GET', '/self', brew)).statusCode).toBe(200);
    // A customer's administrator sees the requirement from above but cannot lift it, nor reach the supplier.
    expect(await read(brew, customer)).toEqual({ accountId: customer, required: false, requiredAbove: true });
    expect((await setRequired(brew, 'Fieldlink Supply', false)).statusCode).toBe(404);
    expect((await accountRow('Fieldlink Supply')).require_second_factor).toBe(1);

    expect((await setRequired(admin, 'Fieldlink Supply', false)).json()).toMatchObject({ required: false });
    expect((await requirementEntries('Fieldlink Supply')).map((e) => JSON.parse(e.after!))).toEqual([
      { requireSecondFactor: true },
      { requireSecondFactor: false },
    ]);
    expect((await signInWith('brew@fieldlink.test')).statusCode).toBe(200);
  });

  it('refuses those who are not administrators of the whole account, and bad input, changing nothing', async () => {
    const ops = await signIn(t.app, 'ops@fieldlink.test');
    const brew = await signIn(t.app, 'brew@fieldlink.test');
    const before = await accountRow('Acme Controls');
    expect((await setRequired(ops, 'Acme Controls', true)).statusCode).toBe(403);
    expect((await call('GET', `/account/second-factor?accountId=${before.id}`, ops)).statusCode).toBe(403);
    // Northgate's administrator: Acme Controls and the supplier are not in its tree.
    const foreign = await setRequired(brew, 'Acme Controls', true);
    const missing = await call('PUT', '/account/second-factor', brew, { accountId: 'no-such-account', required: true });
    expect([foreign.statusCode, foreign.body]).toEqual([missing.statusCode, missing.body]);
    expect(foreign.statusCode).toBe(404);
    expect((await setRequired(brew, 'Fieldlink Supply', true)).statusCode).toBe(404);
    for (const body of [
      { accountId: before.id, required: 'yes' },
      { accountId: before.id },
      { accountId: before.id, required: true, requiredAbove: false },
    ]) {
      expect((await call('PUT', '/account/second-factor', brew, body)).statusCode).toBe(400);
    }
    expect(await accountRow('Acme Controls')).toEqual(before);
    expect(await requirementEntries('Acme Controls')).toEqual([]);
  });

  it('gives a user without a second factor only an enrol-only token, then a session once one is set up', async () => {
    const email = 'viewer@fieldlink.test';
    const brew = await signIn(t.app, 'brew@fieldlink.test');
    // Acme Controls requires it: Northgate's admin is not covered, Acme's viewer is.
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    expect((await setRequired(admin, 'Acme Controls', true)).statusCode).toBe(200);
    expect((await signInWith('brew@fieldlink.test')).statusCode).toBe(200);
    expect((await call('GET', '/self', brew)).statusCode).toBe(200);

    const held = await signInWith(email);
    expect(held.statusCode).toBe(401);
    const answer = held.json() as { message: string; mfaEnrolmentRequired?: true; enrolmentToken?: string };
    expect(answer).toMatchObject({ message: ENROLMENT_REQUIRED_MESSAGE, mfaEnrolmentRequired: true });
    expect(answer).not.toHaveProperty('jwt');
    expect(answer).not.toHaveProperty('sessionEnded');
    const enrolment = answer.enrolmentToken!;
    expect(typeof enrolment).toBe('string');

    // Nothing but the second factor's set-up: not the user's record, not the real-time channel.
    expect((await call('GET', '/self', enrolment)).statusCode).toBe(401);
    expect((await call('GET', '/account', enrolment)).statusCode).toBe(401);
    expect((await call('POST', '/signout', enrolment)).statusCode).toBe(401);
    const origin = baseUrl(t.app);
    await expect(TestSocket.open(`${origin.replace('http', 'ws')}${REALTIME_PATH}`, enrolment, origin)).rejects.toThrow(
      'HTTP 401',
    );
    expect((await call('GET', '/user/mfa', enrolment)).json()).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      required: true,
    });

    const started = await call('POST', '/user/mfa/totp', enrolment);
    expect(started.statusCode).toBe(200);
    const { secret } = started.json() as { secret: string };
    expect((await call('POST', '/user/mfa/totp/confirm', enrolment, { code: 'nope' })).statusCode).toBe(400);
    const confirmed = await call('POST', '/user/mfa/totp/confirm', enrolment, { code: codeAt(secret) });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes, jwt } = confirmed.json() as { recoveryCodes: string[]; jwt?: string };
    expect(recoveryCodes).toHaveLength(10);
    expect((await call('GET', '/self', jwt!)).json()).toMatchObject({ email });
    // The enrol-only token is spent.
    expect((await call('GET', '/user/mfa', enrolment)).statusCode).toBe(401);

    // From now on: the password asks for a code, as for anyone with a second factor.
    expect((await signInWith(email)).json()).toMatchObject({ mfaRequired: true });
    nextStep();
    expect((await signInWith(email, codeAt(secret))).statusCode).toBe(200);
    expect((await setRequired(admin, 'Acme Controls', false)).statusCode).toBe(200);

    const user = await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    const entries = await db()
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('actor_id', '=', user.id)
      .orderBy('at')
      .orderBy('seq')
      .execute();
    expect(entries.map((e) => [e.action, e.after && JSON.parse(e.after)])).toEqual(
      expect.arrayContaining([
        ['session.signInRefused', { reason: 'enrolmentRequired' }],
        ['mfa.totpOn', { totp: true, recoveryCodes: 10 }],
        ['session.signIn', { secondFactor: 'totp', enrolled: true }],
      ]),
    );
  });

  it('refuses turning the second factor off while the account requires it, without spending the code', async () => {
    const email = 'ops@fieldlink.test';
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    const token = await signIn(t.app, email);
    const started = await call('POST', '/user/mfa/totp', token);
    const { secret } = started.json() as { secret: string };
    expect((await call('POST', '/user/mfa/totp/confirm', token, { code: codeAt(secret) })).statusCode).toBe(200);
    expect((await setRequired(admin, 'Fieldlink Supply', true)).statusCode).toBe(200);

    nextStep();
    const code = codeAt(secret);
    const refused = await call('DELETE', '/user/mfa/totp', token, { code });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(SECOND_FACTOR_KEPT_MESSAGE);
    expect((await call('GET', '/user/mfa', token)).json()).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
      required: true,
    });
    // The refused call did not use the code.
    expect((await signInWith(email, code)).statusCode).toBe(200);

    expect((await setRequired(admin, 'Fieldlink Supply', false)).statusCode).toBe(200);
    nextStep();
    expect((await call('DELETE', '/user/mfa/totp', token, { code: codeAt(secret) })).statusCode).toBe(200);
  });
});
