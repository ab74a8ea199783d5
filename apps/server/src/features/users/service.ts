import { accountRootPath } from '../../db/account-paths';
import type { Kysely } from 'kysely';
import type {
  InviteUserAnswer,
  InviteUserBody,
  PutUserAnswer,
  PutUserBody,
  ReinviteUserBody,
  User,
  UserQuery,
} from '@fieldlink/api/users';
import { isPlaceholderGroup, type GroupKind } from '@fieldlink/domain/account-tree';
import { normaliseEmail } from '@fieldlink/domain/email';
import { isUnderPath } from '@fieldlink/domain/group-path';
import { can, canGrant, type ExtraFlag, type Permission } from '@fieldlink/domain/permissions';
import {
  INVITATION_TTL_MS,
  inviteRefusal,
  isStaleUserUpdate,
  userEditRefusal,
  type Refusal,
} from '@fieldlink/domain/user-rules';
import type { Database } from '../../db/schema';
import { HttpError, forbidden, notFound } from '../../http-errors';
import type { Mailer } from '../../mail/mailer';
import { hashSecret, newCode } from '../../security/secrets';
import { audit, byUser } from '../audit/service';
import { inScope, permissionSubject } from '../session/access';
import { attachmentPointsOf, findUserByEmail } from '../session/repository';
import type { UserContext } from '../session/user-context';
import { clockOf, toInvitedUser, toUser, userPermissions } from './mapper';
import {
  deleteInvitations,
  findGroupByPath,
  insertInvitation,
  pendingInvitationsOf,
  renewInvitation,
  thingNamesUnder,
  updateFirstAttachmentPermissions,
  updateUser,
} from './repository';
import { DEVICE_NOT_FOUND, GROUP_NOT_FOUND } from '@fieldlink/api/errors';

const USER_NOT_FOUND = 'User not found.';

export interface UserServiceOptions {
  db: Kysely<Database>;
  mailer: Mailer;
  publicUrl: string;
  /** Called when a user's permissions change, to close its real-time sockets (they reconnect afresh). */
  onAccessChanged?: (userId: string) => void;
}

function refuse(refusal: Refusal | null): void {
  if (refusal) throw new HttpError(refusal.status, refusal.message);
}

/** Reading and editing users, and inviting new ones (core §7 user calls), within the caller's scope. */
export class UserService {
  constructor(private readonly options: UserServiceOptions) {}

  /**
   * A user the caller may see: itself, or (with VIEW_ACCOUNTS) a user attached inside its scope.
   * Anyone else is "not found", whether they exist elsewhere or not.
   */
  private async visibleUser(caller: UserContext, rawEmail: string) {
    const email = normaliseEmail(rawEmail);
    const isSelf = email === caller.email;
    const row = await findUserByEmail(this.options.db, email);
    if (!row) throw notFound(USER_NOT_FOUND);
    const points = await attachmentPointsOf(this.options.db, row.id);
    const visiblePoints = isSelf ? points : points.filter((point) => inScope(caller, point.path));
    if (visiblePoints.length === 0) throw notFound(USER_NOT_FOUND);
    return { row, points, visiblePoints, isSelf };
  }

  async getUser(caller: UserContext, query: UserQuery): Promise<User> {
    const isSelf = normaliseEmail(query.email) === caller.email;
    if (!isSelf && !can(permissionSubject(caller), 'viewAccounts')) throw forbidden();
    const { row, points, visiblePoints } = await this.visibleUser(caller, query.email);
    // The account is the one whose tree shows the user: its own, or any account above it (a supplier's
    // tree holds its customers' accounts, at any depth), so a point counts when it lies in that tree.
    const rootPath = query.accountId ? await accountRootPath(this.options.db, query.accountId) : undefined;
    const shown = query.accountId
      ? visiblePoints.filter(
          (point) =>
            point.account_id === query.accountId || (rootPath !== undefined && isUnderPath(point.path, rootPath)),
        )
      : visiblePoints;
    if (shown.length === 0) throw notFound(USER_NOT_FOUND);
    return toUser(row, points, shown, isSelf);
  }

