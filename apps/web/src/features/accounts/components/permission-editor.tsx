import type { ExtraFlag, Permission, PermissionSubject } from '@fieldlink/domain/permissions';
import { LockIcon } from '../../../components/ui/icons';
import {
  FLAG_OPTIONS,
  OTHER_PERMISSIONS,
  PERMISSION_TREE,
  canOffer,
  optionLabel,
  toggleFlag,
  togglePermission,
  type Grant,
  type PermissionOption,
} from '../model/permission-options';

const NOT_HELD = 'You can grant only permissions you hold yourself.';
const MONITOR_ONLY_HINT = 'Sees every value and chart but operates nothing: setpoints, relays, sprays, calibration.';
const GRANTER_MONITOR_ONLY = 'You are monitor-only: the users you make are monitor-only too.';

function OptionRow({
  name,
  label,
  checked,
  disabled,
  locked,
  nested = false,
  compact,
  onChange,
}: {
  name: Permission | ExtraFlag;
  label: string;
  checked: boolean;
  disabled: boolean;
  locked: boolean;
  nested?: boolean;
  compact: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label
      className={`permission-row${nested ? ' permission-row--nested' : ''}${disabled ? ' is-disabled' : ''}`}
      title={locked ? NOT_HELD : compact ? name : undefined}
    >
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
        data-permission={name}
      />
      <span className="permission-row__label">{label}</span>
      {!compact && <code className="permission-row__code">{name}</code>}
      {locked && <LockIcon size={13} aria-label={NOT_HELD} />}
    </label>
  );
}

/**
 * The permission editor of the invite dialog and the user panel: the specification's top-level
 * list with each sub-permission under its parent (§6), then the other permissions and the extra
 * flags, after whether the user is monitor-only. Only what the granter holds can be ticked; ADMIN
 * includes everything.
 */
export function PermissionEditor({
  grant,
  granter,
  onChange,
  disabled = false,
  compact = false,
}: {
  grant: Grant;
  granter: PermissionSubject;
  onChange: (grant: Grant) => void;
  disabled?: boolean;
  /** Narrow places (the user panel): code names only as tooltips. */
  compact?: boolean;
}) {
  const admin = grant.permissions.includes('ADMIN');
  const permissionRow = (option: PermissionOption | Permission, nested = false) => {
    const name = typeof option === 'string' ? option : option.name;
    const offered = canOffer(granter, name);
    const implied = admin && name !== 'ADMIN';
    return (
      <OptionRow
        key={name}
        name={name}
        label={optionLabel(name)}
        nested={nested}
        compact={compact}
        checked={implied || grant.permissions.includes(name)}
        disabled={disabled || !offered || implied}
        locked={!offered}
        onChange={(on) => onChange(togglePermission(grant, name, on))}
      />
    );
  };

  return (
    <div className="permission-editor">
      <fieldset className="permission-group">
        <legend>Operating</legend>
        <label
          className={`permission-row${disabled || granter.monitorOnly ? ' is-disabled' : ''}`}
          title={granter.monitorOnly ? GRANTER_MONITOR_ONLY : undefined}
        >
          <input
            type="checkbox"
            checked={grant.monitorOnly}
            disabled={disabled || granter.monitorOnly === true}
            onChange={(event) => onChange({ ...grant, monitorOnly: event.target.checked })}
            data-permission="monitorOnly"
          />
          <span className="permission-row__label">Monitor only</span>
          {granter.monitorOnly && <LockIcon size={13} aria-label={GRANTER_MONITOR_ONLY} />}
        </label>
        <p className="permission-group__hint fl-muted">
          {granter.monitorOnly ? GRANTER_MONITOR_ONLY : MONITOR_ONLY_HINT}
        </p>
      </fieldset>
      <fieldset className="permission-group">
        <legend>Permissions</legend>
        {PERMISSION_TREE.map((option) => (
          <div key={option.name} className="permission-branch">
            {permissionRow(option)}
            {option.children.map((child) => permissionRow(child, true))}
          </div>
        ))}
      </fieldset>
      <fieldset className="permission-group">
        <legend>More</legend>
        {OTHER_PERMISSIONS.map((name) => permissionRow(name))}
      </fieldset>
      <fieldset className="permission-group">
        <legend>Extra flags</legend>
        {FLAG_OPTIONS.map((flag) => {
          const offered = canOffer(granter, flag);
          return (
            <OptionRow
              key={flag}
              name={flag}
              label={optionLabel(flag)}
              compact={compact}
              checked={admin || grant.secretPermissions.includes(flag)}
              disabled={disabled || !offered || admin}
              locked={!offered}
              onChange={(on) => onChange(toggleFlag(grant, flag, on))}
            />
          );
        })}
      </fieldset>
    </div>
  );
}
