import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { Account, GroupNode } from '@fieldlink/api/account';
import { groupItemKind, groupNameProblem, normaliseGroupName } from '@fieldlink/domain/account-tree';
import { normaliseEmail } from '@fieldlink/domain/email';
import type { PermissionSubject } from '@fieldlink/domain/permissions';
import { permissionsMissingParent } from '@fieldlink/domain/user-rules';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { SearchIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { TextField } from '../../../components/ui/text-field';
import { serverErrorMessage, serverMessageOr } from '../../../lib/api-client';
import { dispatchSession, showToast } from '../../../lib/app-store/app-store';
import { useDeleteGroupMutation } from '../api/delete-group';
import { useAddGroupMutation } from '../api/post-group';
import { useInviteUserMutation } from '../api/post-invite-user';
import { useMoveMutation } from '../api/post-move';
import { PATH_SEPARATOR, moveDestinations, movableType, sourceGroupOf, userMoveProblem } from '../model/move-targets';
import { emptyGrant, type Grant } from '../model/permission-options';
import {
  deviceCountBelow,
  groupKey,
  groupTrailOf,
  targetKey,
  userCountBelow,
  type TreeTarget,
} from '../model/tree-rows';
import { PermissionEditor } from './permission-editor';
import { TreeItemIcon } from './tree-icons';
import { VirtualRows } from './virtual-rows';

type GroupTarget = Extract<TreeTarget, { type: 'group' }>;

export type TreeDialog =
  | { type: 'move'; target: TreeTarget }
  | { type: 'delete' | 'addSubgroup' | 'invite' | 'addDevice' | 'importDevices'; target: GroupTarget };

/**
 * Adding devices is the devices feature's dialog; the app hands it in (features do not import each
 * other). `mode` is one device or a CSV import; the group is where the menu was opened.
 */
export type AddDevicesSlot = (
  place: { accountId: string; groupId: string; mode: 'one' | 'import' },
  onClose: () => void,
) => ReactNode;

export interface TreeDialogsProps {
  dialog: TreeDialog;
  accounts: readonly Account[];
  subject: PermissionSubject;
  email: string;
  onClose: () => void;
  /** Shows an item afterwards: its key and the group it is in. */
  onDone: (key: string, groupId: string) => void;
  addDevices?: AddDevicesSlot;
}

/** The dialog a tree menu entry opens. */
export function TreeDialogs(props: TreeDialogsProps) {
  const { dialog } = props;
  switch (dialog.type) {
    case 'move':
      return <MoveDialog {...props} target={dialog.target} />;
    case 'delete':
      return <DeleteGroupDialog {...props} target={dialog.target} />;
    case 'addSubgroup':
      return <AddSubgroupDialog {...props} target={dialog.target} />;
    case 'invite':
      return <InviteDialog {...props} target={dialog.target} />;
    case 'addDevice':
    case 'importDevices': {
      const { group } = dialog.target;
      return (
        props.addDevices?.(
          { accountId: group.accountId, groupId: group.id, mode: dialog.type === 'addDevice' ? 'one' : 'import' },
          props.onClose,
        ) ?? null
      );
    }
  }
}

function targetName(target: TreeTarget): string {
  switch (target.type) {
    case 'group':
      return target.group.name;
    case 'device':
      return target.device.name;
    case 'user':
      return `${target.user.firstName} ${target.user.lastName}`.trim() || target.user.email;
    case 'scene':
      return target.scene.name;
    case 'channel':
      return target.channel.name ?? target.channel.code;
  }
}

function Trail({ accounts, group }: { accounts: readonly Account[]; group: GroupNode }) {
  return (
    <span className="group-trail">
      {groupTrailOf(accounts, group.id).map((step, index) => (
        <span key={step.id}>
          {index > 0 && <span className="group-trail__sep">/</span>}
          {step.name}
        </span>
      ))}
    </span>
  );
}

// Two lines: the group's name, and its account and path.
const DESTINATION_ROW_HEIGHT = 50;

/** Move: choose the destination in the tree; groups that cannot take the item are shown, disabled. */
function MoveDialog({ accounts, subject, email, target, onClose, onDone }: TreeDialogsProps & { target: TreeTarget }) {
  const move = useMoveMutation();
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<string | null>(null);
  const destinations = useMemo(() => moveDestinations(accounts, target), [accounts, target]);
  const needle = filter.trim().toLowerCase();
  // The account's name and the groups above count too: "acme cold" is not needed, "acme" lists Acme's groups.
  const shown = needle
    ? destinations.filter((d) => d.path.join(PATH_SEPARATOR).toLowerCase().includes(needle))
    : destinations;
  const problem = userMoveProblem(target, subject, email);
  const source = sourceGroupOf(target);
  const type = movableType(target);
  const destination = destinations.find((d) => d.group.id === chosen && d.refusal === null) ?? null;
  const id =
    target.type === 'device'
      ? target.device.id
      : target.type === 'user'
        ? target.user.email
        : target.type === 'group'
          ? target.group.id
          : '';

  const onMove = () => {
    if (!destination || !source || !type) return;
    const to = destination.group;
    move.mutate(
      { type, id, sourceGroupId: source.id, destinationGroupId: to.id },
      {
        onSuccess: () => {
          showToast('success', `Moved ${targetName(target)} to ${to.name}.`);
          onDone(target.type === 'user' ? `user:${to.id}:${target.user.email}` : targetKey(target), to.id);
        },
        // Move failures are ignored (specification §8); the tree is read again and shows the truth.
        onSettled: onClose,
      },
    );
  };

  return (
    <Dialog
      title={`Move ${targetName(target)}`}
      description={
        source ? (
          <>
            Now in <Trail accounts={accounts} group={source} />. Choose where it goes.
          </>
        ) : undefined
      }
      size="lg"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" disabled={!destination || problem !== null} busy={move.isPending} onClick={onMove}>
            {destination ? `Move to ${destination.group.name}` : 'Move'}
          </Button>
        </>
      }
    >
      {problem && <InlineAlert tone="warning">{problem}</InlineAlert>}
      <div className="tree-search tree-search--compact">
        <SearchIcon size={16} />
        <input
          className="tree-search__input"
          type="search"
          placeholder="Find a group"
          aria-label="Find a group"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          data-autofocus
        />
      </div>
      <VirtualRows
        items={shown}
        rowHeight={DESTINATION_ROW_HEIGHT}
        className="move-destinations"
        containerProps={{ role: 'listbox', 'aria-label': 'Destination group' }}
        renderRow={(item, _index, top) => {
          const isChosen = item.group.id === chosen;
          return (
            <button
              key={item.group.id}
              type="button"
              role="option"
              aria-selected={isChosen}
              aria-disabled={item.refusal !== null}
              aria-label={`${item.path.join(PATH_SEPARATOR)}${item.refusal ? `, ${item.refusal}` : ''}`}
              title={item.refusal ?? undefined}
              className={`move-destination${isChosen ? ' is-chosen' : ''}${item.refusal ? ' is-refused' : ''}`}
              style={{ top, height: DESTINATION_ROW_HEIGHT, paddingLeft: 12 + (needle ? 0 : item.depth * 18) }}
              onClick={() => item.refusal === null && setChosen(item.group.id)}
            >
              <span className={`move-destination__icon kind-icon tree-row--${groupItemKind(item.group.kind)}`}>
                <TreeItemIcon kind={groupItemKind(item.group.kind)} size={16} />
              </span>
              <span className="move-destination__text">
                <span className="move-destination__name">{item.group.name}</span>
                <span className="move-destination__path">{item.path.join(PATH_SEPARATOR)}</span>
              </span>
              {item.refusal && <span className="move-destination__why">{item.refusal}</span>}
            </button>
          );
        }}
      />
      <p className="move-chosen" data-testid="move-chosen" aria-live="polite">
        {destination ? `Moves to ${destination.path.join(PATH_SEPARATOR)}` : 'No destination chosen yet.'}
      </p>
    </Dialog>
  );
}

