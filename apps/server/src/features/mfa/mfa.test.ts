import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { DIALECTS, DEMO_PASSWORD, signIn, startTestApp, type TestApp } from '../../../testing/test-app';
import { hashSecret } from '../../security/secrets';

const START = Date.UTC(2026, 11, 12, 9, 0, 0);

// Each sign-in hashes a password (scrypt at OWASP's floor): slow on a loaded machine.
describe.each(DIALECTS)('a second factor (TOTP) on %s', { timeout: 240_000 }, (dialect) => {
  let t: TestApp;
  const clock = { now: START };
  beforeAll(async () => {
    t = await startTestApp(dialect, { now: () => clock.now });
  });
  afterAll(() => t?.close());

  const db = () => t.app.storage.db;
  const codeAt = (secret: string, at = clock.now) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
      timestamp: at,
    });
  const nextStep = () => {
    clock.now += 30_000;
  };
  /** Past the sign-in limits' memory (SIGNIN_LIMITS.pairMemoryMs): earlier failures no longer slow a pair. */
  const forgetFailures = () => {
    clock.now += 61 * 60_000;
  };
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: token }, payload });
  const signInWith = (email: string, code?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email, password: DEMO_PASSWORD, ...(code === undefined ? {} : { code }) },
    });
  const userRow = (email: string) =>
    db().selectFrom('users').selectAll().where('email', '=', email).executeTakeFirstOrThrow();
  const auditOf = async (email: string) => {
    const { id } = await userRow(email);
    return db()
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('actor_id', '=', id)
      .orderBy('at')
      .orderBy('seq')
      .execute();
  };

  /** Enrols `email` and answers the secret and the recovery codes. */
  async function enrol(email: string): Promise<{ secret: string; recoveryCodes: string[]; token: string }> {
    const token = await signIn(t.app, email);
    const started = await call('POST', '/user/mfa/totp', token);
    expect(started.statusCode).toBe(200);
    const { secret } = started.json() as { secret: string };
    const confirmed = await call('POST', '/user/mfa/totp/confirm', token, { code: codeAt(secret) });
    expect(confirmed.statusCode).toBe(200);
    return { secret, recoveryCodes: (confirmed.json() as { recoveryCodes: string[] }).recoveryCodes, token };
  }

  it('enrols: a base32 secret and otpauth:// URL, then the first code answers ten recovery codes', async () => {
    const email = 'viewer@fieldlink.test';
    const token = await signIn(t.app, email);
    expect((await call('GET', '/user/mfa', token)).json()).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      required: false,
    });
    const started = await call('POST', '/user/mfa/totp', token);
    expect(started.statusCode).toBe(200);
    const { secret, url } = started.json() as { secret: string; url: string };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const parsed = new URL(url);
    expect(parsed.protocol).toBe('otpauth:');
    expect(parsed.searchParams.get('secret')).toBe(secret);
    expect(parsed.searchParams.get('issuer')).toBe('Fieldlink');
    expect(decodeURIComponent(parsed.pathname)).toContain(email);
    // Not on before its first code: the password alone still signs in.
    expect((await signInWith(email)).statusCode).toBe(200);

    expect((await call('POST', '/user/mfa/totp/confirm', token, { code: '12ab' })).statusCode).toBe(400);
    const wrong = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
    const refused = await call('POST', '/user/mfa/totp/confirm', token, { code: wrong });
    expect(refused.statusCode).toBe(401);
    expect((await userRow(email)).totp_secret).toBeNull();

    const confirmed = await call('POST', '/user/mfa/totp/confirm', token, { code: codeAt(secret) });
    expect(confirmed.statusCode).toBe(200);
    const { recoveryCodes } = confirmed.json() as { recoveryCodes: string[] };
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    expect((await call('GET', '/user/mfa', token)).json()).toEqual({
      totp: true,
      recoveryCodesLeft: 10,
      required: false,
    });

    // At rest: the secret encrypted, recovery codes as hashes only; neither is answered again.
    const row = await userRow(email);
    expect(row.totp_secret).not.toContain(secret);
    expect(row.totp_pending_secret).toBeNull();
    const stored = await db().selectFrom('mfa_recovery_codes').selectAll().where('user_id', '=', row.id).execute();
    expect(stored.map((r) => r.code_hash).sort()).toEqual(
      recoveryCodes.map((c) => hashSecret(c.replaceAll('-', ''))).sort(),
    );
    expect((await call('POST', '/user/mfa/totp', token)).statusCode).toBe(409);
    expect((await call('GET', '/user/mfa', token)).body).not.toContain(secret);

    expect((await auditOf(email)).map((e) => e.action)).toEqual(
      expect.arrayContaining(['mfa.totpStart', 'mfa.totpOn']),
    );
  });

  it('asks for the code after the password, signs in with a current code, and refuses it twice', async () => {
    const email = 'ops@fieldlink.test';
    const { secret } = await enrol(email);
    const passwordOnly = await signInWith(email);
    expect(passwordOnly.statusCode).toBe(401);
    expect(passwordOnly.json()).toMatchObject({
      mfaRequired: true,
      message: 'Enter the code from your authenticator app.',
    });
    expect(passwordOnly.json()).not.toHaveProperty('jwt');
    expect(passwordOnly.json()).not.toHaveProperty('sessionEnded');

    // The code that confirmed the enrolment was used there: its time step cannot sign in.
    expect((await signInWith(email, codeAt(secret))).statusCode).toBe(401);
    nextStep();
    const code = codeAt(secret);
    const signedIn = await signInWith(email, code.replace(/^(\d{3})/, '$1 '));
    expect(signedIn.statusCode).toBe(200);
    expect(typeof signedIn.json().jwt).toBe('string');

    // Replayed, even at once and in parallel: refused, and recorded.
    const replayed = await signInWith(email, code);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject({ mfaRequired: true });
    expect(replayed.json()).not.toHaveProperty('jwt');
    // A wrong password never reaches the code.
    const wrongPassword = await t.app.inject({
      method: 'POST',
      url: '/api/v1/signin',
      payload: { email, password: 'not the password', code },
    });
    expect(wrongPassword.json().message).toBe('Bad Login Info');

    forgetFailures();
    const racing = await Promise.all([1, 2, 3].map(() => signInWith(email, codeAt(secret))));
    expect(racing.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);

    const entries = await auditOf(email);
    const refusals = entries.filter((e) => e.action === 'session.signInRefused').map((e) => JSON.parse(e.after!));
    expect(refusals).toEqual(expect.arrayContaining([{ reason: 'codeRequired' }, { reason: 'wrongCode' }]));
    expect(entries.filter((e) => e.action === 'session.signIn').map((e) => e.after)).toContain(
      JSON.stringify({ secondFactor: 'totp' }),
    );
  });

  it('refuses a malformed code with 400, changing nothing but the audit trail', async () => {
    const email = 'water@fieldlink.test';
    await enrol(email);
    const before = await userRow(email);
    const codesBefore = await db()
      .selectFrom('mfa_recovery_codes')
      .selectAll()
      .where('user_id', '=', before.id)
      .execute();
    for (const code of ['12345', 'abc', '1234567', 'zzzz-zzzz-zzzz-zzz1']) {
      forgetFailures();
      const answer = await signInWith(email, code);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ mfaRequired: true });
      expect(answer.json().message).toMatch(/^That is not a code/);
    }
    expect(await userRow(email)).toEqual(before);
    expect(await db().selectFrom('mfa_recovery_codes').selectAll().where('user_id', '=', before.id).execute()).toEqual(
      codesBefore,
    );
    const refusals = (await auditOf(email)).filter((e) => e.action === 'session.signInRefused');
    expect(refusals.map((e) => JSON.parse(e.after!))).toEqual(Array(4).fill({ reason: 'malformedCode' }));
  });

  it('signs in once with each recovery code', async () => {
    const email = 'stock@fieldlink.test';
    const { recoveryCodes, token } = await enrol(email);
    const [first] = recoveryCodes;
    const signedIn = await signInWith(email, first!.toUpperCase());
    expect(signedIn.statusCode).toBe(200);
    expect((await signInWith(email, first)).statusCode).toBe(401);
    expect((await call('GET', '/user/mfa', token)).json()).toEqual({
      totp: true,
      recoveryCodesLeft: 9,
      required: false,
    });
    const entries = await auditOf(email);
    expect(entries.filter((e) => e.action === 'session.signIn').map((e) => e.after)).toContain(
      JSON.stringify({ secondFactor: 'recoveryCode' }),
    );
  });

  it('counts wrong codes against the sign-in limits, not the step that asks for a code', async () => {
    const email = 'moe@fieldlink.test';
    const { secret } = await enrol(email);
    for (let i = 0; i < 5; i += 1) expect((await signInWith(email)).statusCode).toBe(401);
    const wrong = String((Number(codeAt(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    // Three failures of one account and address are free; the fourth waits (SIGNIN_LIMITS).
    for (let i = 0; i < 3; i += 1) expect((await signInWith(email, wrong)).statusCode).toBe(401);
    const limited = await signInWith(email, codeAt(secret));
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).not.toHaveProperty('jwt');
    nextStep();
    expect((await signInWith(email, codeAt(secret))).statusCode).toBe(200);
  });

  it('turns off with a current code, after which the password alone signs in again', async () => {
    const email = 'spray@fieldlink.test';
    const { secret, token } = await enrol(email);
    const wrong = String((Number(codeAt(secret)) + 3) % 1_000_000).padStart(6, '0');
    expect((await call('DELETE', '/user/mfa/totp', token, { code: wrong })).statusCode).toBe(401);
    expect((await call('DELETE', '/user/mfa/totp', token, { code: 'x' })).statusCode).toBe(400);
    expect((await signInWith(email)).statusCode).toBe(401);
    nextStep();
    expect((await call('DELETE', '/user/mfa/totp', token, { code: codeAt(secret) })).statusCode).toBe(200);
    expect((await call('GET', '/user/mfa', token)).json()).toEqual({
      totp: false,
      recoveryCodesLeft: 0,
      required: false,
    });
    expect((await signInWith(email)).statusCode).toBe(200);
    const row = await userRow(email);
    expect([row.totp_secret, row.totp_last_step]).toEqual([null, null]);
    expect(await db().selectFrom('mfa_recovery_codes').selectAll().where('user_id', '=', row.id).execute()).toEqual([]);
    expect((await auditOf(email)).map((e) => e.action)).toContain('mfa.totpOff');
    expect((await call('DELETE', '/user/mfa/totp', token, { code: codeAt(secret) })).statusCode).toBe(409);
  });

  it('ends the other sessions when TOTP goes on or off, keeping the caller’s; a code opens a session', async () => {
    const email = 'prospect@fieldlink.test';
    const elsewhere = await signIn(t.app, email);
    const { secret, recoveryCodes, token } = await enrol(email);
    // Turned on from `token`: the session elsewhere is refused at once, the caller's goes on.
    expect((await call('GET', '/self', elsewhere)).statusCode).toBe(401);
    expect((await call('GET', '/self', token)).statusCode).toBe(200);

    nextStep();
    const byCode = await signInWith(email, codeAt(secret));
    expect(byCode.statusCode).toBe(200);
    const byRecoveryCode = await signInWith(email, recoveryCodes[0]);
    expect(byRecoveryCode.statusCode).toBe(200);
    const [totpJwt, recoveryJwt] = [byCode, byRecoveryCode].map((answer) => answer.json<{ jwt: string }>().jwt);
    const listed = await call('GET', '/sessions', token);
    expect(
      listed
        .json<{ sessions: { id: string }[] }>()
        .sessions.map((session) => session.id)
        .sort(),
    ).toEqual([token, totpJwt!, recoveryJwt!].map((jwt) => decodeJwt(jwt).jti).sort());

    // Turned off from the recovery code's session: the two others end.
    nextStep();
    expect((await call('DELETE', '/user/mfa/totp', recoveryJwt!, { code: codeAt(secret) })).statusCode).toBe(200);
    expect((await call('GET', '/self', token)).statusCode).toBe(401);
    expect((await call('GET', '/self', totpJwt!)).statusCode).toBe(401);
    expect((await call('GET', '/self', recoveryJwt!)).statusCode).toBe(200);
    const ended = (await auditOf(email)).filter((entry) => entry.action === 'session.endOthers');
    expect(ended.map((entry) => JSON.parse(entry.after!))).toEqual([
      { ended: 1, reason: 'secondFactorChanged' },
      { ended: 2, reason: 'secondFactorChanged' },
    ]);
  });

  it('refuses to confirm without an enrolment, and a confirm body with other fields', async () => {
    const token = await signIn(t.app, 'brew@fieldlink.test');
    expect((await call('POST', '/user/mfa/totp/confirm', token, { code: '123456' })).statusCode).toBe(409);
    expect((await call('POST', '/user/mfa/totp/confirm', token, { code: '123456', secret: 'A' })).statusCode).toBe(400);
    expect((await call('POST', '/user/mfa/totp', 'not-a-token')).statusCode).toBe(401);
  });
});
