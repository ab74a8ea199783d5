import { parseChannelCode } from './channels';
import { isRegisterValue, isUint16, REGISTER_VALUE_RANGE, toUnsigned16 } from './int16';
import { isKnownTimeZone } from './time-zone';

/**
 * Device settings (application §2 "Device settings", core §3 `settings`, §7 `POST /device-config`):
 * what a person may change on a device from the console, and the states of the settings screen.
 *
 * Settings are flat keys, one per control: `channel:{code}:name|upload|alarm`, `uploadInterval`
 * (minutes), `logInterval` (seconds), `setpoint:{code}`, `register:{n}`, `timeZone`. The screen holds
 * what the device last reported, the person's draft, the values applied and not yet reported back
 * (the pending flags), the errors, and a courtesy message after each Apply.
 */

/** Upload interval the console offers, minutes (the device's `uploadInterval`). */
export const UPLOAD_INTERVAL_MINUTES = { min: 1, max: 1440 } as const;
/** Log interval the console offers, seconds (the device's `logInterval`). */
export const LOG_INTERVAL_SECONDS = { min: 1, max: 86_400 } as const;
/** Longest channel name a device keeps (device protocol, `config` frames). */
export const CHANNEL_NAME_MAX_LENGTH = 64;
/** Most channels a device describes in its configuration (a `config` frame names at most this many). */
export const DEVICE_MAX_CHANNELS = 256;
/** Most channels one Apply may change. */
export const MAX_CHANNEL_SETTINGS = 64;

export type ChannelSettingField = 'name' | 'upload' | 'alarm';
export type SettingValue = string | number | boolean;
export type SettingValues = Readonly<Record<string, SettingValue>>;

/** The key of each control. */
export const settingKey = {
  channel: (code: string, field: ChannelSettingField) => `channel:${code}:${field}`,
  setpoint: (code: string) => `setpoint:${code}`,
  register: (register: number | string) => `register:${register}`,
  uploadInterval: 'uploadInterval',
  logInterval: 'logInterval',
  timeZone: 'timeZone',
} as const;

/** A setting key taken apart. */
export type ParsedSettingKey =
  | { kind: 'channel'; code: string; field: ChannelSettingField }
  | { kind: 'setpoint'; code: string }
  | { kind: 'register'; register: number }
  | { kind: 'uploadInterval' | 'logInterval' | 'timeZone' };

const CHANNEL_KEY_RE = /^channel:([a-z0-9-]+):(name|upload|alarm)$/;

/** Takes a setting key apart, or null when it names no setting. */
export function parseSettingKey(key: string): ParsedSettingKey | null {
  if (key === 'uploadInterval' || key === 'logInterval' || key === 'timeZone') return { kind: key };
  const channel = CHANNEL_KEY_RE.exec(key);
  if (channel) return { kind: 'channel', code: channel[1]!, field: channel[2] as ChannelSettingField };
  if (key.startsWith('setpoint:')) return { kind: 'setpoint', code: key.slice('setpoint:'.length) };
  const register = /^register:(0|[1-9][0-9]{0,4})$/.exec(key);
  if (register && isUint16(Number(register[1]))) return { kind: 'register', register: Number(register[1]) };
  return null;
}

/** True for a setpoint channel (`s` or `sp`): the channels whose value is a setting. */
export function isSetpointCode(code: string): boolean {
  const parsed = parseChannelCode(code);
  return parsed !== null && !parsed.expanded && (parsed.prefix === 's' || parsed.prefix === 'sp');
}

/** What a device reports about itself, as far as its settings go. */
export interface ReportedDevice {
  readonly channels: readonly { code: string; name?: string; upload?: boolean; alarm?: boolean }[];
  readonly uploadInterval: number | null;
  readonly logInterval: number | null;
  readonly registers: Readonly<Record<string, number>>;
  readonly timeDate: { readonly tzName: string } | null;
  /** Latest value per channel code: the setpoints' values come from here. */
  readonly latest: Readonly<Record<string, { readonly value: number } | undefined>>;
}

/**
 * The settings a device reports, one value per key. A channel that does not say otherwise uploads and
 * raises no alarm (the device protocol's defaults); a setpoint without a value yet has no key, so its
 * control waits for one.
 */