/** Delete, with confirmation that says what becomes of the contents (docs/decisions.md). */
function DeleteGroupDialog({ target, onClose }: TreeDialogsProps & { target: GroupTarget }) {
  const remove = useDeleteGroupMutation();
  const [error, setError] = useState<string | null>(null);
  const { group } = target;
  const devices = deviceCountBelow(group);
  const users = userCountBelow(group);
  const subgroups = (function count(node: GroupNode): number {
    return node.groups.reduce((sum, child) => sum + 1 + count(child), 0);
  })(group);

  const onDelete = () => {
    setError(null);
    remove.mutate(
      { id: group.id },
      {
        onSuccess: (answer) => {
          const moved = answer.devicesMovedToTrash.length;
          showToast(
            'success',
            moved > 0
              ? `Deleted ${group.name}. ${moved} ${moved === 1 ? 'device was' : 'devices were'} moved to Trash.`
              : `Deleted ${group.name}.`,
          );
          onClose();
        },
        onError: (failure) => setError(serverErrorMessage(failure)),
      },
    );
  };

  return (
    <Dialog
      title={`Delete ${group.name}?`}
      tone="danger"
      size="sm"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={remove.isPending} disabled={users > 0} onClick={onDelete}>
            Delete group
          </Button>
        </>
      }
    >
      {users > 0 ? (
        <InlineAlert tone="warning">
          {users === 1 ? 'A user is' : `${users} users are`} attached in this group. Move them to another group first,
          so nobody loses access by surprise.
        </InlineAlert>
      ) : (
        <ul className="delete-summary">
          <li>
            {devices === 0
              ? 'It holds no devices.'
              : `${devices} ${devices === 1 ? 'device moves' : 'devices move'} to Trash, from where ${devices === 1 ? 'it' : 'they'} can be moved back.`}
          </li>
          {subgroups > 0 && (
            <li>{`${subgroups} ${subgroups === 1 ? 'subgroup is' : 'subgroups are'} deleted with it.`}</li>
          )}
          {(group.invitations?.length ?? 0) > 0 && <li>Its pending invitations are cancelled.</li>}
        </ul>
      )}
      {error && <InlineAlert tone="error">{error}</InlineAlert>}
    </Dialog>
  );
}

