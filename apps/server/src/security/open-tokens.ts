import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { TokenClaims } from './tokens';

/** A token a real-time socket was opened with: its claims, and whether it is a personal API token. */
export interface HeldToken {
  claims: TokenClaims;
  apiToken: boolean;
}

/** Ids per query: far below either database's bound on parameters. */
const CHUNK = 500;

async function inChunks<T>(ids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  const rows: T[] = [];
  for (let start = 0; start < ids.length; start += CHUNK) rows.push(...(await read(ids.slice(start, start + CHUNK))));
  return rows;
}

/**
 * The ids (jti) of the tokens among `held` that would still be accepted at `now`: unexpired, their
 * session open (or, for a personal API token, the token not revoked), their owner still a user whose
 * token version has not moved on (password change). The same rules as `TokenService.verify` and
 * `ApiTokenVerifier.verify`, asked for many sockets at once and without the token itself.
 */
export async function openTokenIds(
  db: Kysely<Database>,
  held: readonly HeldToken[],
  now: number,
): Promise<Set<string>> {
  const live = held.filter((token) => token.claims.expiresAt > now);
  const sessionIds = [...new Set(live.filter((token) => !token.apiToken).map((token) => token.claims.jti))];
  const apiTokenIds = [...new Set(live.filter((token) => token.apiToken).map((token) => token.claims.jti))];
  const userIds = [...new Set(live.map((token) => token.claims.userId))];
  const [sessions, apiTokens, revoked, users] = await Promise.all([
    inChunks(sessionIds, (ids) =>
      db.selectFrom('sessions').select(['id', 'ended_at', 'expires_at']).where('id', 'in', ids).execute(),
    ),
    inChunks(apiTokenIds, (ids) =>
      db.selectFrom('api_tokens').select(['id', 'expires_at']).where('id', 'in', ids).execute(),
    ),
    inChunks(sessionIds, (ids) => db.selectFrom('revoked_tokens').select('jti').where('jti', 'in', ids).execute()),
    inChunks(userIds, (ids) => db.selectFrom('users').select(['id', 'token_version']).where('id', 'in', ids).execute()),
  ]);
  const session = new Map(sessions.map((row) => [row.id, row]));
  const apiToken = new Map(apiTokens.map((row) => [row.id, row]));
  const revokedIds = new Set(revoked.map((row) => row.jti));
  const version = new Map(users.map((row) => [row.id, row.token_version]));
  const open = new Set<string>();
  for (const { claims, apiToken: isApiToken } of live) {
    if (version.get(claims.userId) !== claims.tokenVersion) continue;
    if (isApiToken) {
      const row = apiToken.get(claims.jti);
      if (row && row.expires_at > now) open.add(claims.jti);
      continue;
    }
    const row = session.get(claims.jti);
    // A token of the release before sessions has no row: the revocation list decides, as at sign-in.
    if (row ? row.ended_at === null && row.expires_at > now : !revokedIds.has(claims.jti)) open.add(claims.jti);
  }
  return open;
}