export function reportedSettings(device: ReportedDevice): Record<string, SettingValue> {
  const values: Record<string, SettingValue> = {};
  for (const channel of device.channels) {
    values[settingKey.channel(channel.code, 'name')] = channel.name ?? '';
    values[settingKey.channel(channel.code, 'upload')] = channel.upload ?? true;
    values[settingKey.channel(channel.code, 'alarm')] = channel.alarm ?? false;
  }
  for (const [code, latest] of Object.entries(device.latest)) {
    if (latest && isSetpointCode(code)) values[settingKey.setpoint(code)] = latest.value;
  }
  if (device.uploadInterval !== null) values[settingKey.uploadInterval] = device.uploadInterval;
  if (device.logInterval !== null) values[settingKey.logInterval] = device.logInterval;
  for (const [register, value] of Object.entries(device.registers)) values[settingKey.register(register)] = value;
  if (device.timeDate) values[settingKey.timeZone] = device.timeDate.tzName;
  return values;
}

/** Why a value cannot be applied to the setting, or null when it can. */
export function settingError(key: string, value: SettingValue): string | null {
  const parsed = parseSettingKey(key);
  if (!parsed) return 'No such setting.';
  switch (parsed.kind) {
    case 'channel':
      if (parsed.field !== 'name') return typeof value === 'boolean' ? null : 'Choose on or off.';
      return typeof value === 'string' && value.trim().length <= CHANNEL_NAME_MAX_LENGTH
        ? null
        : `A channel name has at most ${CHANNEL_NAME_MAX_LENGTH} characters.`;
    case 'uploadInterval':
      return wholeNumberIn(value, UPLOAD_INTERVAL_MINUTES, 'minutes');
    case 'logInterval':
      return wholeNumberIn(value, LOG_INTERVAL_SECONDS, 'seconds');
    case 'setpoint':
      return typeof value === 'number' && Number.isFinite(value) ? null : 'Enter a number.';
    case 'register':
      return typeof value === 'number' && isRegisterValue(value)
        ? null
        : `A register holds a whole number from ${REGISTER_VALUE_RANGE.min} to ${REGISTER_VALUE_RANGE.max}.`;
    case 'timeZone':
      return typeof value === 'string' && isKnownTimeZone(value) ? null : 'Choose a time zone.';
  }
}

function wholeNumberIn(value: SettingValue, range: { min: number; max: number }, unit: string): string | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= range.min && value <= range.max
    ? null
    : `Enter whole ${unit} from ${range.min} to ${range.max}.`;
}

/** Two values of one setting are the same: registers compare as 16-bit words (-2 is 65534). */
export function sameSettingValue(key: string, a: SettingValue | undefined, b: SettingValue | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (typeof a === 'number' && typeof b === 'number') {
    if (key.startsWith('register:') && isRegisterValue(a) && isRegisterValue(b)) return word(a) === word(b);
    return Math.abs(a - b) < 1e-9;
  }
  if (typeof a === 'string' && typeof b === 'string') return a.trim() === b.trim();
  return a === b;
}

const word = (value: number) => (value < 0 ? toUnsigned16(value) : value);

// ---- What an Apply sends ------------------------------------------------------------------------

/** One channel's changed settings. */
export interface ChannelSettings {
  code: string;
  name?: string;
  upload?: boolean;
  alarm?: boolean;
}

/** The `settings` of a `POST /device-config` (its schema is `DeviceSettings` in `packages/api`). */
export interface SettingsRequest {
  channels?: ChannelSettings[];
  uploadInterval?: number;
  logInterval?: number;
  setpoints?: Record<string, number>;
  registers?: Record<string, number>;
  timeDate?: { tzName: string; tzRule: string };
}

/** The device messages settings travel in (device protocol §6; `DeviceMessage` in `packages/api`). */
export type SettingsMessage =
  | { cmd: 'writeConfig'; channels?: ChannelSettings[]; uploadInterval?: number; logInterval?: number }
  | { cmd: 'writeChannel'; code: string; value: number }
  | { cmd: 'writeRegister'; register: number; value: number }
  | { cmd: 'timeDate'; tzName: string; tzRule: string };

/**
 * The messages a settings request becomes, in the order the device gets them: one `writeConfig` for
 * channels and intervals, then setpoints by code, registers by number, the time zone last.
 */