function AddSubgroupDialog({ accounts, target, onClose, onDone }: TreeDialogsProps & { target: GroupTarget }) {
  const add = useAddGroupMutation();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const problem = groupNameProblem(name);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    setError(null);
    add.mutate(
      { parentId: target.group.id, name: normaliseGroupName(name) },
      {
        onSuccess: (group) => {
          showToast('success', `Added ${group.name}.`);
          onDone(groupKey(group.id), group.id);
          onClose();
        },
        onError: (failure) => setError(serverErrorMessage(failure)),
      },
    );
  };

  return (
    <Dialog
      title="Add subgroup"
      description={
        <>
          Inside <Trail accounts={accounts} group={target.group} />
        </>
      }
      size="sm"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="add-subgroup" busy={add.isPending} disabled={problem !== null}>
            Add subgroup
          </Button>
        </>
      }
    >
      <form id="add-subgroup" onSubmit={onSubmit}>
        <TextField
          label="Group name"
          value={name}
          maxLength={120}
          onChange={(event) => setName(event.target.value)}
          placeholder="e.g. North Yard"
          autoFocus
          data-autofocus
        />
      </form>
      {error && <InlineAlert tone="error">{error}</InlineAlert>}
    </Dialog>
  );
}

function InviteDialog({ accounts, subject, target, onClose }: TreeDialogsProps & { target: GroupTarget }) {
  const invite = useInviteUserMutation();
  const [email, setEmail] = useState('');
  const [grant, setGrant] = useState<Grant>(() => emptyGrant(subject));
  const [error, setError] = useState<string | null>(null);
  const validEmail = /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim());
  const orphans = permissionsMissingParent(grant.permissions);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!validEmail) return;
    setError(null);
    const address = normaliseEmail(email);
    invite.mutate(
      {
        email: address,
        path: target.group.relativePath,
        permissions: grant.permissions,
        secretPermissions: grant.secretPermissions,
        monitorOnly: grant.monitorOnly,
      },
      {
        onSuccess: () => {
          showToast('success', `Invitation sent to ${address}.`);
          onClose();
        },
        // Invite failure shows the response error (specification §8).
        // §7: the failure sets the auth error from the answer (our API's `message`) and shows it.
        onError: (failure) => {
          const message = serverMessageOr(failure, 'The invitation could not be sent.');
          dispatchSession({ type: 'AUTH_ERROR', error: message });
          setError(message);
        },
      },
    );
  };

  return (
    <Dialog
      title="Invite user"
      description={
        <>
          They join at <Trail accounts={accounts} group={target.group} /> and see everything beneath it.
        </>
      }
      size="lg"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="primary"
            type="submit"
            form="invite-user"
            busy={invite.isPending}
            disabled={!validEmail || orphans.length > 0}
          >
            Send invitation
          </Button>
        </>
      }
    >
      <form id="invite-user" className="invite-form" onSubmit={onSubmit}>
        <TextField
          label="E-mail"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          placeholder="name@company.com"
          hint="We mail a sign-up link that works once, for seven days."
          autoFocus
          data-autofocus
        />
        <PermissionEditor grant={grant} granter={subject} onChange={setGrant} />
      </form>
      {grant.permissions.length === 0 && (
        <InlineAlert tone="info">
          Without View dashboards or View accounts the new user can sign in but not open the console.
        </InlineAlert>
      )}
      {error && <InlineAlert tone="error">{error}</InlineAlert>}
    </Dialog>
  );
}
