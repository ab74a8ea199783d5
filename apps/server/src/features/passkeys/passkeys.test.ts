import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import {
  CODE_REQUIRED_MESSAGE,
  PASSKEY_REFUSED_MESSAGE,
  PASSKEY_REQUIRED_MESSAGE,
  SECOND_FACTOR_KEPT_MESSAGE,
} from '@fieldlink/domain/mfa';
import type { PasskeyCreationOptions, PasskeyRequestOptions } from '@fieldlink/api/passkeys';
import { DIALECTS, DEMO_PASSWORD, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { SoftwareAuthenticator } from '../../../testing/passkey-authenticator';

const START = Date.UTC(2026, 11, 13, 9, 0, 0);

// Each sign-in hashes a password (scrypt at OWASP's floor): slow on a loaded machine.
describe.each(DIALECTS)('passkeys on %s', { timeout: 240_000 }, (dialect) => {
  let t: TestApp;
  const clock = { now: START };
  beforeAll(async () => {
    t = await startTestApp(dialect, { now: () => clock.now });
  });
  afterAll(() => t?.close());

  const db = () => t.app.storage.db;
  const authenticator = (options?: ConstructorParameters<typeof SoftwareAuthenticator>[1]) =>
    new SoftwareAuthenticator(new URL(t.config.publicUrl).origin, options);
  /** Past the sign-in limits' memory: earlier failures no longer slow a pair. */
  const forgetFailures = () => {
    clock.now += 61 * 60_000;
  };
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string | null, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: token === null ? {} : { authorization: token },
      payload,
    });
  const userRow = (email: string) =>
    db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const passkeyRows = async (email: string) =>
    db()
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', (await userRow(email)).id)
      .orderBy('created_at')
      .execute();
  const auditOf = async (email: string) =>
    db()
      .selectFrom('audit_log')
      .select(['action', 'before', 'after', 'account_id'])
      .where('actor_id', '=', (await userRow(email)).id)
      .orderBy('seq')
      .execute();
  const signInWith = (email: string, extra: object = {}) =>
    call('POST', '/signin', null, { email, password: DEMO_PASSWORD, ...extra });
  const passwordless = async (device: SoftwareAuthenticator, credential = device.credentials[0]) => {
    const options = (await call('POST', '/signin/passkey/options', null)).json<PasskeyRequestOptions>();
    return call('POST', '/signin/passkey', null, { credential: device.assert(options, credential) });
  };
  const setRequired = async (admin: string, accountName: string, required: boolean) => {
    const account = await db()
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', accountName)
      .executeTakeFirstOrThrow();
    const answer = await call('PUT', '/account/second-factor', admin, { accountId: account.id, required });
    expect(answer.statusCode).toBe(200);
  };

  /** Adds a passkey of `device` for the caller of `token`, named `name`. */
  async function addPasskey(token: string, device: SoftwareAuthenticator, name = 'Work laptop') {
    const options = await call('POST', '/user/passkeys/options', token);
    expect(options.statusCode).toBe(200);
    return call('POST', '/user/passkeys', token, { name, credential: device.register(options.json()) });
  }

  it('adds a passkey from a real registration ceremony, lists it, and signs in with it and no password', async () => {
    const email = 'viewer@fieldlink.test';
    const token = await signIn(t.app, email);
    const device = authenticator();
    const optionsAnswer = await call('POST', '/user/passkeys/options', token);
    expect(optionsAnswer.statusCode).toBe(200);
    const options = optionsAnswer.json<PasskeyCreationOptions>();
    expect(options.rp).toEqual({ id: 'localhost', name: 'Fieldlink' });
    expect(options.user.name).toBe(email);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    const registration = device.register(options);

    const added = await call('POST', '/user/passkeys', token, { name: '  Work   laptop ', credential: registration });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({
      passkey: {
        id: registration.id,
        name: 'Work laptop',
        createdAt: clock.now,
        lastUsedAt: null,
        transports: ['internal'],
      },
    });
    const [row] = await passkeyRows(email);
    expect(row).toMatchObject({ id: registration.id, name: 'Work laptop', counter: 0, transports: '["internal"]' });
    expect(row!.public_key.length).toBeGreaterThan(40);
    expect((await call('GET', '/user/passkeys', token)).json()).toEqual({ passkeys: [added.json().passkey] });
    // The challenge was taken: the same answer cannot add it again, nor under another name.
    const again = await call('POST', '/user/passkeys', token, { name: 'Again', credential: registration });
    expect(again.statusCode).toBe(400);
    expect(await passkeyRows(email)).toHaveLength(1);
    // The password alone still signs in: a passkey is a way in, not a lock, unless an account requires one.
    expect((await signInWith(email)).statusCode).toBe(200);

    clock.now += 60_000;
    const signedIn = await passwordless(device);
    expect(signedIn.statusCode).toBe(200);
    expect((await call('GET', '/self', signedIn.json().jwt)).json()).toMatchObject({ email });
    expect((await passkeyRows(email))[0]).toMatchObject({ counter: 1, last_used_at: clock.now });
    expect((await call('GET', '/user/passkeys', token)).json().passkeys[0].lastUsedAt).toBe(clock.now);

    const entries = await auditOf(email);
    expect(entries.map((e) => [e.action, e.after && JSON.parse(e.after)])).toEqual(
      expect.arrayContaining([
        ['mfa.passkeyAdd', { passkey: 'Work laptop', id: registration.id }],
        ['session.signIn', { passkey: 'Work laptop' }],
      ]),
    );
  });

  it('refuses a replayed, expired, foreign, unknown or forged answer with 401, writing only the audit entry', async () => {
    const email = 'water@fieldlink.test';
    const token = await signIn(t.app, email);
    const device = authenticator();
    expect((await addPasskey(token, device)).statusCode).toBe(200);
    const before = await passkeyRows(email);

    // Replayed: the challenge is spent by its first answer.
    const options = (await call('POST', '/signin/passkey/options', null)).json<PasskeyRequestOptions>();
    const assertion = device.assert(options);
    expect((await call('POST', '/signin/passkey', null, { credential: assertion })).statusCode).toBe(200);
    const replayed = await call('POST', '/signin/passkey', null, { credential: assertion });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ message: PASSKEY_REFUSED_MESSAGE });
    expect(replayed.json()).not.toHaveProperty('jwt');
    const afterUse = await passkeyRows(email);

    // Expired: five minutes after the options.
    const late = (await call('POST', '/signin/passkey/options', null)).json<PasskeyRequestOptions>();
    clock.now += 5 * 60_000 + 1;
    expect((await call('POST', '/signin/passkey', null, { credential: device.assert(late) })).statusCode).toBe(401);

    // Forged: a signature by another key over the same challenge.
    forgetFailures();
    const forger = authenticator();
    forger.credentials.push({ ...device.credentials[0]!, privateKey: authenticatorKey() });
    const forgedOptions = (await call('POST', '/signin/passkey/options', null)).json<PasskeyRequestOptions>();
    const forged = forger.assert(forgedOptions, forger.credentials[0]);
    expect((await call('POST', '/signin/passkey', null, { credential: forged })).statusCode).toBe(401);

    // A counter that went back: a cloned authenticator.
    const clone = authenticator();
    clone.credentials.push({ ...device.credentials[0]!, counter: 0 });
    expect((await passwordless(clone)).statusCode).toBe(401);

    // Unknown: nobody has this passkey; recorded in the system chain.
    const stranger = authenticator();
    stranger.register({ ...(await call('POST', '/user/passkeys/options', token)).json<PasskeyCreationOptions>() });
    expect((await passwordless(stranger)).statusCode).toBe(401);

    // A user handle naming someone else.
    const other = authenticator();
    other.credentials.push({
      ...device.credentials[0]!,
      userHandle: Buffer.from('someone-else').toString('base64url'),
    });
    expect((await passwordless(other)).statusCode).toBe(401);

    // Only the one good use changed the row.
    expect(before[0]!.counter).toBe(0);
    expect(await passkeyRows(email)).toEqual(afterUse);
    const refusals = (await auditOf(email)).filter((e) => e.action === 'session.signInRefused');
    expect(refusals.map((e) => JSON.parse(e.after!))).toEqual(
      Array(5).fill({ reason: 'passkeyRefused', passkey: 'Work laptop' }),
    );
    const unknown = await db()
      .selectFrom('audit_log')
      .select(['after', 'account_id'])
      .where('action', '=', 'session.signInRefused')
      .where('actor_id', '=', '')
      .execute();
    expect(unknown.map((e) => [e.account_id, JSON.parse(e.after!)])).toContainEqual([
      '*system*',
      { reason: 'unknownPasskey' },
    ]);
  });

  it('is the second factor where an account requires one, and beside TOTP; the password alone is refused', async () => {
    const email = 'ops@fieldlink.test';
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    const token = await signIn(t.app, email);
    const device = authenticator();
    expect((await addPasskey(token, device, 'Phone')).statusCode).toBe(200);
    const otherDevice = authenticator();
    const viewer = await signIn(t.app, 'stock@fieldlink.test');
    expect((await addPasskey(viewer, otherDevice)).statusCode).toBe(200);
    await setRequired(admin, 'Fieldlink Supply', true);

    // A passkey counts: no enrolment, but the password alone no longer signs in.
    const asked = await signInWith(email);
    expect(asked.statusCode).toBe(401);
    const answer = asked.json<{ message: string; secondFactors: string[]; passkeyOptions: PasskeyRequestOptions }>();
    expect(answer).toMatchObject({ mfaRequired: true, message: PASSKEY_REQUIRED_MESSAGE, secondFactors: ['passkey'] });
    expect(answer).not.toHaveProperty('jwt');
    expect(answer.passkeyOptions.allowCredentials).toEqual([
      { id: device.credentials[0]!.id.toString('base64url'), type: 'public-key', transports: ['internal'] },
    ]);
    // A code is not a way in for a user without an authenticator app.
    expect((await signInWith(email, { code: '123456' })).statusCode).toBe(401);

    // A passkey of another user answering this user's challenge is refused, and counted.
    const stolen = (await signInWith(email)).json<{ passkeyOptions: PasskeyRequestOptions }>();
    const refused = await signInWith(email, { passkey: otherDevice.assert(stolen.passkeyOptions) });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ mfaRequired: true, message: PASSKEY_REFUSED_MESSAGE });

    const fresh = (await signInWith(email)).json<{ passkeyOptions: PasskeyRequestOptions }>();
    const signedIn = await signInWith(email, { passkey: device.assert(fresh.passkeyOptions) });
    expect(signedIn.statusCode).toBe(200);
    // Removing the last second factor while the account requires one is refused.
    const [row] = await passkeyRows(email);
    const kept = await call('DELETE', `/user/passkeys?id=${row!.id}`, token);
    expect([kept.statusCode, kept.json().message]).toEqual([409, SECOND_FACTOR_KEPT_MESSAGE]);
    expect(await passkeyRows(email)).toHaveLength(1);
    await setRequired(admin, 'Fieldlink Supply', false);

    const entries = (await auditOf(email)).map((e) => [e.action, e.after && JSON.parse(e.after)]);
    expect(entries).toEqual(
      expect.arrayContaining([
        ['session.signInRefused', { reason: 'codeRequired' }],
        ['session.signInRefused', { reason: 'passkeyRefused' }],
        ['session.signIn', { secondFactor: 'passkey', passkey: 'Phone' }],
      ]),
    );
  });

  it('offers a passkey beside the authenticator app, and an enrol-only token may add one for a session', async () => {
    const email = 'spray@fieldlink.test';
    const token = await signIn(t.app, email);
    const started = (await call('POST', '/user/mfa/totp', token)).json<{ secret: string }>();
    const code = new TOTP({ secret: Secret.fromBase32(started.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    expect(
      (await call('POST', '/user/mfa/totp/confirm', token, { code: code.generate({ timestamp: clock.now }) }))
        .statusCode,
    ).toBe(200);
    const device = authenticator();
    expect((await addPasskey(token, device)).statusCode).toBe(200);
    const asked = (await signInWith(email)).json<{
      message: string;
      secondFactors: string[];
      passkeyOptions: PasskeyRequestOptions;
    }>();
    expect(asked).toMatchObject({ message: CODE_REQUIRED_MESSAGE, secondFactors: ['totp', 'passkey'] });
    expect((await signInWith(email, { passkey: device.assert(asked.passkeyOptions) })).statusCode).toBe(200);

    // A user whose account requires a second factor and who has none adds a passkey with the
    // enrol-only token: the sign-in completes.
    const admin = await signIn(t.app, 'admin@fieldlink.test');
    await setRequired(admin, 'Northgate Brewing', true);
    const held = (await signInWith('brew@fieldlink.test')).json<{ enrolmentToken: string }>();
    expect(typeof held.enrolmentToken).toBe('string');
    const enrolled = await addPasskey(held.enrolmentToken, authenticator(), 'Security key');
    expect(enrolled.statusCode).toBe(200);
    const { jwt } = enrolled.json<{ jwt: string }>();
    expect((await call('GET', '/self', jwt)).json()).toMatchObject({ email: 'brew@fieldlink.test' });
    expect((await call('GET', '/user/passkeys', held.enrolmentToken)).statusCode).toBe(401);
    await setRequired(admin, 'Northgate Brewing', false);
  });

  it('removes one’s own passkey only, and refuses bad input and another host, changing nothing', async () => {
    const email = 'stock@fieldlink.test';
    const token = await signIn(t.app, email);
    const device = authenticator();
    expect((await addPasskey(token, device, 'Desk key')).statusCode).toBe(200);
    const mine = (await passkeyRows(email)).find((row) => row.name === 'Desk key')!;
    const others = await signIn(t.app, 'moe@fieldlink.test');
    const count = async () => (await db().selectFrom('passkeys').selectAll().execute()).length;
    const before = await count();

    expect((await call('DELETE', `/user/passkeys?id=${mine.id}`, others)).statusCode).toBe(404);
    expect((await call('DELETE', '/user/passkeys?id=no-such-passkey', others)).statusCode).toBe(404);
    const options = (await call('POST', '/user/passkeys/options', token)).json<PasskeyCreationOptions>();
    const registration = device.register(options);
    for (const body of [
      { name: '', credential: registration },
      { name: 'x'.repeat(65), credential: registration },
      { name: 'No credential' },
      { name: 'Extra', credential: registration, userId: 'someone' },
      { name: 'Bad id', credential: { ...registration, id: 'not base64url!' } },
    ]) {
      expect((await call('POST', '/user/passkeys', token, body)).statusCode).toBe(400);
    }
    expect((await call('POST', '/signin/passkey', null, { credential: { id: 'x' } })).statusCode).toBe(400);
    // From a host that is not the public URL's, passkeys cannot work: 409 naming where they do.
    const elsewhere = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin/passkey/options',
      headers: { host: '127.0.0.1:8080' },
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().message).toContain(new URL(t.config.publicUrl).origin);
    expect(await count()).toBe(before);

    const removed = await call('DELETE', `/user/passkeys?id=${mine.id}`, token);
    expect(removed.statusCode).toBe(200);
    expect(await count()).toBe(before - 1);
    expect((await passwordless(device)).statusCode).toBe(401);
    expect((await auditOf(email)).map((e) => e.action)).toContain('mfa.passkeyRemove');
  });
});

/** A P-256 key that belongs to no passkey: a forger's. */
function authenticatorKey() {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
}