export function settingsMessages(request: SettingsRequest): SettingsMessage[] {
  const messages: SettingsMessage[] = [];
  const config: Extract<SettingsMessage, { cmd: 'writeConfig' }> = { cmd: 'writeConfig' };
  if (request.channels && request.channels.length > 0) config.channels = request.channels;
  if (request.uploadInterval !== undefined) config.uploadInterval = request.uploadInterval;
  if (request.logInterval !== undefined) config.logInterval = request.logInterval;
  if (Object.keys(config).length > 1) messages.push(config);
  for (const code of Object.keys(request.setpoints ?? {}).sort()) {
    messages.push({ cmd: 'writeChannel', code, value: request.setpoints![code]! });
  }
  for (const register of Object.keys(request.registers ?? {}).sort((a, b) => Number(a) - Number(b))) {
    messages.push({ cmd: 'writeRegister', register: Number(register), value: request.registers![register]! });
  }
  if (request.timeDate) messages.push({ cmd: 'timeDate', ...request.timeDate });
  return messages;
}

/** Why a settings request cannot be sent as it is (a code that is no setpoint, a channel twice), or null. */
export function settingsRequestError(request: SettingsRequest): string | null {
  const codes = (request.channels ?? []).map((channel) => channel.code);
  if (new Set(codes).size !== codes.length) return 'A channel is named twice.';
  if (codes.length > MAX_CHANNEL_SETTINGS) return `At most ${MAX_CHANNEL_SETTINGS} channels at once.`;
  const notSetpoint = Object.keys(request.setpoints ?? {}).find((code) => !isSetpointCode(code));
  if (notSetpoint !== undefined) return `Not a setpoint: ${notSetpoint}`;
  const noRegister = Object.keys(request.registers ?? {}).find(
    (register) => !parseSettingKey(settingKey.register(register)),
  );
  if (noRegister !== undefined) return `No such register: ${noRegister}`;
  for (const [key, value] of Object.entries(settingValuesOf(request))) {
    const error = settingError(key, value);
    if (error) return `${key}: ${error}`;
  }
  return null;
}

/** The setting keys and values a message sets. */
export function settingValuesOfMessage(message: SettingsMessage): Record<string, SettingValue> {
  switch (message.cmd) {
    case 'writeConfig':
      return settingValuesOf(message);
    case 'writeChannel':
      return { [settingKey.setpoint(message.code)]: message.value };
    case 'writeRegister':
      return { [settingKey.register(message.register)]: message.value };
    case 'timeDate':
      return { [settingKey.timeZone]: message.tzName };
  }
}

function settingValuesOf(request: SettingsRequest): Record<string, SettingValue> {
  const values: Record<string, SettingValue> = {};
  for (const channel of request.channels ?? []) {
    if (channel.name !== undefined) values[settingKey.channel(channel.code, 'name')] = channel.name;
    if (channel.upload !== undefined) values[settingKey.channel(channel.code, 'upload')] = channel.upload;
    if (channel.alarm !== undefined) values[settingKey.channel(channel.code, 'alarm')] = channel.alarm;
  }
  if (request.uploadInterval !== undefined) values[settingKey.uploadInterval] = request.uploadInterval;
  if (request.logInterval !== undefined) values[settingKey.logInterval] = request.logInterval;
  for (const [code, value] of Object.entries(request.setpoints ?? {})) values[settingKey.setpoint(code)] = value;
  for (const [register, value] of Object.entries(request.registers ?? {}))
    values[settingKey.register(register)] = value;
  if (request.timeDate) values[settingKey.timeZone] = request.timeDate.tzName;
  return values;
}

/**
 * The settings request of a set of changed values, without the time zone: that one is written on its
 * own after the Apply answer (core §7, see {@link timeZoneWriteRoute}).
 */
export function settingsRequestOf(changes: SettingValues): SettingsRequest {
  const request: SettingsRequest = {};
  const channels = new Map<string, ChannelSettings>();
  for (const [key, value] of Object.entries(changes)) {
    const parsed = parseSettingKey(key);
    if (!parsed) continue;
    switch (parsed.kind) {
      case 'channel': {
        const channel = channels.get(parsed.code) ?? { code: parsed.code };
        if (parsed.field === 'name') channel.name = String(value).trim();
        else channel[parsed.field] = Boolean(value);
        channels.set(parsed.code, channel);
        break;
      }
      case 'uploadInterval':
      case 'logInterval':
        request[parsed.kind] = Number(value);
        break;
      case 'setpoint':
        (request.setpoints ??= {})[parsed.code] = Number(value);
        break;
      case 'register':
        (request.registers ??= {})[String(parsed.register)] = Number(value);
        break;
      case 'timeZone':
        break;
    }
  }
  if (channels.size > 0) request.channels = [...channels.values()].sort((a, b) => a.code.localeCompare(b.code));
  return request;
}

