import { useId, useMemo, useState, type ReactNode } from 'react';
import type { DeviceMessage, QueuedDeviceMessage } from '@fieldlink/api/device';
import { channelName, parseChannelCode } from '@fieldlink/domain/channels';
import { REGISTER_VALUE_RANGE } from '@fieldlink/domain/int16';
import {
  LOG_INTERVAL_SECONDS,
  UPLOAD_INTERVAL_MINUTES,
  controlState,
  draftError,
  isApplying,
  isSetpointCode,
  settingError,
  settingKey,
  settingValuesOfMessage,
  type DeviceSettingsState,
  type SettingValue,
} from '@fieldlink/domain/device-settings';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ChevronRightIcon, CloseIcon, ClockIcon } from '../../../components/ui/icons';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';
import { useDeviceSettings } from '../hooks/use-device-settings';
import { timeZones } from '../model/time-zones';
import './device-settings.css';
import { usePageClock } from '../../../lib/page-time-zone';

type Settings = ReturnType<typeof useDeviceSettings>;

/**
 * Device settings (application §2): channel names, upload and alarm flags, the upload and log
 * intervals, the time zone, setpoints and registers. Each control spins while its value is unknown or
 * still travelling to the device, shows its value (marked when changed or queued for an offline device), or
 * its error; a courtesy message follows each Apply.
 */
export function DeviceSettingsPanel({ deviceId, thingName }: { deviceId: string; thingName: string }) {
  const [open, setOpen] = useState(false);
  const settings = useDeviceSettings(deviceId, thingName);
  const bodyId = useId();
  const { state, unsentMessages } = settings;
  const changes = Object.keys(state.draft).length;

  return (
    <section className="device-settings fl-card" aria-label="Device settings" data-phase={state.phase}>
      <header className="device-settings__head">
        <button
          type="button"
          className="device-settings__toggle"
          aria-expanded={open}
          aria-controls={bodyId}
          onClick={() => setOpen((value) => !value)}
        >
          <ChevronRightIcon size={16} className="device-settings__chevron" />
          <h2>Device settings</h2>
        </button>
        <span className="device-settings__summary">
          {state.phase === 'notLoaded' ? (
            <span className="fl-muted">Reading settings…</span>
          ) : (
            <>
              {unsentMessages.length > 0 && (
                <Badge tone="warning">{unsentMessages.length} waiting for the device</Badge>
              )}
              {isApplying(state) && <Badge tone="info">Applying</Badge>}
              {changes > 0 && <Badge tone="neutral">{changes} unsaved</Badge>}
              {unsentMessages.length === 0 && !isApplying(state) && changes === 0 && (
                <span className="fl-muted">{summaryOf(state)}</span>
              )}
            </>
          )}
        </span>
      </header>
      {open && (
        <div id={bodyId} className="device-settings__body">
          <SettingsBody settings={settings} />
        </div>
      )}
    </section>
  );
}

