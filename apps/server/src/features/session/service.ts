import type { Kysely, Transaction } from 'kysely';
import { normaliseEmail } from '@fieldlink/domain/email';
import type { JwtAnswer, PasswordResetBody, SelfAnswer, SignupBody } from '@fieldlink/api/session';
import type { PasskeyAuthenticationCredential } from '@fieldlink/api/passkeys';
import type { EndOtherSessionsAnswer, SessionListAnswer } from '@fieldlink/api/sessions';
import { browserOf } from '@fieldlink/domain/sessions';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import type { Mailer } from '../../mail/mailer';
import {
  PasswordQueueFull,
  decoyPasswordHash,
  hashPassword,
  passwordGate,
  verifyPassword,
} from '../../security/passwords';
import { RateLimiter } from '../../security/rate-limit';
import { SIGNIN_LIMITED_MESSAGE, type SigninGuard } from '../../security/signin-guard';
import { hashSecret, newCode, newId } from '../../security/secrets';
import type { TokenService } from '../../security/tokens';
import { audit, byUser } from '../audit/service';
import { enrolmentRefusal, secondFactorRefusal, type MfaService } from '../mfa/service';
import {
  attachmentPointsOf,
  endSessions,
  findUserByEmail,
  insertAttachmentPoint,
  insertUser,
  openSessionsOf,
} from './repository';
import { requireCapability } from './access';
import { linkedAccountsOf, type ClientOrigin, type UserContext } from './user-context';

const MINUTE = 60_000;
const RESET_CODE_TTL_MS = 60 * MINUTE;

const SIGNUP_LIMITED = 'Too many sign-up attempts. Please try again later.';
const RESET_LIMITED = 'Too many password reset attempts. Please try again later.';

function tooMany(limiter: RateLimiter, key: string, message: string): HttpError {
  return new HttpError(429, message, { 'retry-after': String(limiter.retryAfterSeconds(key)) });
}

export interface SessionServiceOptions {
  db: Kysely<Database>;
  tokens: TokenService;
  mailer: Mailer;
  publicUrl: string;
  /** The second factor of users who have one (issue 38 item 2). */
  mfa: MfaService;
  /** The sign-in limits; shared with the second factor's own code checks. */
  signinGuard: SigninGuard;
  /** Called when a user's sessions end (password change), to close their sockets. */
  onSessionsEnded?: (userId: string) => void;
  /** Called when one token is signed out, to close the sockets opened with it. */
  onSignedOut?: (jti: string) => void;
  now?: () => number;
}

/** Sign-in, sign-up, password reset and the caller's own record. */
export class SessionService {
  // Failed sign-ins: slowed per account and address, stopped per address, an account guarded but
  // never locked against its owner (SECURITY.md 8 and 24, security/signin-guard.ts).
  private readonly signinGuard: SigninGuard;
  // Reset requests and attempts: 5 per account and 30 per address an hour.
  private readonly resetByAccount = new RateLimiter(5, 60 * MINUTE);
  private readonly resetByAddress = new RateLimiter(30, 60 * MINUTE);

  constructor(private readonly options: SessionServiceOptions) {
    this.signinGuard = options.signinGuard;
    // The decoy hash is made now, not by the first sign-in with an unknown e-mail: made there, it ran
    // inside the password gate and doubled that sign-in's hash, delaying everybody queued behind it.
    void decoyPasswordHash();
  }

