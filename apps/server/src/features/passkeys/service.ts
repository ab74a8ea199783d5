import type { Kysely } from 'kysely';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticatorTransport,
  type VerifiedAuthenticationResponse,
  type VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import {
  PASSKEY_NAME_MESSAGE,
  PASSKEY_REFUSED_MESSAGE,
  PASSKEY_SETTINGS,
  SECOND_FACTOR_KEPT_MESSAGE,
  passkeyNameOf,
  secondFactorsAllowed,
} from '@fieldlink/domain/mfa';
import type {
  PasskeyAddAnswer,
  PasskeyAddBody,
  PasskeyAuthenticationCredential,
  PasskeyCreationOptions,
  PasskeyEntry,
  PasskeyListAnswer,
  PasskeyRequestOptions,
} from '@fieldlink/api/passkeys';
import type { JwtAnswer } from '@fieldlink/api/session';
import type { Database, PasskeysTable } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import { RateLimiter } from '../../security/rate-limit';
import { SIGNIN_LIMITED_MESSAGE, type SigninGuard } from '../../security/signin-guard';
import type { TokenService } from '../../security/tokens';
import { audit, byUser, type AuditOrigin } from '../audit/service';
import { completeEnrolmentSignIn } from '../mfa/enrolment-sign-in';
import { attachmentPointsOf } from '../session/repository';
import { requireCapability } from '../session/access';
import type { ClientOrigin, UserContext } from '../session/user-context';
import {
  deletePasskey,
  insertPasskey,
  passkeyCount,
  passkeyWithOwner,
  passkeysOf,
  recordPasskeyUse,
  storeChallenge,
  takeChallenge,
} from './repository';

/** Passwordless sign-in ceremonies one address may begin a minute: the challenge table stays small. */
const SIGNIN_OPTIONS_PER_MINUTE = 30;
/** The sign-in limits' account key of answers from passkeys nobody has. */
const UNKNOWN_PASSKEY_ACCOUNT = 'passkey:unknown';

/** The relying party: the host name of the server's public URL, and that URL's origin. */
function relyingPartyOf(publicUrl: string): { id: string; origin: string } {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin };
}

export interface PasskeyServiceOptions {
  db: Kysely<Database>;
  /** The name a browser shows when it makes a passkey (the product's name). */
  rpName: string;
  /** `PUBLIC_URL`: its host name is the relying party id, its origin the one a passkey answers from. */
  publicUrl: string;
  /** The sign-in limits, shared with `POST /signin`. */
  signinGuard: SigninGuard;
  tokens: TokenService;
  /** Whether an account of the user requires a second factor, and whether TOTP is on. */
  secondFactorsOf: (userId: string) => Promise<{ required: boolean; totp: boolean }>;
  /** Ends the user's other sessions, keeping the caller's: a change of the second factor. */
  endOtherSessions: (user: UserContext) => Promise<unknown>;
  now: () => number;
}

/** What a second-factor passkey came to. */
type PasskeyCheck = { passed: true; name: string } | { passed: false };

/**
 * Passkeys (issue 38 item 2): adding one (WebAuthn registration), listing and removing them, signing
 * in with one and no password (a discoverable credential), and one as the second factor after a
 * password. Every challenge is stored in the database, lives five minutes and is taken once; every
 * use and refusal is in the audit trail.
 */
export class PasskeyService {
  private readonly rp: { id: string; origin: string };
  private readonly signinOptionsByAddress: RateLimiter;

  constructor(private readonly options: PasskeyServiceOptions) {
    this.rp = relyingPartyOf(options.publicUrl);
    this.signinOptionsByAddress = new RateLimiter(SIGNIN_OPTIONS_PER_MINUTE, 60_000, options.now);
  }

  /**
   * The origins a passkey may answer from: the public URL's, and the page's own (`site`) when it is
   * on the relying party's host or below it (another port, a proxy's scheme). A page elsewhere (an IP
   * address, an internal name) cannot use passkeys made for the public host: refused with where to go.
   */
  private originsFor(site: string): string[] {
    let url: URL;
    try {
      url = new URL(site);
    } catch {
      url = new URL(this.rp.origin);
    }
    const { id, origin } = this.rp;
    if (url.hostname !== id && !url.hostname.endsWith(`.${id}`)) {
      throw new HttpError(
        409,
        `Passkeys work only at ${origin}, the address this server is set up with. Open Fieldlink there to use one.`,
      );
    }
    return url.origin === origin ? [origin] : [origin, url.origin];
  }