/**
 * How the time zone is written after an Apply (core §7: the answer "may include unsentMessages; a
 * timezone write is then attempted"): over the real-time channel while the device is online and took
 * the Apply, else as a `POST /message`, which the server queues for the device's next connection.
 */
export function timeZoneWriteRoute(
  isConnected: boolean,
  unsentMessages: readonly unknown[] = [],
): 'realtime' | 'message' {
  return isConnected && unsentMessages.length === 0 ? 'realtime' : 'message';
}

// ---- The settings screen ------------------------------------------------------------------------

/** The screen's states (application §2): not loaded, loaded (initial settings merged), courtesy message shown, reset. */
export type SettingsPhase = 'notLoaded' | 'loaded' | 'courtesy' | 'reset';

export interface CourtesyMessage {
  tone: 'success' | 'info' | 'warning';
  text: string;
}

export interface DeviceSettingsState {
  phase: SettingsPhase;
  /** What the device last reported. */
  reported: SettingValues;
  /** The person's changes, not applied yet. */
  draft: SettingValues;
  /** Pending flags: values applied and not yet reported back by the device. */
  pending: SettingValues;
  /** Pending keys whose message waits, queued, for the offline device to reconnect. */
  queued: Readonly<Record<string, true>>;
  errors: Readonly<Record<string, string>>;
  courtesy: CourtesyMessage | null;
}

export const INITIAL_SETTINGS_STATE: DeviceSettingsState = {
  phase: 'notLoaded',
  reported: {},
  draft: {},
  pending: {},
  queued: {},
  errors: {},
  courtesy: null,
};

/** What happened to one message of an Apply. */
export type ApplyOutcome = { kind: 'sent' } | { kind: 'queued' } | { kind: 'failed'; message: string };

export type SettingsEvent =
  /**
   * The device's settings arrived (its record, a config report, a new setpoint value): merged into
   * what is known. `unsent` are messages still queued for it, shown as pending and queued.
   */
  | { type: 'LOADED'; reported: SettingValues; unsent?: readonly SettingsMessage[] }
  | { type: 'EDITED'; key: string; value: SettingValue }
  /** Apply pressed: the draft becomes pending. */
  | { type: 'APPLYING' }
  /** The Apply answer: each message sent, queued or failed. */
  | { type: 'APPLIED'; results: readonly { message: SettingsMessage; outcome: ApplyOutcome }[] }
  /** The whole Apply was refused (permission, bad input, no connection). */
  | { type: 'APPLY_FAILED'; message: string }
  | { type: 'COURTESY_DISMISSED' }
  /** Discard the draft and the errors: back to what the device reports. */
  | { type: 'RESET' };

const without = <T>(record: Readonly<Record<string, T>>, keys: Iterable<string>): Record<string, T> => {
  const next = { ...record };
  for (const key of keys) delete next[key];
  return next;
};

