/**
 * The audit trail's rules (issue 38, item 1): what an entry holds, how it is written down for its
 * hash, which actions exist, how long entries are kept, and what a query may ask. The server hashes
 * and stores; the console filters and exports; both read these.
 */

/** Who made a change: a signed-in user, an API token (acting for its owner), or the system's own jobs. */
export type AuditActor =
  | { kind: 'user'; id: string; name: string }
  | { kind: 'token'; id: string; name: string }
  | { kind: 'system'; id: string; name: string };

/** The kinds of actor, as stored. */
export const AUDIT_ACTOR_KINDS = ['user', 'token', 'system'] as const satisfies readonly AuditActor['kind'][];

/**
 * Every action the trail records, by area. A name is `area.verb`; the console offers them as a
 * filter and the server refuses any other in a query.
 */
export const AUDIT_ACTIONS = [
  'session.signIn',
  'session.signInRefused',
  'session.signOut',
  'session.passwordReset',
  'session.signUp',
  'session.end',
  'session.endOthers',
  'apiToken.create',
  'apiToken.revoke',
  'mfa.totpStart',
  'mfa.totpOn',
  'mfa.totpOff',
  'mfa.passkeyAdd',
  'mfa.passkeyRemove',
  'account.secondFactorRequirement',
  'device.command',
  'device.add',
  'device.import',
  'device.update',
  'device.tags',
  'device.plan',
  'device.mute',
  'device.alarmConfig',
  'device.message',
  'alarm.acknowledge',
  'ota.submit',
  'ota.approve',
  'group.add',
  'group.rename',
  'group.delete',
  'move',
  'user.invite',
  'user.update',
  'user.permissions',
  'user.pushOn',
  'user.pushOff',
  'user.phoneCode',
  'user.phoneVerify',
  'user.phoneRemove',
  'scene.add',
  'scene.update',
  'scene.delete',
  'scene.order',
  'scene.layout',
  'widget.add',
  'widget.update',
  'widget.delete',
  'report.add',
  'report.update',
  'report.delete',
  'schedule.add',
  'schedule.update',
  'schedule.delete',
  'brew.start',
  'brew.update',
  'brew.end',
  'brew.resume',
  'brew.delete',
  'brew.record',
  'brew.report',
  'brew.calibrate',
  'audit.trim',
  'webhook.add',
  'webhook.update',
  'webhook.delete',
  'user.notificationPreferences',
  'account.onCallRota',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Each action as people read it: the audit log page's filter and table. */
export const AUDIT_ACTION_LABELS: Readonly<Record<AuditAction, string>> = {
  'session.signIn': 'Signed in',
  'session.signInRefused': 'Sign-in refused',
  'session.signOut': 'Signed out',
  'session.passwordReset': 'Password reset',
  'session.signUp': 'Signed up',
  'session.end': 'Session signed out',
  'session.endOthers': 'Other sessions signed out',
  'apiToken.create': 'API token created',
  'apiToken.revoke': 'API token revoked',
  'mfa.totpStart': 'Authenticator app enrolment started',
  'mfa.totpOn': 'Two-factor authentication turned on',
  'mfa.totpOff': 'Two-factor authentication turned off',
  'mfa.passkeyAdd': 'Passkey added',
  'mfa.passkeyRemove': 'Passkey removed',
  'account.secondFactorRequirement': 'Second factor requirement changed',
  'device.command': 'Device command',
  'device.add': 'Device added',
  'device.import': 'Devices imported',
  'device.update': 'Device edited',
  'device.tags': 'Device tags changed',
  'device.plan': 'Device plan changed',
  'device.mute': 'Disconnection alerts muted or unmuted',
  'device.alarmConfig': 'Alarm settings changed',
  'device.message': 'Device message queued',
  'alarm.acknowledge': 'Alarm acknowledged',
  'ota.submit': 'Update submitted',
  'ota.approve': 'Update approved',
  'group.add': 'Group added',
  'group.rename': 'Group renamed',
  'group.delete': 'Group deleted',
  move: 'Moved',
  'user.invite': 'User invited',
  'user.update': 'User edited',
  'user.permissions': 'Permissions changed',
  'user.pushOn': 'Notifications turned on for a browser',
  'user.pushOff': 'Notifications turned off for a browser',
  'user.phoneCode': 'SMS code sent to verify a phone',
  'user.phoneVerify': 'Phone verified for SMS alerts',
  'user.phoneRemove': 'Phone for SMS alerts removed',
  'scene.add': 'Scene added',
  'scene.update': 'Scene edited',
  'scene.delete': 'Scene deleted',
  'scene.order': 'Scenes reordered',
  'scene.layout': 'Scene layout changed',
  'widget.add': 'Widget added',
  'widget.update': 'Widget edited',
  'widget.delete': 'Widget deleted',
  'report.add': 'Report created',
  'report.update': 'Report edited',
  'report.delete': 'Report deleted',
  'schedule.add': 'Schedule created',
  'schedule.update': 'Schedule edited',
  'schedule.delete': 'Schedule deleted',
  'brew.start': 'Batch started',
  'brew.update': 'Batch edited',
  'brew.end': 'Batch ended',
  'brew.resume': 'Batch end taken back',
  'brew.delete': 'Batch deleted',
  'brew.record': 'Brewing record changed',
  'brew.report': 'Batch report requested',
  'brew.calibrate': 'Tank calibrated',
  'audit.trim': 'Old entries removed',
  'webhook.add': 'Webhook added',
  'webhook.update': 'Webhook edited',
  'webhook.delete': 'Webhook deleted',
  'user.notificationPreferences': 'Notification preferences changed',
  'account.onCallRota': 'On-call rota changed',
};

/** True for a name of {@link AUDIT_ACTIONS}. */
export function isAuditAction(name: string): name is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(name);
}