  /**
   * `POST /signin`. A sign-in, and one refused for a wrong e-mail or password, is an entry of the
   * audit trail: in the user's first account, or the system chain for an e-mail nobody has. One
   * refused by the rate limits is not (it was never evaluated; the limits' counters show it).
   * A user with a second factor also sends `code`; without it the right password answers 401
   * `mfaRequired` (not counted against the limits, recorded), a wrong code counts like a wrong password.
   * A user whose account requires a second factor and who has none gets no session: the 401 says
   * `mfaEnrolmentRequired` and carries an enrol-only token (recorded, not counted).
   */
  async signIn(
    rawEmail: string,
    password: string,
    origin: ClientOrigin,
    secondFactor: { code?: string; passkey?: PasskeyAuthenticationCredential; site: string },
  ): Promise<JwtAnswer> {
    const { address } = origin;
    const email = normaliseEmail(rawEmail);
    const admission = this.signinGuard.admit(email, address);
    if (!admission.admitted) {
      throw new HttpError(429, SIGNIN_LIMITED_MESSAGE, { 'retry-after': String(admission.retryAfterSeconds) });
    }
    const { attempt } = admission;
    let user: Awaited<ReturnType<typeof findUserByEmail>>;
    let matches: boolean;
    try {
      // The lookup waits its turn too: a burst from one address is refused before it touches storage.
      [user, matches] = await passwordGate.run(address, async () => {
        const found = await findUserByEmail(this.options.db, email);
        return [found, await verifyPassword(password, found?.password_hash ?? (await decoyPasswordHash()))] as const;
      });
    } catch (error) {
      // Not evaluated (too many waiting from this address, or storage failed): it does not count.
      attempt.notEvaluated();
      if (error instanceof PasswordQueueFull) throw new HttpError(429, SIGNIN_LIMITED_MESSAGE, { 'retry-after': '1' });
      throw error;
    }
    const accountId = user ? ((await attachmentPointsOf(this.options.db, user.id))[0]?.account_id ?? null) : null;
    const by = {
      actor: { kind: 'user' as const, id: user?.id ?? '', name: user?.email ?? email },
      address: origin.address,
      client: origin.client,
    };
    if (!user || !matches) {
      await audit.recordAlone(this.options.db, { accountId, by, action: 'session.signInRefused' });
      throw new HttpError(401, 'Bad Login Info');
    }
    const check = await this.options.mfa.checkSignIn(user, secondFactor.code, secondFactor.passkey, secondFactor.site);
    if (check.outcome === 'refused') {
      // Asking for the code is a step of a good sign-in, not a failure; a wrong or malformed code is,
      // and so is a passkey's answer that does not verify.
      if (check.reason === 'codeRequired') attempt.notEvaluated();
      const after = { reason: check.reason };
      await audit.recordAlone(this.options.db, { accountId, by, action: 'session.signInRefused', after });
      throw secondFactorRefusal(check);
    }
    if (check.outcome === 'enrolmentRequired') {
      // A right password, but no session until a second factor is set up: an enrol-only token.
      attempt.notEvaluated();
      const after = { reason: 'enrolmentRequired' };
      await audit.recordAlone(this.options.db, { accountId, by, action: 'session.signInRefused', after });
      throw enrolmentRefusal(await this.options.mfa.enrolmentToken(user));
    }
    // A good sign-in counts nowhere, and forgives its own address's mistakes on this account.
    attempt.succeeded();
    const jwt = await this.options.tokens.issue(user.id, user.token_version, origin);
    await audit.recordAlone(this.options.db, {
      accountId,
      by,
      action: 'session.signIn',
      ...(check.outcome === 'passed'
        ? { after: { secondFactor: check.method, ...(check.passkey === undefined ? {} : { passkey: check.passkey }) } }
        : {}),
    });
    return { jwt };
  }

  async signOut(user: UserContext): Promise<void> {
    // An API token is revoked by its owner (`DELETE /api-tokens`), not signed out.
    requireCapability(user, 'manageOwnCredentials');
    await this.options.tokens.revoke(user.claims);
    await audit.recordAlone(this.options.db, {
      accountId: user.attachmentPoints[0]?.accountId ?? null,
      by: byUser(user),
      action: 'session.signOut',
    });
    this.options.onSignedOut?.(user.claims.jti);
  }

