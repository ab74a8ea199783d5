import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { TokenService } from '../../security/tokens';
import { audit, byUser } from '../audit/service';
import type { UserContext } from '../session/user-context';

/**
 * Completes the sign-in an enrol-only token held back (issue 38 item 2): the password and now the
 * second factor just set up are proven, so the token is spent, a session opens and the audit trail
 * records the sign-in with `after` (which factor). Answers the session's token.
 */
export async function completeEnrolmentSignIn(
  db: Kysely<Database>,
  tokens: TokenService,
  user: UserContext,
  after: Record<string, unknown>,
): Promise<string> {
  await tokens.revoke(user.claims);
  const jwt = await tokens.issue(user.id, user.claims.tokenVersion, user.origin);
  await audit.recordAlone(db, {
    accountId: user.attachmentPoints[0]?.accountId ?? null,
    by: byUser(user),
    action: 'session.signIn',
    after: { ...after, enrolled: true },
  });
  return jwt;
}