/**
 * Device commands that change something at the device, each an entry of the trail: channel writes
 * (relays, setpoints, a plant's run and resets, spray), register writes, system commands (FLASH LED),
 * the time zone, configuration and firmware updates. Reads (`readChannel`, `readRegister`,
 * `refreshMetadata`) change nothing and are not recorded, nor are the device's own frames.
 */
const AUDITED_COMMANDS = ['writeChannel', 'writeRegister', 'system', 'timeDate', 'writeConfig', 'otaUpdate'] as const;

/** True for a command of {@link AUDITED_COMMANDS}. */
export function isAuditedCommand(cmd: string): boolean {
  return (AUDITED_COMMANDS as readonly string[]).includes(cmd);
}

/** What an action changed: an account, group, device, scene, user, report, schedule… */
export interface AuditTarget {
  kind: string;
  id: string;
  /** The name people know it by (a device's name, a user's e-mail), as it was then. */
  name?: string;
}

/** One entry as its hash sees it: everything but the hashes themselves. */
export interface AuditEntryFacts {
  accountId: string;
  /** Its place in the account's chain: 1, 2, 3… with no gaps. */
  seq: number;
  /** Unix milliseconds. */
  at: number;
  actor: AuditActor;
  /** The client's address (the proxy's word where one is trusted), or null for the system. */
  address: string | null;
  /** The client: `http` or `realtime`, and its user agent where it gave one. */
  client: string | null;
  action: AuditAction;
  target: AuditTarget | null;
  /** The device concerned, for the device filter (a command's device, a moved device). */
  deviceId: string | null;
  /** Values before and after, where there are any. */
  before: unknown;
  after: unknown;
}

/** The hash that comes before the first entry of a chain: 64 zeros. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/**
 * The chain of entries that belong to no account (a refused sign-in for an unknown e-mail): not an
 * entity id, so no account can be called this.
 */
export const SYSTEM_AUDIT_CHAIN = '*system*';

/** Entries are kept this long unless the installation says otherwise: two years. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 731;

/** Entries a page of `GET /audit-log` holds unless asked for fewer; at most {@link MAX_AUDIT_PAGE}. */
export const DEFAULT_AUDIT_PAGE = 50;
export const MAX_AUDIT_PAGE = 500;

