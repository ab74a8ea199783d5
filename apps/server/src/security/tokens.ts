import { SignJWT, jwtVerify, errors } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { newId } from './secrets';

const ALGORITHM = 'HS256';
const ISSUER = 'fieldlink';

export interface TokenClaims {
  userId: string;
  jti: string;
  tokenVersion: number;
  expiresAt: number;
}

/**
 * Session tokens: JWTs signed with the installation's secret, one fixed algorithm (RFC 8725), with
 * expiry; refused once revoked (sign-out) or once the user's token version moved (password change).
 */
export class TokenService {
  private readonly key: Uint8Array;

  constructor(
    private readonly db: Kysely<Database>,
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(userId: string, tokenVersion: number): Promise<string> {
    return new SignJWT({ tv: tokenVersion })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(userId)
      .setJti(newId())
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.key);
  }

  /** The token's claims when it is valid, unexpired, unrevoked and current; otherwise null. */
  async verify(token: string): Promise<TokenClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: [ALGORITHM], issuer: ISSUER });
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || typeof payload.tv !== 'number')
        return null;
      if (typeof payload.exp !== 'number') return null;
      const [revoked, user] = await Promise.all([
        this.db.selectFrom('revoked_tokens').select('jti').where('jti', '=', payload.jti).executeTakeFirst(),
        this.db.selectFrom('users').select('token_version').where('id', '=', payload.sub).executeTakeFirst(),
      ]);
      if (revoked || !user || user.token_version !== payload.tv) return null;
      return { userId: payload.sub, jti: payload.jti, tokenVersion: payload.tv, expiresAt: payload.exp * 1000 };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }

  async revoke(claims: TokenClaims): Promise<void> {
    await this.db
      .insertInto('revoked_tokens')
      .values({ jti: claims.jti, expires_at: claims.expiresAt })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
    // Expired tokens are refused anyway: keep the revocation list short.
    await this.db.deleteFrom('revoked_tokens').where('expires_at', '<', Date.now()).execute();
  }
}

/** The token of a request: the `authorization` header as the specification sends it, `Bearer ` accepted. */
export function tokenFromHeader(header: string | undefined): string | null {
  if (!header) return null;
  const token = header.startsWith('Bearer ') ? header.slice(7) : header;
  return token.trim() || null;
}