/** The settings screen's one transition function. */
export function settingsReducer(state: DeviceSettingsState, event: SettingsEvent): DeviceSettingsState {
  switch (event.type) {
    case 'LOADED': {
      const reported = { ...state.reported, ...event.reported };
      let pending: Record<string, SettingValue> = { ...state.pending };
      let queued: Record<string, true> = { ...state.queued };
      for (const message of event.unsent ?? []) {
        for (const [key, value] of Object.entries(settingValuesOfMessage(message))) {
          pending[key] = value;
          queued[key] = true;
        }
      }
      // A pending flag clears once the device reports the value it was asked for.
      const confirmed = Object.keys(pending).filter((key) => sameSettingValue(key, pending[key], reported[key]));
      pending = without(pending, confirmed);
      queued = without(queued, confirmed);
      const draft = without(
        state.draft,
        Object.keys(state.draft).filter((key) => sameSettingValue(key, state.draft[key], reported[key])),
      );
      const phase = state.phase === 'notLoaded' ? 'loaded' : state.phase;
      return { ...state, phase, reported, pending, queued, draft };
    }
    case 'EDITED': {
      if (state.phase === 'notLoaded') return state;
      const errors = without(state.errors, [event.key]);
      const draft = sameSettingValue(event.key, event.value, state.pending[event.key] ?? state.reported[event.key])
        ? without(state.draft, [event.key])
        : { ...state.draft, [event.key]: event.value };
      return { ...state, phase: 'loaded', courtesy: null, draft, errors };
    }
    case 'APPLYING': {
      const keys = Object.keys(state.draft);
      return {
        ...state,
        phase: 'loaded',
        courtesy: null,
        pending: { ...state.pending, ...state.draft },
        queued: without(state.queued, keys),
        errors: without(state.errors, keys),
        draft: {},
      };
    }
    case 'APPLIED': {
      let pending: Record<string, SettingValue> = { ...state.pending };
      const queued: Record<string, true> = { ...state.queued };
      const errors: Record<string, string> = { ...state.errors };
      const counts = { sent: 0, queued: 0, failed: 0 };
      for (const { message, outcome } of event.results) {
        const keys = Object.keys(settingValuesOfMessage(message));
        counts[outcome.kind] += keys.length;
        if (outcome.kind === 'queued') for (const key of keys) queued[key] = true;
        if (outcome.kind === 'failed') {
          pending = without(pending, keys);
          for (const key of keys) errors[key] = outcome.message;
        }
      }
      return { ...state, phase: 'courtesy', pending, queued, errors, courtesy: courtesyOf(counts) };
    }
    case 'APPLY_FAILED': {
      const applying = Object.keys(state.pending).filter((key) => !state.queued[key]);
      const errors = { ...state.errors };
      for (const key of applying) errors[key] = event.message;
      return {
        ...state,
        phase: 'courtesy',
        pending: without(state.pending, applying),
        errors,
        courtesy: { tone: 'warning', text: event.message },
      };
    }
    case 'COURTESY_DISMISSED':
      return state.phase === 'courtesy' ? { ...state, phase: 'loaded', courtesy: null } : state;
    case 'RESET':
      if (state.phase === 'notLoaded') return state;
      return { ...state, phase: 'reset', draft: {}, errors: {}, courtesy: null };
  }
}

const changes = (count: number) => `${count} ${count === 1 ? 'change' : 'changes'}`;

/** The message shown after an Apply: what went, what waits for the device, what failed. */
function courtesyOf(counts: { sent: number; queued: number; failed: number }): CourtesyMessage {
  const parts: string[] = [];
  if (counts.sent > 0) parts.push(`${changes(counts.sent)} sent; each shows its new value once the device reports it.`);
  if (counts.queued > 0) {
    parts.push(`The device is offline: ${changes(counts.queued)} will be sent when it reconnects.`);
  }
  if (counts.failed > 0) parts.push(`${changes(counts.failed)} failed; see the marked settings.`);
  if (parts.length === 0) parts.push('Nothing to send.');
  const tone = counts.failed > 0 ? 'warning' : counts.queued > 0 ? 'info' : 'success';
  return { tone, text: parts.join(' ') };
}

/** One control's state (application §2): spinning, a value, or an error. */
export type ControlState =
  | { status: 'spinning'; reason: 'loading' | 'applying' }
  | { status: 'value'; value: SettingValue; changed: boolean; queued: boolean }
  | { status: 'error'; message: string; value: SettingValue | undefined };

/** The state of the control of one setting. */
export function controlState(state: DeviceSettingsState, key: string): ControlState {
  if (state.phase === 'notLoaded') return { status: 'spinning', reason: 'loading' };
  const error = state.errors[key];
  if (error !== undefined) return { status: 'error', message: error, value: state.draft[key] ?? state.reported[key] };
  if (key in state.draft) return { status: 'value', value: state.draft[key]!, changed: true, queued: false };
  if (key in state.pending) {
    return state.queued[key]
      ? { status: 'value', value: state.pending[key]!, changed: false, queued: true }
      : { status: 'spinning', reason: 'applying' };
  }
  const value = state.reported[key];
  return value === undefined
    ? { status: 'spinning', reason: 'loading' }
    : { status: 'value', value, changed: false, queued: false };
}

/** True while an Apply is on its way or waiting for the online device to report back. */
export function isApplying(state: DeviceSettingsState): boolean {
  return Object.keys(state.pending).some((key) => !state.queued[key]);
}

/** The draft's first invalid value, as `{key, message}`, or null when every change can be applied. */
export function draftError(state: DeviceSettingsState): { key: string; message: string } | null {
  for (const [key, value] of Object.entries(state.draft)) {
    const message = settingError(key, value);
    if (message) return { key, message };
  }
  return null;
}