/**
 * JSON with object keys sorted at every depth and no white space: one text for one value, whatever
 * order its keys were built in, so the hash of an entry can be computed again from its stored fields.
 * `undefined` members are left out, as JSON leaves them out.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`);
  return `{${members.join(',')}}`;
}

/** The text an entry's hash is taken of: the previous entry's hash, then the entry's canonical JSON. */
export function auditHashInput(prevHash: string, facts: AuditEntryFacts): string {
  return prevHash + canonicalJson(facts);
}

/** What `GET /audit-log` may filter on. */
interface AuditQueryFilters {
  action?: string;
  from?: number;
  to?: number;
}

/** Why a query's filters cannot be answered, or null: an unknown action, or a range that ends before it starts. */
export function auditQueryProblem(filters: AuditQueryFilters): string | null {
  if (filters.action !== undefined && !isAuditAction(filters.action)) {
    return `Unknown action "${filters.action}".`;
  }
  if (filters.from !== undefined && filters.to !== undefined && filters.from > filters.to) {
    return 'The time range ends before it starts: "from" must not be after "to".';
  }
  return null;
}

/** The oldest time still kept at `now`, for a retention of `days` (0: keep everything, answered as null). */
export function auditRetentionCutoff(now: number, days: number): number | null {
  return days > 0 ? now - days * 86_400_000 : null;
}

/** One value an entry changed, as the audit log shows it: `Name: North → South`. */
export interface AuditChangeLine {
  field: string;
  /** Absent when the entry records no value before (an addition) or after (a removal). */
  before?: string;
  after?: string;
}

/** Field names people read differently from their code name. */
const AUDIT_FIELD_LABELS: Readonly<Record<string, string>> = {
  cmd: 'Command',
  fw: 'Firmware',
  tzName: 'Time zone',
  tzRule: 'Time zone rule',
  ota: 'Update',
};

/** Internal ids (`id`, `groupId`, `commandId`, `groupIds`): the entry names what they stand for beside them. */
const ID_FIELD = /^id$|Ids?$/;
/** Unix-millisecond fields (`acknowledgedAt`, `expiresAt`): shown as the reader's date and time. */
const TIME_FIELD = /At$/;

/** `acknowledgedAt` → `Acknowledged at`, unless {@link AUDIT_FIELD_LABELS} names it. */
function auditFieldLabel(key: string): string {
  const known = AUDIT_FIELD_LABELS[key];
  if (known) return known;
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function auditValueText(key: string, value: unknown, formatTime: (t: number) => string): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return TIME_FIELD.test(key) ? formatTime(value) : String(value);
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => auditValueText('', item, formatTime)).join(', ');
  return canonicalJson(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * What an entry changed, one line per value, as people read it: field names in words, internal ids
 * left out (the entry names what they stand for), times in the reader's clock, and values an edit
 * left as they were left out. Values that are not objects make one line, "Value". The CSV export
 * keeps the stored JSON whole for those who process it.
 */
export function auditChangeLines(
  before: unknown,
  after: unknown,
  formatTime: (t: number) => string,
): AuditChangeLine[] {
  const hasBefore = before !== null && before !== undefined;
  const hasAfter = after !== null && after !== undefined;
  if ((hasBefore && !isRecord(before)) || (hasAfter && !isRecord(after))) {
    return [
      {
        field: 'Value',
        ...(hasBefore && { before: auditValueText('', before, formatTime) }),
        ...(hasAfter && { after: auditValueText('', after, formatTime) }),
      },
    ];
  }
  const was = isRecord(before) ? before : {};
  const is = isRecord(after) ? after : {};
  const keys = [...new Set([...Object.keys(is), ...Object.keys(was)])].filter((key) => !ID_FIELD.test(key));
  return keys.flatMap((key): AuditChangeLine[] => {
    const inBefore = hasBefore && key in was;
    const inAfter = hasAfter && key in is;
    if (inBefore && inAfter && canonicalJson(was[key]) === canonicalJson(is[key])) return [];
    return [
      {
        field: auditFieldLabel(key),
        ...(inBefore && { before: auditValueText(key, was[key], formatTime) }),
        ...(inAfter && { after: auditValueText(key, is[key], formatTime) }),
      },
    ];
  });
}
