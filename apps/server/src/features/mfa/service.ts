import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import {
  CODE_REQUIRED_MESSAGE,
  ENROLMENT_REQUIRED_MESSAGE,
  ENROLMENT_TOKEN_TTL_SECONDS,
  MALFORMED_CODE_MESSAGE,
  PASSKEY_REFUSED_MESSAGE,
  PASSKEY_REQUIRED_MESSAGE,
  SECOND_FACTOR_KEPT_MESSAGE,
  RECOVERY_CODE_COUNT,
  TOTP_SETTINGS,
  WRONG_CODE_MESSAGE,
  parseSecondFactorCode,
  recoveryCodeFrom,
  secondFactorRequired,
  secondFactorsAllowed,
  secondStepOf,
  totpStep,
  type SecondFactorMethod,
} from '@fieldlink/domain/mfa';
import type { PasskeyAuthenticationCredential, PasskeyRequestOptions } from '@fieldlink/api/passkeys';
import { isUnderPath } from '@fieldlink/domain/group-path';
import type {
  AccountSecondFactorAnswer,
  AccountSecondFactorBody,
  MfaStatusAnswer,
  RecoveryCodesAnswer,
  TotpEnrolmentAnswer,
} from '@fieldlink/api/mfa';
import type { Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import type { SecretBox } from '../../security/secret-box';
import { hashSecret } from '../../security/secrets';
import { SIGNIN_LIMITED_MESSAGE, type SigninGuard } from '../../security/signin-guard';
import type { TokenService } from '../../security/tokens';
import { audit, byUser } from '../audit/service';
import { inScope, requireCapability } from '../session/access';
import type { UserContext } from '../session/user-context';
import type { PasskeyService } from '../passkeys/service';
import { completeEnrolmentSignIn } from './enrolment-sign-in';
import {
  accountRequirementOf,
  attachmentPathsOf,
  replaceRecoveryCodes,
  requiringRootPaths,
  takeRecoveryCode,
  takeTotpStep,
  totpOf,
  unusedRecoveryCodeCount,
} from './repository';

/** The answer of an account that is not in the caller's scope, or does not exist. */
const ACCOUNT_NOT_FOUND = 'Account not found.';

/** Why a sign-in's second factor was refused. */
type SecondFactorRefusalReason = 'codeRequired' | 'malformedCode' | 'wrongCode' | 'passkeyRefused';

/** What a sign-in's second factor came to. */
export type SecondFactorCheck =
  | { outcome: 'notNeeded' }
  | { outcome: 'enrolmentRequired' }
  | { outcome: 'passed'; method: 'totp' | 'recoveryCode' | 'passkey'; passkey?: string }
  | {
      outcome: 'refused';
      reason: SecondFactorRefusalReason;
      /** The second factors the user can prove, and a passkey ceremony's options when one is among them. */
      methods: SecondFactorMethod[];
      passkeyOptions: PasskeyRequestOptions | null;
    };

/**
 * The 4xx of a refused second factor: the console asks for a code or a passkey on `mfaRequired`,
 * offering what `secondFactors` names.
 */
export function secondFactorRefusal(check: Extract<SecondFactorCheck, { outcome: 'refused' }>): HttpError {
  const details = {
    mfaRequired: true,
    secondFactors: check.methods,
    ...(check.passkeyOptions ? { passkeyOptions: check.passkeyOptions } : {}),
  };
  if (check.reason === 'malformedCode') return new HttpError(400, MALFORMED_CODE_MESSAGE, {}, details);
  const message =
    check.reason === 'passkeyRefused'
      ? PASSKEY_REFUSED_MESSAGE
      : check.reason === 'wrongCode'
        ? WRONG_CODE_MESSAGE
        : check.methods.includes('totp')
          ? CODE_REQUIRED_MESSAGE
          : PASSKEY_REQUIRED_MESSAGE;
  return new HttpError(401, message, {}, details);
}

/** The 401 of a right password from a user who must set up a second factor first: an enrol-only token. */
export function enrolmentRefusal(enrolmentToken: string): HttpError {
  return new HttpError(401, ENROLMENT_REQUIRED_MESSAGE, {}, { mfaEnrolmentRequired: true, enrolmentToken });
}

export interface MfaServiceOptions {
  db: Kysely<Database>;
  /** Encrypts TOTP secrets at rest. */
  box: SecretBox;
  /** The issuer an authenticator app shows beside the code (the product's name). */
  issuer: string;
  /** The sign-in limits, shared with `POST /signin`: a code is guessed no faster than a password. */
  signinGuard: SigninGuard;
  /**
   * Ends the user's other sessions, keeping the caller's (issue 38 item 4): a change of the second
   * factor may answer a stolen session, so no other session outlives it.
   */
  endOtherSessions: (user: UserContext) => Promise<unknown>;
  /** Issues enrol-only tokens, and the session a completed enrolment signs in with. */
  tokens: TokenService;
  /** Passkeys: a second factor too, when the user has one. */
  passkeys: PasskeyService;
  now: () => number;
}

/**
 * A second factor (issue 38 item 2): TOTP enrolment, confirmation and removal, one-time recovery
 * codes, and the check of a code at sign-in. A code is accepted once: the last accepted time step
 * is remembered per user and a recovery code is marked used in the same statement that checks it.
 */
export class MfaService {
  constructor(private readonly options: MfaServiceOptions) {}

  async status(user: UserContext): Promise<MfaStatusAnswer> {
    // A signed-in session only: an API token manages no credential of its owner.
    requireCapability(user, 'manageOwnCredentials');
    const row = await totpOf(this.options.db, user.id);
    const on = row?.totp_secret != null;
    return {
      totp: on,
      recoveryCodesLeft: on ? await unusedRecoveryCodeCount(this.options.db, user.id) : 0,
      required: await this.requiredOf(user.id),
    };
  }

  /** True when an account of the user, or one above it, requires a second factor. */
  async requiredOf(userId: string): Promise<boolean> {
    const { db } = this.options;
    const [points, roots] = await Promise.all([attachmentPathsOf(db, userId), requiringRootPaths(db)]);
    return secondFactorRequired(points, roots);
  }

  /** An enrol-only token for a user who signed in with the right password but must set up a second factor. */
  enrolmentToken(user: { id: string; token_version: number }): Promise<string> {
    return this.options.tokens.issueEnrolment(user.id, user.token_version, ENROLMENT_TOKEN_TTL_SECONDS);
  }

  /** `GET /account/second-factor`: whether an account in the caller's scope requires a second factor. */
  async accountRequirement(user: UserContext, accountId: string): Promise<AccountSecondFactorAnswer> {
    requireCapability(user, 'requireSecondFactor');
    const account = await this.accountInScope(user, accountId);
    return this.requirementAnswer(account, await requiringRootPaths(this.options.db));
  }

  /**
   * `PUT /account/second-factor`: an administrator whose attachment point covers the whole account
   * requires a second factor of its users and its customers' users, or stops requiring it. Users
   * without one are led to set it up at their next sign-in; sessions already open go on.
   */
  async setAccountRequirement(user: UserContext, body: AccountSecondFactorBody): Promise<AccountSecondFactorAnswer> {
    requireCapability(user, 'requireSecondFactor');
    const { db, now } = this.options;
    const account = await this.accountInScope(user, body.accountId);
    const before = account.require_second_factor === 1;
    if (before !== body.required) {
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('accounts')
          .set({ require_second_factor: body.required ? 1 : 0 })
          .where('id', '=', account.id)
          .execute();
        await audit.record(trx, {
          accountId: account.id,
          by: byUser(user),
          action: 'account.secondFactorRequirement',
          target: { kind: 'account', id: account.id, name: account.name },
          before: { requireSecondFactor: before },
          after: { requireSecondFactor: body.required },
          at: now(),
        });
      });
    }
    const roots = await requiringRootPaths(db);
    return this.requirementAnswer({ ...account, require_second_factor: body.required ? 1 : 0 }, roots);
  }

  /** The account, when its whole tree lies under one of the caller's attachment points; else 404. */
  private async accountInScope(user: UserContext, accountId: string) {
    const account = await accountRequirementOf(this.options.db, accountId);
    if (!account || !inScope(user, account.path)) throw notFound(ACCOUNT_NOT_FOUND);
    return account;
  }

  private requirementAnswer(
    account: { id: string; require_second_factor: number; path: string },
    roots: readonly string[],
  ): AccountSecondFactorAnswer {
    return {
      accountId: account.id,
      required: account.require_second_factor === 1,
      requiredAbove: roots.some((root) => root !== account.path && isUnderPath(account.path, root)),
    };
  }

  /** `POST /user/mfa/totp`: a new secret, kept (encrypted) until its first code confirms it. */
  async startTotp(user: UserContext): Promise<TotpEnrolmentAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    const { db, box } = this.options;
    const row = await totpOf(db, user.id);
    if (row?.totp_secret != null) {
      throw new HttpError(409, 'Two-factor authentication is already on. Turn it off first to use another app.');
    }
    const secret = new Secret({ size: TOTP_SETTINGS.secretBytes });
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ totp_pending_secret: box.seal(secret.base32) })
        .where('id', '=', user.id)
        .execute();
      // The secret is never recorded: only that an enrolment began.
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'mfa.totpStart',
        target: { kind: 'user', id: user.id, name: user.email },
        at: this.options.now(),
      });
    });
    return { secret: secret.base32, url: this.totp(secret, user.email).toString() };
  }

  /**
   * `POST /user/mfa/totp/confirm`: the first code turns TOTP on and answers the recovery codes, once;
   * the user's other sessions end.
   */
  async confirmTotp(user: UserContext, typed: string): Promise<RecoveryCodesAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    const { db, box } = this.options;
    const code = parseSecondFactorCode(typed);
    if (code?.kind !== 'totp') throw new HttpError(400, 'Enter the 6 digits your authenticator app shows.');
    const row = await totpOf(db, user.id);
    if (row?.totp_secret != null) throw new HttpError(409, 'Two-factor authentication is already on.');
    if (!row?.totp_pending_secret) {
      throw new HttpError(409, 'Start the set-up first: there is no authenticator app waiting for a code.');
    }
    const pending = row.totp_pending_secret;
    const step = await this.limited(user, () => this.matchingStep(box.open(pending), code.code, user.email));
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, () => recoveryCodeFrom(randomBytes(16)));
    await db.transaction().execute(async (trx) => {
      const turnedOn = await trx
        .updateTable('users')
        .set({ totp_secret: pending, totp_pending_secret: null, totp_last_step: step })
        .where('id', '=', user.id)
        .where('totp_pending_secret', '=', pending)
        .where('totp_secret', 'is', null)
        .executeTakeFirst();
      if (Number(turnedOn.numUpdatedRows) !== 1) throw new HttpError(409, 'Two-factor authentication is already on.');
      await replaceRecoveryCodes(
        trx,
        user.id,
        recoveryCodes.map((c) => hashSecret(parseSecondFactorCode(c)!.code)),
      );
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'mfa.totpOn',
        target: { kind: 'user', id: user.id, name: user.email },
        before: { totp: false },
        after: { totp: true, recoveryCodes: RECOVERY_CODE_COUNT },
        at: this.options.now(),
      });
    });
    await this.options.endOtherSessions(user);
    if (!user.claims.enrolmentOnly) return { recoveryCodes };
    const jwt = await completeEnrolmentSignIn(db, this.options.tokens, user, { secondFactor: 'totp' });
    return { recoveryCodes, jwt };
  }

  /** `DELETE /user/mfa/totp`: a current code (or a recovery code) turns TOTP off; other sessions end. */
  async turnOffTotp(user: UserContext, typed: string): Promise<void> {
    requireCapability(user, 'manageOwnCredentials');
    const { db } = this.options;
    const row = await totpOf(db, user.id);
    const secret = row?.totp_secret;
    if (secret == null) throw new HttpError(409, 'Two-factor authentication is not on.');
    const code = parseSecondFactorCode(typed);
    if (!code) throw new HttpError(400, MALFORMED_CODE_MESSAGE);
    // Refused before the code is checked, so the code is not spent on a change that cannot happen.
    const passkeys = await this.options.passkeys.count(user.id);
    if (!secondFactorsAllowed({ totp: false, passkeys }, await this.requiredOf(user.id))) {
      throw new HttpError(409, SECOND_FACTOR_KEPT_MESSAGE);
    }
    await this.limited(user, () => this.consume(user.id, secret, code, user.email));
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ totp_secret: null, totp_pending_secret: null, totp_last_step: null })
        .where('id', '=', user.id)
        .execute();
      await replaceRecoveryCodes(trx, user.id, []);
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'mfa.totpOff',
        target: { kind: 'user', id: user.id, name: user.email },
        before: { totp: true },
        after: { totp: false },
        at: this.options.now(),
      });
    });
    await this.options.endOtherSessions(user);
  }

  /** Whether an account of the user requires a second factor, and whether TOTP is on. */
  async secondFactorsOf(userId: string): Promise<{ required: boolean; totp: boolean }> {
    const row = await totpOf(this.options.db, userId);
    return { required: await this.requiredOf(userId), totp: row?.totp_secret != null };
  }

  /**
   * The second factor of a sign-in whose password was right (`@fieldlink/domain/mfa` secondStepOf):
   * a TOTP code, a recovery code or a passkey's answer (`passkey`, made at the page `site`). A code
   * given to a user without a second factor is ignored: the password is all that user needs, unless
   * an account requires one, when the user must set it up before any session.
   */
  async checkSignIn(
    user: { id: string; email: string; totp_secret: string | null },
    typed: string | undefined,
    passkey: PasskeyAuthenticationCredential | undefined,
    site: string,
  ): Promise<SecondFactorCheck> {
    const { passkeys } = this.options;
    const totp = user.totp_secret !== null;
    const passkeyCount = await passkeys.count(user.id);
    // Asked only when it matters: a user with TOTP proves a second factor whatever the accounts say.
    const required = totp ? true : await this.requiredOf(user.id);
    const step = secondStepOf({ totp, passkeys: passkeyCount }, required);
    if (step.kind === 'none') return { outcome: 'notNeeded' };
    if (step.kind === 'enrol') return { outcome: 'enrolmentRequired' };
    const refused = async (reason: SecondFactorRefusalReason): Promise<SecondFactorCheck> => ({
      outcome: 'refused',
      reason,
      methods: step.methods,
      passkeyOptions: step.methods.includes('passkey') ? await passkeys.secondFactorOptions(user.id, site) : null,
    });
    if (passkey !== undefined && step.methods.includes('passkey')) {
      const check = await passkeys.checkSecondFactor(user.id, passkey, site);
      return check.passed ? { outcome: 'passed', method: 'passkey', passkey: check.name } : refused('passkeyRefused');
    }
    if (typed === undefined || user.totp_secret === null) return refused('codeRequired');
    const code = parseSecondFactorCode(typed);
    if (!code) return refused('malformedCode');
    const method = await this.consume(user.id, user.totp_secret, code, user.email);
    return method ? { outcome: 'passed', method } : refused('wrongCode');
  }

  /** Uses a code once: the TOTP step or the recovery code is taken, or null when wrong or used. */
  private async consume(
    userId: string,
    sealedSecret: string,
    code: NonNullable<ReturnType<typeof parseSecondFactorCode>>,
    email: string,
  ): Promise<'totp' | 'recoveryCode' | null> {
    const { db, box, now } = this.options;
    if (code.kind === 'recovery') {
      return (await takeRecoveryCode(db, userId, hashSecret(code.code), now())) ? 'recoveryCode' : null;
    }
    const step = this.matchingStep(box.open(sealedSecret), code.code, email);
    return step !== null && (await takeTotpStep(db, userId, step)) ? 'totp' : null;
  }

  /** The time step the code belongs to, within one step of now; null when it matches none. */
  private matchingStep(base32: string, code: string, email: string): number | null {
    const timestamp = this.options.now();
    const delta = this.totp(Secret.fromBase32(base32), email).validate({
      token: code,
      timestamp,
      window: TOTP_SETTINGS.window,
    });
    return delta === null ? null : totpStep(timestamp) + delta;
  }

  /**
   * Runs a code check of a signed-in user under the sign-in limits (per account and address): a wrong
   * code counts as a failed sign-in, a right one forgives the pair.
   */
  private async limited<T>(user: UserContext, check: () => T | Promise<T>): Promise<NonNullable<T>> {
    const admission = this.options.signinGuard.admit(user.email, user.origin?.address ?? 'unknown');
    if (!admission.admitted) {
      throw new HttpError(429, SIGNIN_LIMITED_MESSAGE, { 'retry-after': String(admission.retryAfterSeconds) });
    }
    let result: T;
    try {
      result = await check();
    } catch (error) {
      if (!(error instanceof HttpError)) admission.attempt.notEvaluated();
      throw error;
    }
    if (result === null || result === undefined) throw new HttpError(401, WRONG_CODE_MESSAGE);
    admission.attempt.succeeded();
    return result;
  }

  private totp(secret: Secret, email: string): TOTP {
    return new TOTP({
      issuer: this.options.issuer,
      label: email,
      algorithm: TOTP_SETTINGS.algorithm,
      digits: TOTP_SETTINGS.digits,
      period: TOTP_SETTINGS.periodSeconds,
      secret,
    });
  }
}
