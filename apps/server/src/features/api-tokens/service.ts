import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type {
  ApiTokenCreateAnswer,
  ApiTokenCreateBody,
  ApiTokenListAnswer,
  ApiTokenSummary,
} from '@fieldlink/api/api-tokens';
import { API_TOKEN_PREFIX, MAX_API_TOKENS_PER_USER, apiTokenExpiry } from '@fieldlink/domain/api-tokens';
import type { ApiTokensTable, Database } from '../../db/schema';
import { HttpError, notFound } from '../../http-errors';
import { hashSecret, newId } from '../../security/secrets';
import { audit, byUser } from '../audit/service';
import { requireCapability } from '../session/access';
import type { UserContext } from '../session/user-context';
import { deleteToken, findOwnToken, insertToken, liveTokenCount, tokensOf } from './repository';

export interface ApiTokenServiceOptions {
  db: Kysely<Database>;
  now: () => number;
  /** Called when a token is revoked, to close the real-time sockets opened with it. */
  onRevoked: (tokenId: string) => void;
}

/** One row as the API shows it; never its hash. */
function toSummary(row: ApiTokensTable): ApiTokenSummary {
  return {
    id: row.id,
    name: row.name,
    readOnly: row.read_only === 1,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    lastUsedAddress: row.last_used_address,
  };
}

/**
 * A user's personal API tokens (issue 38 item 3): made, listed and revoked by the user themself from
 * a signed-in session (a token cannot manage tokens), each change in the audit trail of the user's
 * first account.
 */
export class ApiTokenService {
  constructor(private readonly options: ApiTokenServiceOptions) {}

  async create(user: UserContext, body: ApiTokenCreateBody): Promise<ApiTokenCreateAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    const { db } = this.options;
    const now = this.options.now();
    const expiry = apiTokenExpiry(body.expiresAt, now);
    if ('problem' in expiry) throw new HttpError(400, expiry.problem);
    if ((await liveTokenCount(db, user.id, now)) >= MAX_API_TOKENS_PER_USER) {
      throw new HttpError(
        409,
        `You have ${MAX_API_TOKENS_PER_USER} API tokens already. Revoke one you no longer use first.`,
      );
    }
    const token = API_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const row: ApiTokensTable = {
      id: newId(),
      user_id: user.id,
      name: body.name.trim(),
      token_hash: hashSecret(token),
      read_only: body.readOnly === true ? 1 : 0,
      created_at: now,
      expires_at: expiry.expiresAt,
      last_used_at: null,
      last_used_address: null,
    };
    await db.transaction().execute(async (trx) => {
      await insertToken(trx, row);
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'apiToken.create',
        target: { kind: 'apiToken', id: row.id, name: row.name },
        after: { name: row.name, readOnly: row.read_only === 1, expiresAt: row.expires_at },
        at: now,
      });
    });
    return { ...toSummary(row), token };
  }

  async list(user: UserContext): Promise<ApiTokenListAnswer> {
    requireCapability(user, 'manageOwnCredentials');
    return { tokens: (await tokensOf(this.options.db, user.id)).map(toSummary) };
  }

  /** Revokes one of the caller's tokens at once: its next call is refused, its sockets close. */
  async revoke(user: UserContext, id: string): Promise<void> {
    requireCapability(user, 'manageOwnCredentials');
    const { db } = this.options;
    const row = await findOwnToken(db, user.id, id);
    if (!row) throw notFound('No such API token.');
    await db.transaction().execute(async (trx) => {
      await deleteToken(trx, row.id);
      await audit.record(trx, {
        accountId: user.attachmentPoints[0]?.accountId ?? null,
        by: byUser(user),
        action: 'apiToken.revoke',
        target: { kind: 'apiToken', id: row.id, name: row.name },
        before: { name: row.name, readOnly: row.read_only === 1, expiresAt: row.expires_at },
        at: this.options.now(),
      });
    });
    this.options.onRevoked(row.id);
  }
}