function summaryOf(state: DeviceSettingsState): string {
  const upload = state.reported[settingKey.uploadInterval];
  const log = state.reported[settingKey.logInterval];
  const zone = state.reported[settingKey.timeZone];
  const parts = [
    upload !== undefined ? `uploads every ${upload} min` : null,
    log !== undefined ? `logs every ${log} s` : null,
    typeof zone === 'string' ? zone : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : 'Not reported yet';
}

function SettingsBody({ settings }: { settings: Settings }) {
  const { state, device, isConnected, applying } = settings;
  const refusals = {
    config: useDeviceActionRefusal('writeConfig'),
    register: useDeviceActionRefusal('writeRegister'),
    timeZone: useDeviceActionRefusal('timeDate'),
    setpoint: useDeviceActionRefusal('writeChannel'),
    read: useDeviceActionRefusal('readChannel'),
  };
  const channels = useMemo(() => channelCodes(state), [state]);
  const setpoints = useMemo(() => keysOf(state, 'setpoint:').sort(bySetpointNumber), [state]);
  const registers = useMemo(() => keysOf(state, 'register:').sort((a, b) => Number(a) - Number(b)), [state]);
  const invalid = draftError(state);
  const changes = Object.keys(state.draft).length;
  const zone =
    state.draft[settingKey.timeZone] ?? state.pending[settingKey.timeZone] ?? state.reported[settingKey.timeZone];
  const zones = useMemo(() => timeZones(typeof zone === 'string' ? zone : 'Etc/UTC'), [zone]);

  if (settings.deviceError) return <InlineAlert tone="error">{settings.deviceError}</InlineAlert>;
  if (state.phase === 'notLoaded' || !device) {
    return (
      <div className="device-settings__loading" role="status">
        <Spinner size={18} /> Reading the device’s settings…
      </div>
    );
  }
  const field = (key: string, label: string, input: Omit<FieldInputProps, 'value' | 'onChange'>) => (
    <SettingField key={key} settingKey={key} label={label} state={state} input={input} onChange={settings.edit} />
  );

  return (
    <>
      {refusals.config && <InlineAlert tone="info">You can see this device’s settings. {refusals.config}</InlineAlert>}
      {!isConnected && (
        <InlineAlert tone="warning">
          The device is offline. Changes you apply are queued and sent when it reconnects.
        </InlineAlert>
      )}
      {state.courtesy && (
        <div className={`device-settings__courtesy is-${state.courtesy.tone}`} data-testid="settings-courtesy">
          <InlineAlert tone={state.courtesy.tone}>{state.courtesy.text}</InlineAlert>
          <button
            type="button"
            className="fl-icon-button device-settings__dismiss"
            aria-label="Dismiss"
            onClick={settings.dismissCourtesy}
          >
            <CloseIcon size={15} />
          </button>
        </div>
      )}

      <div className="device-settings__grid">
        <SettingsGroup title="Reporting" hint="How often the device logs its channels and sends them.">
          {field(settingKey.uploadInterval, 'Upload interval (minutes)', {
            kind: 'number',
            min: UPLOAD_INTERVAL_MINUTES.min,
            max: UPLOAD_INTERVAL_MINUTES.max,
            refusal: refusals.config,
          })}
          {field(settingKey.logInterval, 'Log interval (seconds)', {
            kind: 'number',
            min: LOG_INTERVAL_SECONDS.min,
            max: LOG_INTERVAL_SECONDS.max,
            refusal: refusals.config,
          })}
          {field(settingKey.timeZone, 'Time zone', { kind: 'select', options: zones, refusal: refusals.timeZone })}
        </SettingsGroup>

        {setpoints.length > 0 && (
          <SettingsGroup title="Setpoints" hint="Targets the device controls to.">
            {setpoints.map((code) =>
              field(settingKey.setpoint(code), channelTitle(state, code), {
                kind: 'number',
                step: 'any',
                refusal: refusals.setpoint,
                onRead: refusals.read ? undefined : () => void settings.read(settingKey.setpoint(code), { code }),
              }),
            )}
          </SettingsGroup>
        )}
      </div>

      {channels.length > 0 && (
        <SettingsGroup
          title="Channels"
          hint="Names shown across the console; upload sends values to the cloud; alarm lets the channel raise alarms."
        >
          <div className="settings-channels" role="table" aria-label="Channel settings">
            <div className="settings-channels__row settings-channels__row--head" role="row">
              <span role="columnheader">Channel</span>
              <span role="columnheader">Name</span>
              <span role="columnheader">Upload</span>
              <span role="columnheader">Alarm</span>
            </div>
            {channels.map((code) => (
              <div key={code} className="settings-channels__row" role="row" data-testid={`settings-channel-${code}`}>
                <span role="cell" className="settings-channels__code">
                  <strong>{channelName(code)}</strong>
                  <code>{code}</code>
                </span>
                <span role="cell">
                  <SettingField
                    settingKey={settingKey.channel(code, 'name')}
                    label={`Name of ${code}`}
                    hideLabel
                    state={state}
                    input={{ kind: 'text', placeholder: channelName(code), refusal: refusals.config }}
                    onChange={settings.edit}
                  />
                </span>
                <span role="cell">
                  <SettingField
                    settingKey={settingKey.channel(code, 'upload')}
                    label={`Upload ${code}`}
                    hideLabel
                    state={state}
                    input={{ kind: 'toggle', refusal: refusals.config }}
                    onChange={settings.edit}
                  />
                </span>
                <span role="cell">
                  <SettingField
                    settingKey={settingKey.channel(code, 'alarm')}
                    label={`Alarm ${code}`}
                    hideLabel
                    state={state}
                    input={{ kind: 'toggle', refusal: refusals.config }}
                    onChange={settings.edit}
                  />
                </span>
              </div>
            ))}
          </div>
        </SettingsGroup>
      )}

      {registers.length > 0 && (
        <SettingsGroup
          title="Registers"
          hint="16-bit values the device keeps; negative numbers are written as their unsigned word."
        >
          <div className="device-settings__registers">
            {registers.map((register) =>
              field(settingKey.register(register), `Register ${register}`, {
                kind: 'number',
                min: REGISTER_VALUE_RANGE.min,
                max: REGISTER_VALUE_RANGE.max,
                refusal: refusals.register,
                onRead: refusals.read
                  ? undefined
                  : () => void settings.read(settingKey.register(register), { register: Number(register) }),
              }),
            )}
          </div>
        </SettingsGroup>
      )}

      {settings.unsentMessages.length > 0 && <UnsentMessages messages={settings.unsentMessages} />}

      <footer className="device-settings__actions">
        <span className="device-settings__status" role="status">
          {state.phase === 'reset'
            ? 'Changes discarded.'
            : invalid
              ? `Check ${labelOf(invalid.key)}: ${invalid.message}`
              : changes > 0
                ? `${changes} unsaved ${changes === 1 ? 'change' : 'changes'}`
                : ''}
        </span>
        <Button variant="ghost" onClick={settings.reset} disabled={changes === 0 || applying}>
          Discard changes
        </Button>
        <Button
          variant="primary"
          onClick={() => void settings.apply()}
          busy={applying}
          disabled={changes === 0 || invalid !== null || refusals.config !== null}
          title={refusals.config ?? undefined}
        >
          {applying ? 'Applying' : 'Apply'}
        </Button>
      </footer>
    </>
  );
}

function SettingsGroup({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  return (
    <fieldset className="device-settings__group">
      <legend>{title}</legend>
      <p className="device-settings__hint">{hint}</p>
      {children}
    </fieldset>
  );
}

interface FieldInputProps {
  kind: 'number' | 'text' | 'toggle' | 'select';
  min?: number;
  max?: number;
  step?: string;
  placeholder?: string;
  options?: readonly string[];
  /** Why the signed-in user may not change this setting: the control is disabled and says so. */
  refusal: string | null;
  /** Reads the value from the device now. */
  onRead?: () => void;
}

/** One setting's control in the state the domain gives it: spinning, value (changed, queued) or error. */
function SettingField({
  settingKey: key,
  label,
  hideLabel = false,
  state,
  input,
  onChange,
}: {
  settingKey: string;
  label: string;
  hideLabel?: boolean;
  state: DeviceSettingsState;
  input: FieldInputProps;
  onChange: (key: string, value: SettingValue) => void;
}) {
  const id = useId();
  const [left, setLeft] = useState(false);
  const control = controlState(state, key);
  const value = state.draft[key] ?? state.pending[key] ?? state.reported[key];
  const spinning = control.status === 'spinning';
  const invalid = control.status === 'value' && control.changed ? settingError(key, control.value) : null;
  const message = control.status === 'error' ? control.message : left ? invalid : null;
  const marker =
    control.status === 'value' && control.queued
      ? 'queued'
      : control.status === 'value' && control.changed
        ? 'changed'
        : null;
  const disabled = input.refusal !== null || (spinning && control.reason === 'applying');
  const common = {
    id,
    disabled,
    title: input.refusal ?? undefined,
    'aria-invalid': message ? true : undefined,
    'aria-describedby': message ? `${id}-message` : undefined,
    onBlur: () => setLeft(true),
  };

  let control_: ReactNode;
  switch (input.kind) {
    case 'toggle':
      control_ = (
        <input
          {...common}
          type="checkbox"
          className="device-settings__check"
          checked={value === true}
          onChange={(event) => onChange(key, event.target.checked)}
          aria-label={hideLabel ? label : undefined}
        />
      );
      break;
    case 'select':
      control_ = (
        <select
          {...common}
          className="fl-input"
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(key, event.target.value)}
        >
          {value === undefined && <option value="">Not reported</option>}
          {(input.options ?? []).map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    default:
      control_ = (
        <input
          {...common}
          className="fl-input"
          type={input.kind === 'number' ? 'number' : 'text'}
          inputMode={input.kind === 'number' ? 'decimal' : undefined}
          min={input.min}
          max={input.max}
          step={input.step ?? (input.kind === 'number' ? 1 : undefined)}
          placeholder={value === undefined && spinning ? 'Reading…' : input.placeholder}
          value={value === undefined ? '' : String(value)}
          aria-label={hideLabel ? label : undefined}
          onChange={(event) => {
            const text = event.target.value;
            const number = Number(text);
            onChange(key, input.kind === 'number' && text.trim() !== '' && Number.isFinite(number) ? number : text);
          }}
        />
      );
  }

  return (
    <div
      className={`setting-field is-${control.status}${marker ? ` is-${marker}` : ''}${hideLabel ? ' setting-field--bare' : ''}`}
      data-testid={`setting-${key}`}
      data-state={marker ?? control.status}
    >
      {!hideLabel && (
        <label className="setting-field__label" htmlFor={id}>
          {label}
        </label>
      )}
      <div className="setting-field__control">
        {control_}
        {spinning && (
          <Spinner size={15} label={control.reason === 'applying' ? `Applying ${label}` : `Reading ${label}`} />
        )}
        {marker === 'queued' && (
          <span className="setting-field__queued" title="Sent when the device reconnects">
            <ClockIcon size={13} /> Queued
          </span>
        )}
        {input.onRead && (
          <button
            type="button"
            className="setting-field__read"
            onClick={input.onRead}
            disabled={spinning && control.reason === 'applying'}
            aria-label={`Read ${label} from the device`}
          >
            Read
          </button>
        )}
      </div>
      {message && (
        <p id={`${id}-message`} className="setting-field__error" role="alert">
          {message}
        </p>
      )}
    </div>
  );
}

/** The messages still queued for the offline device (core §7 `unsentMessages`). */
function UnsentMessages({ messages }: { messages: readonly QueuedDeviceMessage[] }) {
  const clock = usePageClock();
  return (
    <section className="device-settings__unsent" aria-label="Waiting for the device" data-testid="unsent-messages">
      <h3>
        <ClockIcon size={15} /> Waiting for the device
      </h3>
      <p className="device-settings__hint">Sent in this order when the device reconnects; each expires after a week.</p>
      <ul>
        {messages.map((queued) => (
          <li key={queued.id}>
            <span>{describeMessage(queued.message)}</span>
            <span className="fl-muted">
              queued {formatDateTime(queued.createdAt, clock)} · expires {formatDateTime(queued.expiresAt, clock)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A queued message in words. */
function describeMessage(message: DeviceMessage): string {
  switch (message.cmd) {
    case 'writeConfig':
      return `Channel and interval settings: ${Object.keys(settingValuesOfMessage(message)).map(labelOf).join(', ')}`;
    case 'writeChannel':
      return `${isSetpointCode(message.code) ? 'Setpoint' : 'Channel'} ${message.code} to ${message.value}`;
    case 'writeRegister':
      return `Register ${message.register} to ${message.value}`;
    case 'timeDate':
      return `Time zone ${message.tzName}`;
    case 'refreshMetadata':
      return 'Send its configuration again';
    case 'system':
      return message.command;
  }
}

/** A setting key as a person reads it. */
function labelOf(key: string): string {
  if (key === settingKey.uploadInterval) return 'upload interval';
  if (key === settingKey.logInterval) return 'log interval';
  if (key === settingKey.timeZone) return 'time zone';
  const [kind, code, field] = key.split(':');
  if (kind === 'channel') return `${code} ${field}`;
  if (kind === 'setpoint') return `setpoint ${code}`;
  return `register ${code}`;
}

function keysOf(state: DeviceSettingsState, prefix: string): string[] {
  const keys = new Set(
    [...Object.keys(state.reported), ...Object.keys(state.pending)].filter((key) => key.startsWith(prefix)),
  );
  return [...keys].map((key) => key.slice(prefix.length));
}

function channelCodes(state: DeviceSettingsState): string[] {
  const codes = new Set(
    Object.keys(state.reported)
      .filter((key) => key.startsWith('channel:'))
      .map((key) => key.split(':')[1]!),
  );
  // In the order the device lists them.
  return [...codes];
}

const bySetpointNumber = (a: string, b: string) =>
  (parseChannelCode(a)?.number ?? 0) - (parseChannelCode(b)?.number ?? 0) || a.localeCompare(b);

function channelTitle(state: DeviceSettingsState, code: string): string {
  const name = state.reported[settingKey.channel(code, 'name')];
  return channelName(code, typeof name === 'string' ? name : null);
}
