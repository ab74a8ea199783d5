import { useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import type { Account, GroupNode } from '@fieldlink/api/account';
import type { User } from '@fieldlink/api/users';
import { groupItemKind, renameGroupRefusal } from '@fieldlink/domain/account-tree';
import { can, heldFlags, heldPermissions, type PermissionSubject } from '@fieldlink/domain/permissions';
import { treeMenuEntries, type TreeMenuEntry } from '@fieldlink/domain/tree-menu';
import { isStaleUserAnswer, userEditRefusal } from '@fieldlink/domain/user-rules';
import { sceneRoute } from '@fieldlink/domain/widgets';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { MailIcon, PlusIcon, UploadIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { latestUserUpdateId } from '../../../lib/user-update-id';
import { useUser } from '../api/get-user';
import { useReinviteUserMutation } from '../api/post-reinvite-user';
import { usePutUserMutation } from '../api/put-user';
import { useRenameGroupMutation } from '../api/put-group';
import { optionLabel, type Grant } from '../model/permission-options';
import { deviceCountBelow, fullName, groupTrailOf, type TreeTarget } from '../model/tree-rows';
import { PermissionEditor } from './permission-editor';
import { SecondFactorRequirement } from './second-factor-requirement';
import { FolderPlusIcon, MoveIcon, PencilIcon, TrashIcon, TreeItemIcon, UserPlusIcon } from './tree-icons';

type Action = 'move' | 'delete' | 'addSubgroup' | 'invite' | 'addDevice' | 'importDevices';

export interface DetailPanelProps {
  /** The panel's element id, so the tree can bring it into view. */
  id?: string;
  accounts: readonly Account[];
  target: TreeTarget | null;
  subject: PermissionSubject;
  email: string;
  onAction: (action: Action, target: Extract<TreeTarget, { type: 'group' }>) => void;
  onSelect: (target: TreeTarget) => void;
}

const ACTIONS: Record<TreeMenuEntry, { action: Action; icon: ReactNode }> = {
  Move: { action: 'move', icon: <MoveIcon size={15} /> },
  Delete: { action: 'delete', icon: <TrashIcon size={15} /> },
  'Add Subgroup': { action: 'addSubgroup', icon: <FolderPlusIcon size={15} /> },
  'Invite User': { action: 'invite', icon: <UserPlusIcon size={15} /> },
  'Add Device': { action: 'addDevice', icon: <PlusIcon size={15} /> },
  'Import Devices': { action: 'importDevices', icon: <UploadIcon size={15} /> },
};

/** The right-hand panel: what is selected in the tree, to view and (where allowed) edit. */
export function DetailPanel(props: DetailPanelProps) {
  const { target } = props;
  return (
    <aside id={props.id} className="fl-card detail-panel" aria-label="Selected item" data-testid="detail-panel">
      {target === null && (
        <div className="detail-panel__empty">
          <TreeItemIcon kind="group" size={26} />
          <h2>Select an item</h2>
          <p className="fl-muted">
            Choose a group, device or user in the tree to see its details. For an item’s actions, use its ⋯ button,
            press and hold it, or press Shift+F10 on it.
          </p>
        </div>
      )}
      {target?.type === 'group' && <GroupPanel key={target.group.id} {...props} target={target} />}
      {target?.type === 'user' && (
        <UserPanel key={`${target.group.id}:${target.user.email}`} {...props} target={target} />
      )}
      {target?.type === 'device' && <DevicePanel {...props} target={target} />}
      {target?.type === 'scene' && <ScenePanel {...props} target={target} />}
      {target?.type === 'channel' && <ChannelPanel {...props} target={target} />}
    </aside>
  );
}

function Trail({ accounts, group }: { accounts: readonly Account[]; group: GroupNode }) {
  return (
    <div className="detail-panel__trail">
      {groupTrailOf(accounts, group.id).map((step, index) => (
        <span key={step.id}>
          {index > 0 && <span className="group-trail__sep">/</span>}
          {step.name}
        </span>
      ))}
    </div>
  );
}

function Header({
  kind,
  eyebrow,
  title,
  children,
}: {
  kind: Parameters<typeof TreeItemIcon>[0]['kind'];
  eyebrow: string;
  title: string;
  children?: ReactNode;
}) {
  return (
    <header className="detail-panel__header">
      <span className={`detail-panel__icon kind-icon tree-row--${kind}`}>
        <TreeItemIcon kind={kind} size={22} />
      </span>
      <div className="detail-panel__heading">
        <div className="detail-panel__eyebrow">{eyebrow}</div>
        <h2 className="detail-panel__title">{title}</h2>
        {children}
      </div>
    </header>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="detail-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The tree menu's entries as buttons, gated by the same §6 table. */
function MenuActions({
  kind,
  target,
  subject,
  onAction,
  extra,
}: {
  kind: Parameters<typeof treeMenuEntries>[0];
  target: Extract<TreeTarget, { type: 'group' }> | TreeTarget;
  subject: PermissionSubject;
  onAction: DetailPanelProps['onAction'];
  extra?: ReactNode;
}) {
  const entries = treeMenuEntries(kind, subject);
  if (entries.length === 0 && !extra) return null;
  return (
    <div className="detail-panel__actions">
      {extra}
      {entries.map((entry) => (
        <Button
          key={entry}
          size="sm"
          variant={entry === 'Delete' ? 'ghost' : 'secondary'}
          className={entry === 'Delete' ? 'detail-panel__delete' : undefined}
          onClick={() => onAction(ACTIONS[entry].action, target as Extract<TreeTarget, { type: 'group' }>)}
        >
          {ACTIONS[entry].icon}
          {entry}
        </Button>
      ))}
    </div>
  );
}

const GROUP_EYEBROWS = { root: 'Account', group: 'Group', new: 'New devices', trash: 'Trash' } as const;

function GroupPanel({
  accounts,
  subject,
  onAction,
  onSelect,
  target,
}: DetailPanelProps & { target: Extract<TreeTarget, { type: 'group' }> }) {
  const clock = usePageClock();
  const { group } = target;
  const rename = useRenameGroupMutation();
  const reinvite = useReinviteUserMutation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<{ name?: string }>({});
  const canRename = can(subject, 'editGroups') && renameGroupRefusal(group.kind) === null;
  const canInvite = can(subject, 'inviteUsers');
  const devices = deviceCountBelow(group);
  const online = group.devices.filter((device) => device.isConnected).length;

  const onApply = (event: FormEvent) => {
    event.preventDefault();
    // Rename only when the draft has a name; an empty draft just leaves edit mode (§4, §5).
    const name = draft.name?.trim();
    if (!name || name === group.name) {
      setEditing(false);
      setDraft({});
      return;
    }
    rename.mutate(
      { id: group.id, name },
      {
        onSuccess: () => {
          setEditing(false);
          setDraft({});
        },
        // A failed rename resets the applying flag (§8) and stays in edit mode.
        onError: (failure) => showToast('error', serverErrorMessage(failure)),
      },
    );
  };

  return (
    <div className="detail-panel__body">
      <Header kind={groupItemKind(group.kind)} eyebrow={GROUP_EYEBROWS[group.kind]} title={group.name}>
        <Trail accounts={accounts} group={group} />
      </Header>
      {editing ? (
        <form className="detail-panel__form" onSubmit={onApply}>
          <TextField
            label="Name"
            value={draft.name ?? group.name}
            maxLength={120}
            onChange={(event) => setDraft({ name: event.target.value })}
            autoFocus
          />
          <div className="detail-panel__form-actions">
            <Button type="button" onClick={() => (setEditing(false), setDraft({}))} disabled={rename.isPending}>
              Discard
            </Button>
            <Button type="submit" variant="primary" busy={rename.isPending}>
              {rename.isPending ? 'Applying' : 'Apply'}
            </Button>
          </div>
        </form>
      ) : (
        <MenuActions
          kind={groupItemKind(group.kind)}
          target={target}
          subject={subject}
          onAction={onAction}
          extra={
            canRename && (
              <Button size="sm" onClick={() => setEditing(true)}>
                <PencilIcon size={15} />
                Edit
              </Button>
            )
          }
        />
      )}
      <dl className="detail-facts">
        <Fact label="Devices, all levels">{devices.toLocaleString()}</Fact>
        {group.devices.length > 0 && (
          <Fact label="Online here">
            {online} of {group.devices.length}
          </Fact>
        )}
        <Fact label="Subgroups">{group.groups.length}</Fact>
        <Fact label="Users here">{group.fullUsers.length}</Fact>
        {group.scenes.length > 0 && (
          <Fact label="Dashboards">
            {can(subject, 'viewDashboard') ? (
              <Link to={sceneRoute(group.accountId, group.id)}>{group.scenes.length}</Link>
            ) : (
              group.scenes.length
            )}
          </Fact>
        )}
      </dl>
      {group.kind === 'root' && can(subject, 'requireSecondFactor') && (
        <SecondFactorRequirement accountId={group.accountId} accountName={group.name} />
      )}
      {group.fullUsers.length > 0 && (
        <section className="detail-section">
          <h3>Users</h3>
          <ul className="detail-list">
            {group.fullUsers.map((user) => (
              <li key={user.email}>
                <button
                  type="button"
                  className="detail-list__item"
                  onClick={() => onSelect({ type: 'user', user, group, account: target.account })}
                >
                  <span className={`detail-list__icon kind-icon tree-row--${user.itemKind ?? 'user'}`}>
                    <TreeItemIcon kind={user.itemKind ?? 'user'} size={16} />
                  </span>
                  <span className="detail-list__text">
                    <span>{fullName(user)}</span>
                    <span className="fl-muted">{user.email}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {canInvite && (group.invitations?.length ?? 0) > 0 && (
        <section className="detail-section">
          <h3>Invited, not signed up yet</h3>
          <ul className="detail-list">
            {group.invitations!.map((invitation) => {
              const expired = invitation.expiresAt < Date.now();
              return (
                <li key={invitation.email} className="detail-list__item detail-list__item--static">
                  <span className="detail-list__icon">
                    <MailIcon size={16} />
                  </span>
                  <span className="detail-list__text">
                    <span>{invitation.email}</span>
                    <span className="fl-muted">
                      {' '}
                      {expired ? 'Link expired' : `Link valid until ${formatDateTime(invitation.expiresAt, clock)}`}
                    </span>
                  </span>
                  <Button
                    size="sm"
                    variant="ghost"
                    busy={reinvite.isPending && reinvite.variables?.email === invitation.email}
                    onClick={() =>
                      reinvite.mutate(
                        { email: invitation.email },
                        {
                          onSuccess: () => showToast('success', `Invitation sent again to ${invitation.email}.`),
                          onError: (failure) => showToast('error', serverErrorMessage(failure)),
                        },
                      )
                    }
                  >
                    Resend
                  </Button>
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}

const USER_EYEBROWS = { adminUser: 'Administrator', alarmUser: 'Alarm responder', user: 'User' } as const;

function UserPanel({
  accounts,
  subject,
  email,
  onAction,
  target,
}: DetailPanelProps & { target: Extract<TreeTarget, { type: 'user' }> }) {
  const isSelf = target.user.email === email;
  const mayRead = isSelf || can(subject, 'viewAccounts');
  // The account of the group the user sits in: a supplier's tree holds its customers' accounts.
  const user = useUser(mayRead ? target.user.email : null, target.group.accountId);
  const kind = target.user.itemKind ?? 'user';
  const [editing, setEditing] = useState(false);

  return (
    <div className="detail-panel__body">
      <Header
        kind={kind}
        eyebrow={isSelf ? `${USER_EYEBROWS[kind]} · you` : USER_EYEBROWS[kind]}
        title={fullName(target.user)}
      >
        <div className="detail-panel__trail">{target.user.email}</div>
      </Header>
      {user.isPending && (
        <div className="detail-panel__loading">
          <Spinner /> Reading the user…
        </div>
      )}
      {user.error && <InlineAlert tone="error">{serverErrorMessage(user.error)}</InlineAlert>}
      {user.data &&
        (editing ? (
          <UserEditor user={user.data} subject={subject} onDone={() => setEditing(false)} />
        ) : (
          <UserView
            user={user.data}
            accounts={accounts}
            group={target.group}
            actions={
              <MenuActions
                kind={kind}
                target={target}
                subject={subject}
                onAction={onAction}
                extra={
                  (isSelf || userEditRefusal(subject, user.data, false, { lastName: user.data.lastName }) === null) && (
                    <Button size="sm" onClick={() => setEditing(true)}>
                      <PencilIcon size={15} />
                      Edit
                    </Button>
                  )
                }
              />
            }
          />
        ))}
    </div>
  );
}

function UserView({
  user,
  accounts,
  group,
  actions,
}: {
  user: User;
  accounts: readonly Account[];
  group: GroupNode;
  actions: ReactNode;
}) {
  const permissions = heldPermissions(user);
  const flags = heldFlags(user).filter((flag) => flag !== 'ADMIN');
  return (
    <>
      {actions}
      <dl className="detail-facts">
        <Fact label="Attached at">
          <Trail accounts={accounts} group={group} />
        </Fact>
        {user.isSelf && <Fact label="Muted devices">{user.mutedDevices.length}</Fact>}
      </dl>
      <section className="detail-section">
        <h3>Permissions</h3>
        {user.monitorOnly && (
          <p className="fl-muted" data-testid="user-monitor-only">
            Monitor only: sees every value and chart but operates nothing.
          </p>
        )}
        {permissions.length === 0 && flags.length === 0 ? (
          <p className="fl-muted">No permissions: this user can sign in but not open the console.</p>
        ) : (
          <div className="permission-chips">
            {(permissions.includes('ADMIN') ? (['ADMIN'] as const) : permissions).map((name) => (
              <Badge key={name} tone={name === 'ADMIN' ? 'info' : 'neutral'}>
                {optionLabel(name)}
              </Badge>
            ))}
            {!permissions.includes('ADMIN') &&
              flags.map((flag) => (
                <Badge key={flag} tone="warning">
                  {optionLabel(flag)}
                </Badge>
              ))}
          </div>
        )}
      </section>
    </>
  );
}

function UserEditor({ user, subject, onDone }: { user: User; subject: PermissionSubject; onDone: () => void }) {
  const save = usePutUserMutation();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [grant, setGrant] = useState<Grant>({
    permissions: user.permissions,
    secretPermissions: user.secretPermissions,
    monitorOnly: user.monitorOnly,
  });
  const [error, setError] = useState<string | null>(null);
  const editsPermissions = !user.isSelf;

  const onApply = (event: FormEvent) => {
    event.preventDefault();
    const props = {
      ...(firstName.trim() && firstName.trim() !== user.firstName && { firstName: firstName.trim() }),
      ...(lastName.trim() && lastName.trim() !== user.lastName && { lastName: lastName.trim() }),
      ...(editsPermissions &&
        (grant.permissions.join() !== user.permissions.join() ||
          grant.secretPermissions.join() !== user.secretPermissions.join()) && {
          permissions: grant.permissions,
          secretPermissions: grant.secretPermissions,
        }),
      ...(editsPermissions && grant.monitorOnly !== user.monitorOnly && { monitorOnly: grant.monitorOnly }),
    };
    // Apply with nothing changed just leaves edit mode (§4).
    if (Object.keys(props).length === 0) return onDone();
    setError(null);
    save.mutate(
      { email: user.email, props },
      {
        onSuccess: (answer) => {
          // An answer to an older update of this tab is stale and ignored (§4).
          if (isStaleUserAnswer(latestUserUpdateId(), answer.latestUserUpdateId)) return;
          onDone();
        },
        // A failed update resets the applying flag (§8); the message says why.
        onError: (failure) => setError(serverErrorMessage(failure)),
      },
    );
  };

  return (
    <form className="detail-panel__form" onSubmit={onApply}>
      <div className="detail-panel__form-row">
        <TextField label="First name" value={firstName} onChange={(event) => setFirstName(event.target.value)} />
        <TextField label="Last name" value={lastName} onChange={(event) => setLastName(event.target.value)} />
      </div>
      {editsPermissions && (
        <PermissionEditor grant={grant} granter={subject} onChange={setGrant} disabled={save.isPending} compact />
      )}
      {error && <InlineAlert tone="error">{error}</InlineAlert>}
      <div className="detail-panel__form-actions detail-panel__form-actions--sticky">
        <Button type="button" onClick={onDone} disabled={save.isPending}>
          Discard
        </Button>
        <Button type="submit" variant="primary" busy={save.isPending}>
          {save.isPending ? 'Applying' : 'Apply'}
        </Button>
      </div>
    </form>
  );
}

function DevicePanel({
  accounts,
  subject,
  onAction,
  target,
}: DetailPanelProps & { target: Extract<TreeTarget, { type: 'device' }> }) {
  const clock = usePageClock();
  const { device } = target;
  const kind = device.isConnected ? 'deviceConnected' : 'deviceDisconnected';
  return (
    <div className="detail-panel__body">
      <Header kind={kind} eyebrow="Device" title={device.name}>
        <Trail accounts={accounts} group={target.group} />
      </Header>
      <MenuActions
        kind={kind}
        target={target}
        subject={subject}
        onAction={onAction}
        extra={
          can(subject, 'viewDashboard') && (
            <Link
              className="fl-button fl-button--primary fl-button--sm"
              to={`/dash/${encodeURIComponent(device.thingName)}`}
            >
              Open dashboard
            </Link>
          )
        }
      />
      <dl className="detail-facts">
        <Fact label="Status">
          <Badge tone={device.isConnected ? 'success' : 'danger'} dot>
            {device.isConnected ? 'Online' : 'Offline'}
          </Badge>
        </Fact>
        <Fact label="Serial number">{device.sn ?? '—'}</Fact>
        <Fact label="Thing name">
          <code>{device.thingName}</code>
        </Fact>
        {device.isConnected && device.lastDisconnection !== null && (
          <Fact label="Last disconnection">{formatDateTime(device.lastDisconnection, clock)}</Fact>
        )}
        {!device.isConnected && device.lastConnection !== null && (
          <Fact label="Last connection">{formatDateTime(device.lastConnection, clock)}</Fact>
        )}
        <Fact label="Channels">{device.channels?.length ?? 0}</Fact>
      </dl>
    </div>
  );
}

function ScenePanel({
  accounts,
  subject,
  target,
}: DetailPanelProps & { target: Extract<TreeTarget, { type: 'scene' }> }) {
  const { scene, group } = target;
  return (
    <div className="detail-panel__body">
      <Header kind="scene" eyebrow="Dashboard" title={scene.name}>
        <Trail accounts={accounts} group={group} />
      </Header>
      {can(subject, 'viewDashboard') && (
        <div className="detail-panel__actions">
          <Link
            className="fl-button fl-button--primary fl-button--sm"
            to={sceneRoute(group.accountId, group.id, scene)}
          >
            Open dashboard
          </Link>
        </div>
      )}
    </div>
  );
}

function ChannelPanel({
  accounts,
  onSelect,
  target,
}: DetailPanelProps & { target: Extract<TreeTarget, { type: 'channel' }> }) {
  const { channel, device, group, account } = target;
  return (
    <div className="detail-panel__body">
      <Header kind="channel" eyebrow="Channel" title={channel.name ?? channel.code}>
        <Trail accounts={accounts} group={group} />
      </Header>
      <dl className="detail-facts">
        <Fact label="Code">
          <code>{channel.code}</code>
        </Fact>
        <Fact label="Device">
          <button
            type="button"
            className="detail-link"
            onClick={() => onSelect({ type: 'device', device, group, account })}
          >
            {device.name}
          </button>
        </Fact>
      </dl>
    </div>
  );
}