  /** `PUT /user`: see `userEditRefusal` for who may change what. */
  async putUser(caller: UserContext, body: PutUserBody): Promise<PutUserAnswer> {
    const editor = permissionSubject(caller);
    const isSelf = normaliseEmail(body.email) === caller.email;
    if (!isSelf && !can(editor, 'editUsers')) throw forbidden('You do not have permission to edit users.');
    const { row, points } = await this.visibleUser(caller, body.email);
    const current = { ...userPermissions(points), monitorOnly: row.monitor_only === 1 };
    refuse(userEditRefusal(editor, current, isSelf, body.props));
    const { db } = this.options;
    const { props } = body;

    const answer = (
      applied: boolean,
      latest: typeof row,
      permissions: { permissions: Permission[]; secretPermissions: ExtraFlag[] } = current,
    ): PutUserAnswer => ({
      email: latest.email,
      props: {
        firstName: latest.first_name,
        lastName: latest.last_name,
        theme: latest.theme,
        mutedDevices: JSON.parse(latest.muted_devices) as string[],
        ...permissions,
        monitorOnly: latest.monitor_only === 1,
        ...clockOf(latest),
      },
      latestUserUpdateId: latest.latest_user_update_id,
      applied,
    });
    if (isStaleUserUpdate(row.latest_user_update_id, body.updateId)) return answer(false, row);

    if (props.mutedDevices) {
      // A user mutes only devices it can see; any other thing name is as unknown as a missing one.
      const visible = await thingNamesUnder(
        db,
        props.mutedDevices,
        caller.attachmentPoints.map((point) => point.path),
      );
      if (visible.size !== props.mutedDevices.length) throw notFound(DEVICE_NOT_FOUND);
    }
    const changesPermissions = props.permissions !== undefined || props.secretPermissions !== undefined;
    const changesMonitorOnly = props.monitorOnly !== undefined && props.monitorOnly !== current.monitorOnly;
    const permissions = {
      permissions: props.permissions ?? current.permissions,
      secretPermissions: props.secretPermissions ?? current.secretPermissions,
    };
    await db.transaction().execute(async (trx) => {
      await updateUser(trx, row.id, {
        ...(props.firstName !== undefined && { first_name: props.firstName.trim() }),
        ...(props.lastName !== undefined && { last_name: props.lastName.trim() }),
        ...(props.theme !== undefined && { theme: props.theme }),
        ...(props.mutedDevices !== undefined && { muted_devices: JSON.stringify(props.mutedDevices) }),
        ...(body.updateId !== undefined && { latest_user_update_id: body.updateId }),
        ...(changesMonitorOnly && { monitor_only: props.monitorOnly ? 1 : 0 }),
        ...(props.timeZone !== undefined && { time_zone: props.timeZone }),
        ...(props.hourCycle !== undefined && { hour_cycle: props.hourCycle }),
        ...(props.dateOrder !== undefined && { date_order: props.dateOrder }),
      });
      const first = points[0];
      if (changesPermissions && first) {
        await updateFirstAttachmentPermissions(
          trx,
          first.id,
          JSON.stringify(permissions.permissions),
          JSON.stringify(permissions.secretPermissions),
        );
      }
      const changed = props;
      const before = {
        firstName: row.first_name,
        lastName: row.last_name,
        theme: row.theme,
        mutedDevices: JSON.parse(row.muted_devices) as string[],
        ...current,
      };
      await audit.record(trx, {
        accountId: first?.account_id ?? caller.attachmentPoints[0]?.accountId ?? null,
        by: byUser(caller),
        action: changesPermissions || changesMonitorOnly ? 'user.permissions' : 'user.update',
        target: { kind: 'user', id: row.id, name: row.email },
        before: Object.fromEntries(Object.keys(changed).map((key) => [key, before[key as keyof typeof before]])),
        after: changed,
      });
    });
    if (changesPermissions || changesMonitorOnly) this.options.onAccessChanged?.(row.id);
    const latest = (await findUserByEmail(db, row.email))!;
    return answer(true, latest, permissions);
  }

