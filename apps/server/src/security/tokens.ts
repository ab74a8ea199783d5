import { SignJWT, jwtVerify, errors } from 'jose';
import type { Kysely } from 'kysely';
import { LAST_USE_INTERVAL_MS, isLastUseDue } from '@fieldlink/domain/last-use';
import type { Database } from '../db/schema';
import { newId } from './secrets';

const ALGORITHM = 'HS256';
const ISSUER = 'fieldlink';
/** The `use` claim of an enrol-only token (issue 38 item 2); a session token has none. */
const ENROLMENT_USE = 'mfaEnrolment';

export interface TokenClaims {
  userId: string;
  jti: string;
  tokenVersion: number;
  expiresAt: number;
  /**
   * An enrol-only token (issue 38 item 2): it reads and sets up its user's second factor and does
   * nothing else. Only {@link TokenService.verifyEnrolment} answers such claims.
   */
  enrolmentOnly?: true;
}

/** Where a session was signed in from, as its row keeps it. */
export interface SessionOrigin {
  address: string | null;
  userAgent: string | null;
}

/**
 * Session tokens: JWTs signed with the installation's secret, one fixed algorithm (RFC 8725), with
 * expiry. Each is a row of `sessions` (its jti the row's id, issue 38 item 4), refused once that
 * session ended (sign-out, signed out from another session, a password change) or once the user's
 * token version moved. The session is read in the query that reads the token version, so the check
 * costs no extra round trip; its last sight is written at most once a minute.
 */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    private readonly db: Kysely<Database>,
    secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  /** Opens a session for the user and answers its token. */
  async issue(userId: string, tokenVersion: number, origin?: SessionOrigin): Promise<string> {
    return (await this.issueSession(userId, tokenVersion, origin)).token;
  }

  /** Opens a session for the user and answers its token and the session's id. */
  async issueSession(
    userId: string,
    tokenVersion: number,
    origin: SessionOrigin = { address: null, userAgent: null },
  ): Promise<{ token: string; sessionId: string }> {
    const id = newId();
    const now = this.now();
    await this.db
      .insertInto('sessions')
      .values({
        id,
        user_id: userId,
        user_agent: origin.userAgent,
        address: origin.address,
        created_at: now,
        last_seen_at: now,
        expires_at: now + this.ttlSeconds * 1000,
        ended_at: null,
      })
      .execute();
    const token = await new SignJWT({ tv: tokenVersion })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(userId)
      .setJti(id)
      .setIssuedAt(Math.floor(now / 1000))
      .setExpirationTime(Math.floor(now / 1000) + this.ttlSeconds)
      .sign(this.key);
    return { token, sessionId: id };
  }

  /**
   * An enrol-only token for a user whose account requires a second factor they have not set up: it
   * lives `ttlSeconds`, opens no session, and every call but the second factor's set-up refuses it.
   */
  async issueEnrolment(userId: string, tokenVersion: number, ttlSeconds: number): Promise<string> {
    const now = Math.floor(this.now() / 1000);
    return new SignJWT({ tv: tokenVersion, use: ENROLMENT_USE })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(userId)
      .setJti(newId())
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(this.key);
  }

  /**
   * An enrol-only token's claims when it is valid, unexpired, unrevoked (spent) and its version
   * current; null for anything else, a session token too.
   */
  async verifyEnrolment(token: string): Promise<TokenClaims | null> {
    const payload = await this.signedClaims(token);
    if (!payload || payload.use !== ENROLMENT_USE) return null;
    const { sub, jti, tv, exp } = payload;
    const [user, revoked] = await Promise.all([
      this.db.selectFrom('users').select('token_version').where('id', '=', sub).executeTakeFirst(),
      this.db.selectFrom('revoked_tokens').select('jti').where('jti', '=', jti).executeTakeFirst(),
    ]);
    if (!user || user.token_version !== tv || revoked) return null;
    return { userId: sub, jti, tokenVersion: tv, expiresAt: exp * 1000, enrolmentOnly: true };
  }

  /**
   * A session token's claims when it is valid, unexpired, its session open and its version current;
   * otherwise null (an enrol-only token too). A use from `address` is written down at most once a minute.
   */
  async verify(token: string, address: string | null = null): Promise<TokenClaims | null> {
    const payload = await this.signedClaims(token);
    // An enrol-only token has no session row: without this it would pass as a token of the release
    // before sessions, which the revocation list alone decides.
    if (!payload || payload.use !== undefined) return null;
    const { sub, jti, tv, exp } = payload;
    const row = await this.db
      .selectFrom('users')
      .leftJoin('sessions', (join) => join.onRef('sessions.user_id', '=', 'users.id').on('sessions.id', '=', jti))
      .select(['users.token_version', 'sessions.id as session_id', 'sessions.ended_at', 'sessions.last_seen_at'])
      .where('users.id', '=', sub)
      .executeTakeFirst();
    if (!row || row.token_version !== tv) return null;
    if (row.session_id === null) {
      // A token issued before sessions were kept (a release before issue 38, or an instance of it
      // during a rolling upgrade): the revocation list decides, until it expires.
      const revoked = await this.db
        .selectFrom('revoked_tokens')
        .select('jti')
        .where('jti', '=', jti)
        .executeTakeFirst();
      if (revoked) return null;
    } else {
      if (row.ended_at !== null) return null;
      await this.markSeen(jti, row.last_seen_at, address);
    }
    return { userId: sub, jti, tokenVersion: tv, expiresAt: exp * 1000 };
  }

  /**
   * The claims of a token this installation signed, unexpired, with a subject, id, version and
   * expiry; null for any other (a bad signature, a wrong algorithm or issuer, a missing claim).
   */
  private async signedClaims(
    token: string,
  ): Promise<{ sub: string; jti: string; tv: number; exp: number; use: unknown } | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        currentDate: new Date(this.now()),
      });
      const { sub, jti, tv, exp, use } = payload;
      if (typeof sub !== 'string' || typeof jti !== 'string' || typeof tv !== 'number' || typeof exp !== 'number')
        return null;
      return { sub, jti, tv, exp, use };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  /** Ends the token's session (sign-out), or spends an enrol-only token. */
  async revoke(claims: TokenClaims): Promise<void> {
    const now = this.now();
    await this.db
      .updateTable('sessions')
      .set({ ended_at: now })
      .where('id', '=', claims.jti)
      .where('ended_at', 'is', null)
      .execute();
    // Instances of the release before sessions read the revocation list: keep writing it for them.
    await this.db
      .insertInto('revoked_tokens')
      .values({ jti: claims.jti, expires_at: claims.expiresAt })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
    // Expired tokens are refused anyway: keep the revocation list short.
    await this.db.deleteFrom('revoked_tokens').where('expires_at', '<', now).execute();
  }

  private async markSeen(id: string, lastSeenAt: number | null, address: string | null): Promise<void> {
    const now = this.now();
    if (!isLastUseDue(lastSeenAt, now)) return;
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: now, ...(address !== null && { address }) })
      .where('id', '=', id)
      .where('last_seen_at', '<=', now - LAST_USE_INTERVAL_MS)
      .execute();
  }
}

/** The token of a request: the `authorization` header as the specification sends it, `Bearer ` accepted. */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const token = header.startsWith('Bearer ') ? header.slice(7) : header;
  return token.trim() || null;
}
