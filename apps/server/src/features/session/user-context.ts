import type { Kysely } from 'kysely';
import type { AttachmentPoint, LinkedAccount } from '@fieldlink/api/session';
import type { ExtraFlag, Permission } from '@fieldlink/domain/permissions';
import type { Database } from '../../db/schema';
import type { ApiTokenIdentity } from '../../security/api-tokens';
import type { TokenClaims } from '../../security/tokens';
import type { ClockPreferences } from '@fieldlink/domain/date-format';
import { clockOf } from '../users/mapper';
import { attachmentPointsOf, findUserById } from './repository';

/** Where a caller's request or socket came from, as the audit trail records it. */
export interface ClientOrigin {
  /** The client's address (the trusted proxy's word, SECURITY.md 22). */
  address: string;
  /** `http` or `realtime`, then the user agent where the client gave one. */
  client: string;
  /** The user agent alone (cut short), or null: what a session's row keeps (issue 38 item 4). */
  userAgent: string | null;
}

/** The user agent kept in the audit trail: enough to tell browsers and scripts apart. */
const MAX_AGENT_LENGTH = 200;

/** The origin of a request or socket: its address, channel and user agent. */
export function clientOrigin(
  address: string,
  channel: 'http' | 'realtime',
  userAgent: string | undefined,
): ClientOrigin {
  const agent = userAgent?.trim().slice(0, MAX_AGENT_LENGTH);
  return { address, client: agent ? `${channel}; ${agent}` : channel, userAgent: agent || null };
}

/** The signed-in caller of a request or socket, as every permission and scope check sees it. */
export interface UserContext {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  theme: string | null;
  claims: TokenClaims;
  /** Every attachment point, in order; permissions come from the first (specification §6). */
  attachmentPoints: (AttachmentPoint & { accountId: string })[];
  /** User variant of the first attachment point's account ("2": accounts-centred). */
  userVariant: string | null;
  /** Sees every value and chart but operates nothing (issue 35). */
  monitorOnly: boolean;
  /** The user's clock choices (issue 36 item 2). */
  clock: ClockPreferences;
  /** Where the request or socket came from; absent for callers made inside the server. */
  origin?: ClientOrigin;
  /**
   * The personal API token the caller used (issue 38 item 3), absent for a signed-in session: it
   * acts with at most its owner's rights, and the audit trail names it as the actor.
   */
  apiToken?: ApiTokenIdentity;
}

/** Loads the caller behind verified token claims; null when the user no longer exists. */
export async function loadUserContext(db: Kysely<Database>, claims: TokenClaims): Promise<UserContext | null> {
  const [user, points] = await Promise.all([findUserById(db, claims.userId), attachmentPointsOf(db, claims.userId)]);
  if (!user) return null;
  const firstAccountId = points[0]?.account_id;
  const account = firstAccountId
    ? await db.selectFrom('accounts').select('user_variant').where('id', '=', firstAccountId).executeTakeFirst()
    : undefined;
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    theme: user.theme,
    claims,
    attachmentPoints: points.map((point) => ({
      accountId: point.account_id,
      path: point.path,
      permissions: JSON.parse(point.permissions) as Permission[],
      secretPermissions: JSON.parse(point.secret_permissions) as ExtraFlag[],
      appType: point.app_type,
    })),
    userVariant: account?.user_variant ?? null,
    monitorOnly: user.monitor_only === 1,
    clock: clockOf(user),
  };
}

/**
 * What a user may see and do, as one string: their attachment points (places, permissions, app
 * types), their account's user variant and whether they only monitor. Two contexts of one user with
 * the same fingerprint authorise the same (the real-time sockets' access check).
 */
export function accessFingerprint(user: UserContext): string {
  return JSON.stringify([user.attachmentPoints, user.userVariant, user.monitorOnly]);
}

/** Each of these users' {@link accessFingerprint} as it stands now, by user id; a removed user is absent. */
export async function currentAccess(db: Kysely<Database>, held: readonly TokenClaims[]): Promise<Map<string, string>> {
  const claimsOf = new Map(held.map((claims) => [claims.userId, claims]));
  const access = new Map<string, string>();
  for (const [userId, claims] of claimsOf) {
    const user = await loadUserContext(db, claims);
    if (user) access.set(userId, accessFingerprint(user));
  }
  return access;
}

/** The caller's attachment points grouped by account, as `GET /self` answers them. */
export function linkedAccountsOf(user: UserContext): LinkedAccount[] {
  const byAccount = new Map<string, LinkedAccount>();
  for (const { accountId, ...point } of user.attachmentPoints) {
    const linked = byAccount.get(accountId) ?? { accountId, attachmentPoints: [] };
    linked.attachmentPoints.push(point);
    byAccount.set(accountId, linked);
  }
  return [...byAccount.values()];
}