  /** `GET /user/passkeys`. */
  async list(user: UserContext): Promise<PasskeyListAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    return { passkeys: (await passkeysOf(this.options.db, user.id)).map(passkeyEntry) };
  }

  /** The number of passkeys a user has. */
  count(userId: string): Promise<number> {
    return passkeyCount(this.options.db, userId);
  }

  /** `POST /user/passkeys/options`: the start of adding a passkey; its challenge stored for five minutes. */
  async registrationOptions(user: UserContext, site: string): Promise<PasskeyCreationOptions> {
    requireCapability(user, 'manageOwnCredentials');
    this.originsFor(site);
    const { db, now } = this.options;
    const existing = await passkeysOf(db, user.id);
    if (existing.length >= PASSKEY_SETTINGS.maxPerUser) {
      throw new HttpError(
        409,
        `You have ${PASSKEY_SETTINGS.maxPerUser} passkeys, the most one person may keep. Remove one first.`,
      );
    }
    const options = await generateRegistrationOptions({
      rpName: this.options.rpName,
      rpID: this.rp.id,
      // The user handle is the user's random id: it names nobody.
      userID: new TextEncoder().encode(user.id),
      userName: user.email,
      userDisplayName: `${user.firstName} ${user.lastName}`.trim() || user.email,
      timeout: PASSKEY_SETTINGS.challengeTtlMs,
      attestationType: 'none',
      excludeCredentials: existing.map((row) => ({ id: row.id, transports: transportsOf(row) })),
      // A passkey: discoverable, so it can sign in without the e-mail or the password.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await storeChallenge(
      db,
      {
        challenge: options.challenge,
        purpose: 'register',
        userId: user.id,
        expiresAt: now() + PASSKEY_SETTINGS.challengeTtlMs,
      },
      now(),
    );
    return options as PasskeyCreationOptions;
  }

  /**
   * `POST /user/passkeys`: verifies the browser's answer to the stored challenge and keeps the passkey;
   * the user's other sessions end. With an enrol-only token, the sign-in it held back completes.
   */
  async add(user: UserContext, body: PasskeyAddBody, site: string): Promise<PasskeyAddAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    const name = passkeyNameOf(body.name);
    if (name === null) throw new HttpError(400, PASSKEY_NAME_MESSAGE);
    const expectedOrigin = this.originsFor(site);
    const { db, now } = this.options;
    let verified: VerifiedRegistrationResponse;
    try {
      verified = await verifyRegistrationResponse({
        response: body.credential as Parameters<typeof verifyRegistrationResponse>[0]['response'],
        expectedChallenge: (challenge) => takeChallenge(db, challenge, 'register', user.id, now()),
        expectedOrigin,
        expectedRPID: this.rp.id,
        requireUserVerification: false,
      });
    } catch {
      throw new HttpError(400, 'That passkey could not be added. Start again, and unlock it when asked.');
    }
    if (!verified.verified)
      throw new HttpError(400, 'That passkey could not be added. Start again, and unlock it when asked.');
    const { credential } = verified.registrationInfo;
    if (await passkeyWithOwner(db, credential.id)) throw new HttpError(409, 'This passkey is added already.');
    const row: PasskeysTable = {
      id: credential.id,
      user_id: user.id,
      name,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? body.credential.response.transports ?? []),
      created_at: now(),
      last_used_at: null,
    };
    await db.transaction().execute(async (trx) => {
      if ((await passkeysOf(trx, user.id)).length >= PASSKEY_SETTINGS.maxPerUser) {
        throw new HttpError(409, `You have ${PASSKEY_SETTINGS.maxPerUser} passkeys, the most one person may keep.`);
      }
      await insertPasskey(trx, row);
      // The public key is not secret but says nothing to a reader: the name and id are recorded.
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'mfa.passkeyAdd',
        target: { kind: 'user', id: user.id, name: user.email },
        after: { passkey: name, id: row.id },
        at: now(),
      });
    });
    await this.options.endOtherSessions(user);
    const passkey = passkeyEntry(row);
    if (!user.claims.enrolmentOnly) return { passkey };
    const jwt = await completeEnrolmentSignIn(db, this.options.tokens, user, {
      secondFactor: 'passkey',
      passkey: name,
    });
    return { passkey, jwt };
  }

  /**
   * `DELETE /user/passkeys?id=`: removes one of the caller's passkeys; other sessions end. The last
   * second factor of a user whose account requires one stays.
   */
  async remove(user: UserContext, id: string): Promise<void> {
    requireCapability(user, 'manageOwnCredentials');
    const { db, now } = this.options;
    const row = await passkeyWithOwner(db, id);
    if (!row || row.user_id !== user.id) throw notFound('No such passkey.');
    const { required, totp } = await this.options.secondFactorsOf(user.id);
    const left = (await passkeyCount(db, user.id)) - 1;
    if (!secondFactorsAllowed({ totp, passkeys: left }, required)) throw new HttpError(409, SECOND_FACTOR_KEPT_MESSAGE);
    await db.transaction().execute(async (trx) => {
      if (!(await deletePasskey(trx, user.id, id))) throw notFound('No such passkey.');
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'mfa.passkeyRemove',
        target: { kind: 'user', id: user.id, name: user.email },
        before: { passkey: row.name, id: row.id, createdAt: row.created_at, lastUsedAt: row.last_used_at },
        at: now(),
      });
    });
    await this.options.endOtherSessions(user);
  }

  /** `POST /signin/passkey/options`: a challenge any passkey of this site may answer (no e-mail asked). */
  async signInOptions(site: string, address: string): Promise<PasskeyRequestOptions> {
    this.originsFor(site);
    const key = `address:${address}`;
    if (!this.signinOptionsByAddress.reserve(key)) {
      throw new HttpError(429, SIGNIN_LIMITED_MESSAGE, {
        'retry-after': String(this.signinOptionsByAddress.retryAfterSeconds(key)),
      });
    }
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      userVerification: 'required',
      timeout: PASSKEY_SETTINGS.challengeTtlMs,
    });
    await this.store(options.challenge, 'signIn', null);
    return options as PasskeyRequestOptions;
  }

  /**
   * `POST /signin/passkey`: a sign-in with a passkey and no password. The passkey must have verified
   * its user (a PIN or a fingerprint): that and the device are two factors, so no account's rule asks
   * for more. Counted by the sign-in limits like a password; refusals and uses are recorded.
   */
  async signIn(credential: PasskeyAuthenticationCredential, site: string, origin: ClientOrigin): Promise<JwtAnswer> {
    const expectedOrigin = this.originsFor(site);
    const { db, now, signinGuard, tokens } = this.options;
    const row = await passkeyWithOwner(db, credential.id);
    const admission = signinGuard.admit(row?.email ?? UNKNOWN_PASSKEY_ACCOUNT, origin.address);
    if (!admission.admitted) {
      throw new HttpError(429, SIGNIN_LIMITED_MESSAGE, { 'retry-after': String(admission.retryAfterSeconds) });
    }
    const accountId = row ? ((await attachmentPointsOf(db, row.user_id))[0]?.account_id ?? null) : null;
    const by: AuditOrigin = {
      actor: { kind: 'user', id: row?.user_id ?? '', name: row?.email ?? '' },
      address: origin.address,
      client: origin.client,
    };
    const refuse = async (reason: 'unknownPasskey' | 'passkeyRefused') => {
      await audit.recordAlone(db, {
        accountId,
        by,
        action: 'session.signInRefused',
        after: { reason, ...(row ? { passkey: row.name } : {}) },
      });
      return new HttpError(401, PASSKEY_REFUSED_MESSAGE);
    };
    if (!row) {
      // The challenge is spent all the same: each is answered once, whatever the answer.
      await takeChallenge(db, challengeOf(credential), 'signIn', null, now());
      throw await refuse('unknownPasskey');
    }
    const used = await this.verifyUse(row, credential, expectedOrigin, 'signIn', null, true);
    if (!used) throw await refuse('passkeyRefused');
    admission.attempt.succeeded();
    const jwt = await tokens.issue(row.user_id, row.token_version, origin);
    await audit.recordAlone(db, { accountId, by, action: 'session.signIn', after: { passkey: row.name } });
    return { jwt };
  }

  /**
   * The options of a passkey as the second factor of a sign-in whose password was right: only the
   * user's own passkeys; null when the page is not on the relying party's host.
   */
  async secondFactorOptions(userId: string, site: string): Promise<PasskeyRequestOptions | null> {
    try {
      this.originsFor(site);
    } catch {
      return null;
    }
    const rows = await passkeysOf(this.options.db, userId);
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      userVerification: 'preferred',
      timeout: PASSKEY_SETTINGS.challengeTtlMs,
      allowCredentials: rows.map((row) => ({ id: row.id, transports: transportsOf(row) })),
    });
    await this.store(options.challenge, 'secondFactor', userId);
    return options as PasskeyRequestOptions;
  }

  /** A passkey's answer as the second factor of `userId`'s sign-in: passed when it verifies and is theirs. */
  async checkSecondFactor(
    userId: string,
    credential: PasskeyAuthenticationCredential,
    site: string,
  ): Promise<PasskeyCheck> {
    let expectedOrigin: string[];
    try {
      expectedOrigin = this.originsFor(site);
    } catch {
      return { passed: false };
    }
    const row = await passkeyWithOwner(this.options.db, credential.id);
    if (!row || row.user_id !== userId) {
      await takeChallenge(this.options.db, challengeOf(credential), 'secondFactor', userId, this.options.now());
      return { passed: false };
    }
    return (await this.verifyUse(row, credential, expectedOrigin, 'secondFactor', userId, false))
      ? { passed: true, name: row.name }
      : { passed: false };
  }

  private async store(challenge: string, purpose: 'signIn' | 'secondFactor', userId: string | null): Promise<void> {
    const at = this.options.now();
    await storeChallenge(
      this.options.db,
      { challenge, purpose, userId, expiresAt: at + PASSKEY_SETTINGS.challengeTtlMs },
      at,
    );
  }

  /**
   * Verifies an assertion of a known passkey against a stored challenge (taken once whatever the
   * outcome), the user handle when the authenticator gives one, and the counter; records the use.
   */
  private async verifyUse(
    row: PasskeysTable,
    credential: PasskeyAuthenticationCredential,
    expectedOrigin: string[],
    purpose: 'signIn' | 'secondFactor',
    userId: string | null,
    requireUserVerification: boolean,
  ): Promise<boolean> {
    const { db, now } = this.options;
    const handle = credential.response.userHandle;
    if (handle !== undefined && Buffer.from(handle, 'base64url').toString() !== row.user_id) {
      await takeChallenge(db, challengeOf(credential), purpose, userId, now());
      return false;
    }
    let verified: VerifiedAuthenticationResponse;
    try {
      verified = await verifyAuthenticationResponse({
        response: credential as Parameters<typeof verifyAuthenticationResponse>[0]['response'],
        expectedChallenge: (challenge) => takeChallenge(db, challenge, purpose, userId, now()),
        expectedOrigin,
        expectedRPID: this.rp.id,
        credential: {
          id: row.id,
          publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
          counter: row.counter,
          transports: transportsOf(row),
        },
        requireUserVerification,
      });
    } catch {
      // A bad signature, a spent or expired challenge, another origin, a counter that went back.
      await takeChallenge(db, challengeOf(credential), purpose, userId, now());
      return false;
    }
    if (!verified.verified) return false;
    return recordPasskeyUse(db, row.id, { before: row.counter, after: verified.authenticationInfo.newCounter }, now());
  }
}

/** The challenge a credential's client data answers, or '' when it cannot be read. */
function challengeOf(credential: PasskeyAuthenticationCredential): string {
  try {
    const data = JSON.parse(Buffer.from(credential.response.clientDataJSON, 'base64url').toString()) as {
      challenge?: unknown;
    };
    return typeof data.challenge === 'string' ? data.challenge : '';
  } catch {
    return '';
  }
}

function transportsOf(row: PasskeysTable): AuthenticatorTransport[] {
  return JSON.parse(row.transports) as AuthenticatorTransport[];
}

/** A stored passkey as the API answers it. */
function passkeyEntry(row: PasskeysTable): PasskeyEntry {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    transports: JSON.parse(row.transports) as string[],
  };
}