  /** `GET /sessions`: the caller's open sessions, the one of this call marked. */
  async listSessions(user: UserContext): Promise<SessionListAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    const rows = await openSessionsOf(this.options.db, user.id, this.now());
    return {
      sessions: rows.map((row) => ({
        id: row.id,
        current: row.id === user.claims.jti,
        browser: browserOf(row.user_agent),
        userAgent: row.user_agent,
        address: row.address,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
      })),
    };
  }

  /** `DELETE /sessions?id=`: signs one of the caller's sessions out (the caller's own too). */
  async endSession(user: UserContext, id: string): Promise<void> {
    requireCapability(user, 'manageOwnCredentials');
    const now = this.now();
    const session = (await openSessionsOf(this.options.db, user.id, now)).find((row) => row.id === id);
    if (!session) throw notFound('No such session.');
    await this.options.db.transaction().execute(async (trx) => {
      await endSessions(trx, user.id, [session.id], now);
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'session.end',
        target: { kind: 'session', id: session.id, name: browserOf(session.user_agent) },
        before: { address: session.address, userAgent: session.user_agent, createdAt: session.created_at },
        at: now,
      });
    });
    this.options.onSignedOut?.(session.id);
  }

  /**
   * `DELETE /sessions/others`: signs every session of the caller out but this one. Also what turning
   * the second factor on or off does (`reason` in the audit entry): whoever held another session may
   * be the reason for the change.
   */
  async endOthers(user: UserContext, reason?: 'secondFactorChanged'): Promise<EndOtherSessionsAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    const ended = await this.endOtherSessions(user.id, user.claims.jti, async (trx, count) => {
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'session.endOthers',
        after: reason ? { ended: count, reason } : { ended: count },
      });
    });
    return { ended };
  }

  /**
   * Ends every open session of the user but `keepSessionId` (null: all of them) and closes their
   * sockets: what a password change, and a change of the second factor, do to the other sessions
   * (issue 38 item 4). `record` writes the caller's audit entry in the same transaction when any
   * session ended. Answers how many ended.
   */
  async endOtherSessions(
    userId: string,
    keepSessionId: string | null,
    record?: (trx: Transaction<Database>, count: number) => Promise<void>,
  ): Promise<number> {
    const now = this.now();
    const ids = (await openSessionsOf(this.options.db, userId, now))
      .map((row) => row.id)
      .filter((id) => id !== keepSessionId);
    if (ids.length === 0) return 0;
    await this.options.db.transaction().execute(async (trx) => {
      await endSessions(trx, userId, ids, now);
      await record?.(trx, ids.length);
    });
    for (const id of ids) this.options.onSignedOut?.(id);
    return ids.length;
  }

  self(user: UserContext): SelfAnswer {
    return {
      id: user.id,
      email: user.email,
      firstName: user.firstName,
      lastName: user.lastName,
      theme: user.theme,
      linkedAccounts: linkedAccountsOf(user),
      monitorOnly: user.monitorOnly,
      ...user.clock,
    };
  }

  /** Sign-up from an invitation: the mailed code names the account, place and permissions. */
  async signUp(body: SignupBody, address: string): Promise<JwtAnswer> {
    const email = normaliseEmail(body.email);
    const { db } = this.options;
    const invitation = await db
      .selectFrom('invitations')
      .selectAll()
      .where('code_hash', '=', hashSecret(body.code))
      .executeTakeFirst();
    if (
      !invitation ||
      invitation.email !== email ||
      invitation.used_at !== null ||
      invitation.expires_at < Date.now()
    ) {
      throw new HttpError(400, 'This invitation is not valid any more. Please ask for a new one.');
    }
    if (await findUserByEmail(db, email)) {
      throw new HttpError(409, 'An account with this e-mail already exists. Please sign in.');
    }
    const userId = newId();
    const passwordHash = await this.hashFor(body.password, address, SIGNUP_LIMITED);
    await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable('invitations')
        .set({ used_at: Date.now() })
        .where('code_hash', '=', invitation.code_hash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) !== 1) throw new HttpError(400, 'This invitation has already been used.');
      await insertUser(trx, {
        id: userId,
        email,
        password_hash: passwordHash,
        first_name: body.firstName.trim(),
        last_name: body.lastName.trim(),
        monitor_only: invitation.monitor_only,
      });
      await insertAttachmentPoint(trx, {
        id: newId(),
        user_id: userId,
        account_id: invitation.account_id,
        ordinal: 0,
        path: invitation.path,
        permissions: invitation.permissions,
        secret_permissions: invitation.secret_permissions,
        app_type: invitation.app_type,
      });
      await audit.record(trx, {
        accountId: invitation.account_id,
        by: { actor: { kind: 'user', id: userId, name: email }, address, client: null },
        action: 'session.signUp',
        target: { kind: 'user', id: userId, name: email },
        after: {
          path: invitation.path,
          permissions: JSON.parse(invitation.permissions) as unknown,
          secretPermissions: JSON.parse(invitation.secret_permissions) as unknown,
          monitorOnly: invitation.monitor_only === 1,
        },
      });
    });
    return { jwt: await this.options.tokens.issue(userId, 0, { address, userAgent: null }) };
  }

  /** Mails a reset link when the account exists; answers the same either way (no account discovery). */
  async requestPasswordReset(rawEmail: string, address: string): Promise<void> {
    const email = normaliseEmail(rawEmail);
    this.limitReset(email, address);
    const user = await findUserByEmail(this.options.db, email);
    if (!user) return;
    const code = newCode();
    await this.options.db
      .insertInto('password_resets')
      .values({
        code_hash: hashSecret(code),
        user_id: user.id,
        expires_at: Date.now() + RESET_CODE_TTL_MS,
        used_at: null,
      })
      .execute();
    const link = `${this.options.publicUrl}/reset-password?email=${encodeURIComponent(email)}&code=${code}`;
    await this.options.mailer.send({
      to: email,
      subject: 'Reset your Fieldlink password',
      text: `Someone asked to reset the password of your Fieldlink account.\n\nTo choose a new password, open:\n${link}\n\nThe link works once, for one hour. If you did not ask for it, ignore this mail.`,
      link,
    });
  }

  /** Sets a new password with a mailed code; every earlier session of the user ends. */
  async resetPassword(body: PasswordResetBody, address: string): Promise<JwtAnswer> {
    const email = normaliseEmail(body.email);
    this.limitReset(email, address);
    const { db } = this.options;
    const user = await findUserByEmail(db, email);
    const reset = user
      ? await db
          .selectFrom('password_resets')
          .selectAll()
          .where('code_hash', '=', hashSecret(body.code))
          .where('user_id', '=', user.id)
          .executeTakeFirst()
      : undefined;
    if (!user || !reset || reset.used_at !== null || reset.expires_at < Date.now()) {
      throw new HttpError(400, 'This reset link is not valid any more. Please ask for a new one.');
    }
    const passwordHash = await this.hashFor(body.password, address, RESET_LIMITED);
    const tokenVersion = user.token_version + 1;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('password_resets')
        .set({ used_at: Date.now() })
        .where('code_hash', '=', reset.code_hash)
        .execute();
      await trx
        .updateTable('users')
        .set({ password_hash: passwordHash, token_version: tokenVersion })
        .where('id', '=', user.id)
        .execute();
      // The password itself is never recorded, nor its hash: only that it changed.
      await audit.record(trx, {
        accountId: (await attachmentPointsOf(trx, user.id))[0]?.account_id ?? null,
        by: { actor: { kind: 'user', id: user.id, name: user.email }, address, client: null },
        action: 'session.passwordReset',
        target: { kind: 'user', id: user.id, name: user.email },
        before: { tokenVersion: user.token_version },
        after: { tokenVersion },
      });
    });
    this.options.onSessionsEnded?.(user.id);
    const { token, sessionId } = await this.options.tokens.issueSession(user.id, tokenVersion, {
      address,
      userAgent: null,
    });
    // The new version already refuses every earlier token; ending their sessions shows it in the
    // user's list of sessions.
    await this.endOtherSessions(user.id, sessionId);
    return { jwt: token };
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  /** Hashes a caller's new password, fairly shared with other callers by address. */
  private async hashFor(password: string, address: string, message: string): Promise<string> {
    try {
      return await passwordGate.run(address, () => hashPassword(password));
    } catch (error) {
      if (error instanceof PasswordQueueFull) throw new HttpError(429, message, { 'retry-after': '1' });
      throw error;
    }
  }

  /**
   * Reserves one attempt on every limiter, all or none, before any costly work (SECURITY.md 8): the
   * first limiter used up answers 429 and nothing stays reserved.
   */
  private reserve(limits: readonly (readonly [RateLimiter, string])[], message: string): { release(): void } {
    const taken: (readonly [RateLimiter, string])[] = [];
    const release = () => {
      for (const [limiter, key] of taken) limiter.release(key);
    };
    for (const [limiter, key] of limits) {
      if (!limiter.reserve(key)) {
        release();
        throw tooMany(limiter, key, message);
      }
      taken.push([limiter, key]);
    }
    return { release };
  }

  private limitReset(email: string, address: string): void {
    this.reserve(
      [
        [this.resetByAccount, `account:${email}`],
        [this.resetByAddress, `address:${address}`],
      ],
      RESET_LIMITED,
    );
  }
}
