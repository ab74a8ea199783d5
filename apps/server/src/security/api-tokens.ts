import type { Kysely } from 'kysely';
import { isApiTokenShaped } from '@fieldlink/domain/api-tokens';
import { LAST_USE_INTERVAL_MS, isLastUseDue } from '@fieldlink/domain/last-use';
import type { Database } from '../db/schema';
import { hashSecret } from './secrets';
import type { TokenClaims } from './tokens';

/** The API token behind a call, as the caller's context carries it (audit actor, read-only rule). */
export interface ApiTokenIdentity {
  id: string;
  name: string;
  readOnly: boolean;
}

/**
 * Checks personal API tokens (issue 38 item 3) on every call that sends one: found by the SHA-256 of
 * the whole token, unexpired, its owner still a user. Its use is written down at most once a minute
 * (`isLastUseDue`), with a conditional update so two instances serving one integration write once.
 */
export class ApiTokenVerifier {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number,
  ) {}

  /** The token's owner as token claims (the jti is the token's id) and the token; null when not valid. */
  async verify(
    token: string,
    address: string | null,
  ): Promise<{ claims: TokenClaims; apiToken: ApiTokenIdentity } | null> {
    if (!isApiTokenShaped(token)) return null;
    const row = await this.db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .select([
        'api_tokens.id',
        'api_tokens.user_id',
        'api_tokens.name',
        'api_tokens.read_only',
        'api_tokens.expires_at',
        'api_tokens.last_used_at',
        'users.token_version',
      ])
      .where('api_tokens.token_hash', '=', hashSecret(token))
      .executeTakeFirst();
    const now = this.now();
    if (!row || row.expires_at <= now) return null;
    if (isLastUseDue(row.last_used_at, now)) {
      await this.db
        .updateTable('api_tokens')
        .set({ last_used_at: now, last_used_address: address })
        .where('id', '=', row.id)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', now - LAST_USE_INTERVAL_MS)]))
        .execute();
    }
    return {
      claims: { userId: row.user_id, jti: row.id, tokenVersion: row.token_version, expiresAt: row.expires_at },
      apiToken: { id: row.id, name: row.name, readOnly: row.read_only === 1 },
    };
  }
}