  /**
   * `POST /invite-user`: mails a sign-up link that attaches the new user at the group with these
   * permissions. An e-mail that is already a user in the caller's scope is refused; one that is a
   * user elsewhere is answered like any other, so an invitation reveals nothing of other accounts
   * (that person's sign-up then asks them to sign in instead).
   */
  async invite(caller: UserContext, body: InviteUserBody): Promise<InviteUserAnswer> {
    const grant = {
      permissions: body.permissions,
      secretPermissions: body.secretPermissions ?? [],
      monitorOnly: body.monitorOnly ?? false,
    };
    refuse(inviteRefusal(permissionSubject(caller), grant));
    const { db } = this.options;
    const group = await findGroupByPath(db, body.path);
    if (!group || !inScope(caller, group.path)) throw notFound(GROUP_NOT_FOUND);
    if (isPlaceholderGroup(group.kind as GroupKind)) {
      throw new HttpError(400, 'Users cannot be invited into New Devices or Trash.');
    }
    const email = normaliseEmail(body.email);
    const existing = await findUserByEmail(db, email);
    if (existing) {
      const points = await attachmentPointsOf(db, existing.id);
      if (points.some((point) => inScope(caller, point.path))) {
        throw new HttpError(409, 'This person already has a user in your account.');
      }
    }
    // A new invitation replaces the earlier ones this caller could see, so only one link works.
    const replaced = (await pendingInvitationsOf(db, email)).filter((invitation) => inScope(caller, invitation.path));
    const code = newCode();
    const invitation = {
      code_hash: hashSecret(code),
      email,
      account_id: group.account_id,
      path: group.path,
      permissions: JSON.stringify(grant.permissions),
      secret_permissions: JSON.stringify(grant.secretPermissions),
      app_type: group.app_type,
      invited_by: caller.id,
      expires_at: Date.now() + INVITATION_TTL_MS,
      used_at: null,
      monitor_only: grant.monitorOnly ? 1 : 0,
    };
    await db.transaction().execute(async (trx) => {
      await deleteInvitations(
        trx,
        replaced.map((old) => old.code_hash),
      );
      await insertInvitation(trx, invitation);
      await audit.record(trx, {
        accountId: group.account_id,
        by: byUser(caller),
        action: 'user.invite',
        target: { kind: 'invitation', id: email, name: email },
        after: { email, groupId: group.id, path: group.path, ...grant, expiresAt: invitation.expires_at },
      });
    });
    await this.mailInvitation(caller, email, code, group.name);
    return { user: toInvitedUser(invitation, group.id) };
  }

  /** `POST /reinvite-user`: a pending invitation in scope gets a new link and another week. */
  async reinvite(caller: UserContext, body: ReinviteUserBody): Promise<InviteUserAnswer> {
    const inviter = permissionSubject(caller);
    if (!can(inviter, 'inviteUsers')) throw forbidden('You do not have permission to invite users.');
    const email = normaliseEmail(body.email);
    const { db } = this.options;
    const [invitation] = (await pendingInvitationsOf(db, email)).filter((pending) => inScope(caller, pending.path));
    if (!invitation) throw notFound('No pending invitation for this e-mail.');
    const group = await findGroupByPath(db, invitation.path);
    if (!group) throw notFound('No pending invitation for this e-mail.');
    // Re-sending revives the invitation: only someone who could have granted it may do so.
    if (!canGrant(inviter, toInvitedUser(invitation, group.id))) {
      throw forbidden('You can grant only permissions you hold yourself.');
    }
    const code = newCode();
    const expiresAt = Date.now() + INVITATION_TTL_MS;
    await db.transaction().execute(async (trx) => {
      const renewed = await renewInvitation(trx, invitation.code_hash, hashSecret(code), expiresAt);
      if (Number(renewed.numUpdatedRows) !== 1) throw notFound('No pending invitation for this e-mail.');
      await audit.record(trx, {
        accountId: group.account_id,
        by: byUser(caller),
        action: 'user.invite',
        target: { kind: 'invitation', id: email, name: email },
        before: { expiresAt: invitation.expires_at },
        after: { expiresAt, resent: true },
      });
    });
    await this.mailInvitation(caller, email, code, group.name);
    return { user: toInvitedUser({ ...invitation, expires_at: expiresAt }, group.id) };
  }

  private async mailInvitation(inviter: UserContext, email: string, code: string, groupName: string): Promise<void> {
    const link = `${this.options.publicUrl}/signup?email=${encodeURIComponent(email)}&code=${code}`;
    // Names go into a mail header: one line, whatever was typed at sign-up.
    const who = `${inviter.firstName} ${inviter.lastName}`.replace(/\s+/g, ' ').trim() || inviter.email;
    await this.options.mailer.send({
      to: email,
      subject: `${who} invited you to Fieldlink`,
      text:
        `${who} (${inviter.email}) invited you to join ${groupName} on Fieldlink, to watch and manage its connected devices.\n\n` +
        `To create your sign-in, open:\n${link}\n\n` +
        `The link works once, for seven days. If you did not expect this invitation, ignore this mail.`,
      link,
    });
  }
}
