import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { settingList } from '@fieldlink/domain/api-address';
import { DEFAULT_ALARM_NOTICE_POLICY } from '@fieldlink/domain/alarms';
import { DEFAULT_AUDIT_RETENTION_DAYS } from '@fieldlink/domain/audit';
import { REALTIME_MESSAGES_PER_SECOND } from '@fieldlink/domain/realtime-limits';
import { isE164Phone } from '@fieldlink/domain/sms';
import { DEMO_HISTORY_DAYS } from '@fieldlink/simulation/demo-fleet';
import { scryptParams } from './security/passwords';
import { parseTrustProxy, type TrustProxy } from './security/client-address';

/** The demo users' password the README publishes; `FIELDLINK_DEMO_PASSWORD` replaces it. */
export const PUBLISHED_DEMO_PASSWORD = 'fieldlink-demo';

/** Every setting of the server, read once from the environment (README lists them with defaults). */
export interface Config {
  port: number;
  /** `HOST`; null: every interface, or 127.0.0.1 only while a demo user has the published password. */
  host: string | null;
  /** Plain MQTT's TCP port; 0 turns plain MQTT off (allowed only with TLS, whose port stays open). */
  mqttPort: number;
  /** PEM certificate chain and key for HTTPS, WSS and MQTT over TLS; both set or neither. */
  tls: { certFile: string; keyFile: string } | null;
  /** MQTT over TLS's TCP port (with `tls`). */
  mqttTlsPort: number;
  /** Plain MQTT connections begin with a PROXY protocol v2 header from a load balancer (HAProxy `send-proxy-v2`). */
  mqttProxyProtocol: boolean;
  /** `postgres://…` or a SQLite file path (optionally `sqlite:` prefixed). */
  databaseUrl: string;
  demo: boolean;
  demoPassword: string;
  /** Days of log history generated for the demo devices on first start. */
  demoHistoryDays: number;
  simulator: boolean;
  /** Seconds between the simulated devices' log frames. */
  simulatorInterval: number;
  smtpUrl: string | null;
  mailFrom: string;
  /** Address the console is reached at, used in mailed links. */
  publicUrl: string;
  /** Extra browser origins allowed to open the real-time socket (the server's own host is always allowed). */
  allowedOrigins: string[];
  mapTileUrl: string | null;
  mapKey: string | null;
  geocoderUrl: string | null;
  /** Directory of the video library's files (`/videos/*`), or null. */
  videosDir: string | null;
  /** Further videos hosted elsewhere: `https://...` or `Title|https://...` each. */
  videoUrls: string[];
  productName: string;
  defaultTheme: string;
  logLevel: string;
  /** The API host the console is built to call (`FIELDLINK_API_HOST`, read by the build too), or null: its own origin. */
  consoleApiHost: string | null;
  /** Page subdomains whose API host takes the `next.` prefix (`FIELDLINK_API_NEXT_SUBDOMAINS`). */
  consoleApiNextSubdomains: string[];
  /** Session token lifetime in seconds. */
  tokenTtlSeconds: number;
  /** `TRUST_PROXY`: the reverse proxies whose `X-Forwarded-For` names the client (a hop count or their addresses). */
  trustProxy: TrustProxy;
  webDist: string;
  /** An existing MQTT broker (`mqtt://…`, `mqtts://…`): cluster mode, no embedded broker. */
  mqttUrl: string | null;
  /** Fieldlink's account at that broker; default: the user and password in `mqttUrl`. */
  mqttAdminUsername: string | null;
  mqttAdminPassword: string | null;
  /** Where devices connect to that broker (the demo fleet too); default: `mqttUrl` without credentials. */
  mqttDeviceUrl: string | null;
  /** `dynsec`: device accounts provisioned into Mosquitto's dynamic security; `none`: the broker asks Fieldlink over HTTP (EMQX). */
  mqttProvisioning: 'dynsec' | 'none';
  /** Shared secret the broker sends to the HTTP authentication endpoints (`MQTT_PROVISIONING=none`). */
  mqttAuthSecret: string | null;
  /** Frames per second one device may publish, averaged over 10 s. */
  mqttMaxFramesPerSecond: number;
  /** Milliseconds the embedded broker waits for a device's full socket to drain before dropping the device. */
  mqttDrainTimeoutMs: number;
  /** Messages a second one browser real-time connection may send on average; past it its reads are paced. */
  realtimeMessagesPerSecond: number;
  /** `single`: one instance at a time ingests through one persistent session; `shared`: all do, through a shared subscription. */
  mqttIngest: 'single' | 'shared';
  /** This process in the cluster (logs, MQTT client ids, job claims). */
  instanceId: string;
  /** An instance that has not renewed its lease for this long is presumed dead; its ingest session is adopted. */
  clusterLeaseSeconds: number;
  /** When set, `/metrics` needs `authorization: Bearer <token>`. */
  metricsToken: string | null;
  /** Seconds between reminders of an active, unacknowledged alarm. */
  alarmReminderSeconds: number;
  /** Seconds after which an active, unacknowledged alarm is escalated to the administrators above. */
  alarmEscalationSeconds: number;
  /** Seconds a device must stay disconnected before its disconnection alert is raised. */
  disconnectAlertSeconds: number;
  /** `FIELDLINK_WEBHOOK_ALLOW_PRIVATE=1`: webhook and push URLs may resolve to loopback, private and link-local addresses. */
  webhookAllowPrivate: boolean;
  /** Days a report and its file are kept (0: forever). */
  reportRetentionDays: number;
  /** Days a batch report (brewing) and its file are kept (0: forever). */
  batchReportRetentionDays: number;
  /** Minutes between runs of the batch report retention job; 0: this instance never queues it. */
  batchReportRetentionMinutes: number;
  /** Days audit trail entries are kept (0: forever); trimming keeps each chain verifiable from its new start. */
  auditRetentionDays: number;
  /** Minutes between runs of the audit retention job; 0: this instance never queues it. */
  auditRetentionMinutes: number;
  /** Days device logs are kept per device plan: raw samples and their hourly and daily roll-ups (0: forever). */
  logRetention: LogRetention;
  /** Minutes between runs of the log maintenance job (partitions, retention); 0: this instance never queues it. */
  logMaintenanceMinutes: number;
  /** `SMS_URL` and its `SMS_*` settings: a Twilio-compatible Messages API for SMS alerts, or null: no SMS. */
  sms: SmsSettings | null;
}

/** Where and as whom alarm SMS are sent (issue 39 item 4; docs/operations.md). */
export interface SmsSettings {
  /** The API's base URL, without credentials or query (`https://api.twilio.com`). */
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** The sender: a number (E.164) or an alphanumeric sender id, as `From`; or null with a messaging service. */
  from: string | null;
  /** A messaging service (`MG…`) that picks the sender, as `MessagingServiceSid`; or null. */
  messagingServiceSid: string | null;
}

/** How long one plan's logs are kept, in days (0: forever). */
export interface PlanLogRetention {
  rawDays: number;
  rollupDays: number;
}

export type LogRetention = Record<'FREE' | 'PREMIUM', PlanLogRetention>;

const ROOT = path.resolve(import.meta.dirname, '../../..');

function int(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return parsed;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

function optional(value: string | undefined): string | null {
  return value && value.trim() !== '' ? value.trim() : null;
}

/** `VIDEO_URLS`: comma-separated `https://...` or `Title|https://...`; each must be an http(s) URL. */
function videoUrls(value: string | undefined): string[] {
  const entries = settingList(value);
  for (const entry of entries) {
    const url = entry.slice(entry.indexOf('|') + 1).trim();
    if (!/^https?:\/\/[^/]+\/./.test(url) || !URL.canParse(url)) {
      throw new Error(`VIDEO_URLS: "${entry}" is not an http(s) address of a video file`);
    }
  }
  return entries;
}

function mqttUrl(value: string | undefined): string | null {
  const url = optional(value);
  if (url === null) return null;
  if (!/^mqtts?:\/\/[^/]+/.test(url))
    throw new Error(`MQTT_URL must be mqtt://host:port or mqtts://host:port, got "${url}"`);
  return url;
}

function provisioning(value: string | undefined): 'dynsec' | 'none' {
  const mode = optional(value) ?? 'dynsec';
  if (mode !== 'dynsec' && mode !== 'none') throw new Error(`MQTT_PROVISIONING must be dynsec or none, got "${mode}"`);
  return mode;
}

function ingestMode(value: string | undefined): 'single' | 'shared' {
  const mode = optional(value) ?? 'single';
  if (mode !== 'single' && mode !== 'shared') throw new Error(`MQTT_INGEST must be single or shared, got "${mode}"`);
  return mode;
}

function tlsFiles(env: NodeJS.ProcessEnv): Config['tls'] {
  const certFile = optional(env.TLS_CERT_FILE);
  const keyFile = optional(env.TLS_KEY_FILE);
  if (!certFile && !keyFile) return null;
  if (!certFile || !keyFile) throw new Error('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  return { certFile, keyFile };
}

const MESSAGING_SERVICE_SID = /^MG[0-9a-fA-F]{32}$/;
/** An alphanumeric sender id: up to 11 letters, digits and spaces, at least one letter. */
const ALPHANUMERIC_SENDER = /^(?=.*[A-Za-z])[A-Za-z0-9 ]{1,11}$/;

/** One of the URL's part or its setting, never both (two places disagreeing would be a trap). */
function oneOf(name: string, inUrl: string, setting: string | undefined): string | null {
  const given = optional(setting);
  if (inUrl && given) throw new Error(`${name} is given both in SMS_URL and as ${name}: give it in one place`);
  return inUrl || given;
}

/**
 * `SMS_URL`: `https://ACCOUNT_SID:AUTH_TOKEN@api.twilio.com?from=%2B15551234567` (or
 * `?from=MG…` for a messaging service), or the base URL alone with `SMS_ACCOUNT_SID`, `SMS_AUTH_TOKEN`
 * and `SMS_FROM`. Plain http only where private addresses are allowed (the credentials travel in it).
 */
function smsSettings(env: NodeJS.ProcessEnv): SmsSettings | null {
  const text = optional(env.SMS_URL);
  if (text === null) {
    const stray = ['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM'].filter((name) => optional(env[name]));
    if (stray.length > 0)
      throw new Error(`${stray.join(', ')} set without SMS_URL: set SMS_URL to the Messages API's address`);
    return null;
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(
      'SMS_URL is not a valid URL: use https://ACCOUNT_SID:AUTH_TOKEN@api.twilio.com?from=%2B15551234567',
    );
  }
  const allowPrivate = flag(env.FIELDLINK_WEBHOOK_ALLOW_PRIVATE, false);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowPrivate)) {
    throw new Error('SMS_URL must begin with https:// (plain http only with FIELDLINK_WEBHOOK_ALLOW_PRIVATE=1)');
  }
  const accountSid = oneOf('SMS_ACCOUNT_SID', decodeURIComponent(url.username), env.SMS_ACCOUNT_SID);
  const authToken = oneOf('SMS_AUTH_TOKEN', decodeURIComponent(url.password), env.SMS_AUTH_TOKEN);
  const sender = oneOf('SMS_FROM', url.searchParams.get('from') ?? '', env.SMS_FROM);
  const missing = [
    !accountSid && 'the account SID (SMS_ACCOUNT_SID)',
    !authToken && 'the auth token (SMS_AUTH_TOKEN)',
    !sender && 'the sender (SMS_FROM)',
  ].filter(Boolean);
  if (missing.length > 0) throw new Error(`SMS_URL needs ${missing.join(', ')}, in the URL or as settings`);
  const unknown = [...url.searchParams.keys()].filter((key) => key !== 'from');
  if (unknown.length > 0) throw new Error(`SMS_URL: unknown parameter ${unknown.join(', ')} (only from is read)`);
  const messagingService = MESSAGING_SERVICE_SID.test(sender!);
  if (!messagingService && !isE164Phone(sender!) && !ALPHANUMERIC_SENDER.test(sender!)) {
    throw new Error(
      `SMS_FROM "${sender}" is neither a number in E.164 (+15551234567), an alphanumeric sender id (up to 11 letters and digits) nor a messaging service (MG…)`,
    );
  }
  return {
    baseUrl: `${url.origin}${url.pathname}`.replace(/\/+$/, ''),
    accountSid: accountSid!,
    authToken: authToken!,
    from: messagingService ? null : sender,
    messagingServiceSid: messagingService ? sender : null,
  };
}

/** Reads the configuration; throws with a clear message on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = int(env.PORT, 8080, 'PORT');
  // A test-only password cost set where it must not be stops the start, not the first sign-in.
  scryptParams(env);
  const tls = tlsFiles(env);
  const mqttPort = int(env.MQTT_PORT, 1883, 'MQTT_PORT');
  if (mqttPort === 0 && !tls && !optional(env.MQTT_URL)) {
    throw new Error('MQTT_PORT=0 turns plain MQTT off: set TLS_CERT_FILE and TLS_KEY_FILE so devices connect over TLS');
  }
  return {
    port,
    host: optional(env.HOST),
    mqttPort,
    tls,
    mqttTlsPort: int(env.MQTT_TLS_PORT, 8883, 'MQTT_TLS_PORT'),
    mqttProxyProtocol: flag(env.MQTT_PROXY_PROTOCOL, false),
    databaseUrl: env.DATABASE_URL ?? path.join(ROOT, 'data', 'fieldlink.db'),
    demo: flag(env.FIELDLINK_DEMO, true),
    demoPassword: env.FIELDLINK_DEMO_PASSWORD ?? PUBLISHED_DEMO_PASSWORD,
    demoHistoryDays: int(env.FIELDLINK_DEMO_HISTORY_DAYS, DEMO_HISTORY_DAYS, 'FIELDLINK_DEMO_HISTORY_DAYS'),
    simulator: flag(env.FIELDLINK_SIMULATOR, true),
    simulatorInterval: int(env.FIELDLINK_SIMULATOR_INTERVAL, 5, 'FIELDLINK_SIMULATOR_INTERVAL'),
    smtpUrl: optional(env.SMTP_URL),
    mailFrom: env.MAIL_FROM ?? 'Fieldlink <no-reply@fieldlink.local>',
    publicUrl: (env.PUBLIC_URL ?? `${tls ? 'https' : 'http'}://localhost:${port}`).replace(/\/$/, ''),
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '')
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    mapTileUrl: optional(env.MAP_TILE_URL),
    mapKey: optional(env.MAP_KEY),
    geocoderUrl: optional(env.GEOCODER_URL),
    videosDir: optional(env.VIDEOS_DIR) && path.resolve(optional(env.VIDEOS_DIR)!),
    videoUrls: videoUrls(env.VIDEO_URLS),
    productName: env.PRODUCT_NAME ?? 'Fieldlink',
    defaultTheme: env.DEFAULT_THEME ?? 'DEFAULT',
    logLevel: env.LOG_LEVEL ?? 'info',
    consoleApiHost: optional(env.FIELDLINK_API_HOST),
    consoleApiNextSubdomains: settingList(env.FIELDLINK_API_NEXT_SUBDOMAINS),
    tokenTtlSeconds: int(env.TOKEN_TTL_SECONDS, 7 * 24 * 3600, 'TOKEN_TTL_SECONDS'),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    webDist: env.WEB_DIST ?? path.join(ROOT, 'apps', 'web', 'dist'),
    mqttUrl: mqttUrl(env.MQTT_URL),
    mqttAdminUsername: optional(env.MQTT_ADMIN_USERNAME),
    mqttAdminPassword: optional(env.MQTT_ADMIN_PASSWORD),
    mqttDeviceUrl: optional(env.MQTT_DEVICE_URL),
    mqttProvisioning: provisioning(env.MQTT_PROVISIONING),
    mqttAuthSecret: optional(env.MQTT_AUTH_SECRET),
    mqttMaxFramesPerSecond: int(env.MQTT_MAX_FRAMES_PER_SECOND, 200, 'MQTT_MAX_FRAMES_PER_SECOND'),
    mqttDrainTimeoutMs: Math.max(1, int(env.MQTT_DRAIN_TIMEOUT_MS, 10_000, 'MQTT_DRAIN_TIMEOUT_MS')),
    realtimeMessagesPerSecond: Math.max(
      1,
      int(env.REALTIME_MESSAGES_PER_SECOND, REALTIME_MESSAGES_PER_SECOND, 'REALTIME_MESSAGES_PER_SECOND'),
    ),
    mqttIngest: ingestMode(env.MQTT_INGEST),
    instanceId:
      optional(env.FIELDLINK_INSTANCE_ID) ?? `${os.hostname().slice(0, 24)}-${randomBytes(4).toString('hex')}`,
    clusterLeaseSeconds: int(env.FIELDLINK_CLUSTER_LEASE_SECONDS, 30, 'FIELDLINK_CLUSTER_LEASE_SECONDS'),
    metricsToken: optional(env.METRICS_TOKEN),
    alarmReminderSeconds: Math.max(
      1,
      int(
        env.FIELDLINK_ALARM_REMINDER_SECONDS,
        DEFAULT_ALARM_NOTICE_POLICY.reminderIntervalMs / 1000,
        'FIELDLINK_ALARM_REMINDER_SECONDS',
      ),
    ),
    alarmEscalationSeconds: int(
      env.FIELDLINK_ALARM_ESCALATION_SECONDS,
      DEFAULT_ALARM_NOTICE_POLICY.escalationDelayMs / 1000,
      'FIELDLINK_ALARM_ESCALATION_SECONDS',
    ),
    disconnectAlertSeconds: int(env.FIELDLINK_DISCONNECT_ALERT_SECONDS, 300, 'FIELDLINK_DISCONNECT_ALERT_SECONDS'),
    webhookAllowPrivate: flag(env.FIELDLINK_WEBHOOK_ALLOW_PRIVATE, false),
    reportRetentionDays: int(env.FIELDLINK_REPORT_RETENTION_DAYS, 90, 'FIELDLINK_REPORT_RETENTION_DAYS'),
    batchReportRetentionDays: int(
      env.FIELDLINK_BATCH_REPORT_RETENTION_DAYS,
      365,
      'FIELDLINK_BATCH_REPORT_RETENTION_DAYS',
    ),
    batchReportRetentionMinutes: int(
      env.FIELDLINK_BATCH_REPORT_RETENTION_MINUTES,
      60,
      'FIELDLINK_BATCH_REPORT_RETENTION_MINUTES',
    ),
    auditRetentionDays: int(
      env.FIELDLINK_AUDIT_RETENTION_DAYS,
      DEFAULT_AUDIT_RETENTION_DAYS,
      'FIELDLINK_AUDIT_RETENTION_DAYS',
    ),
    auditRetentionMinutes: int(env.FIELDLINK_AUDIT_RETENTION_MINUTES, 60, 'FIELDLINK_AUDIT_RETENTION_MINUTES'),
    logMaintenanceMinutes: int(env.FIELDLINK_LOG_MAINTENANCE_MINUTES, 60, 'FIELDLINK_LOG_MAINTENANCE_MINUTES'),
    logRetention: {
      FREE: {
        rawDays: int(env.FIELDLINK_LOG_DAYS_FREE, 90, 'FIELDLINK_LOG_DAYS_FREE'),
        rollupDays: int(env.FIELDLINK_ROLLUP_DAYS_FREE, 732, 'FIELDLINK_ROLLUP_DAYS_FREE'),
      },
      PREMIUM: {
        rawDays: int(env.FIELDLINK_LOG_DAYS_PREMIUM, 732, 'FIELDLINK_LOG_DAYS_PREMIUM'),
        rollupDays: int(env.FIELDLINK_ROLLUP_DAYS_PREMIUM, 0, 'FIELDLINK_ROLLUP_DAYS_PREMIUM'),
      },
    },
    sms: smsSettings(env),
  };
}

/**
 * Where devices connect, as the console shows it beside new credentials: `MQTT_DEVICE_URL`, else the
 * external broker's URL without Fieldlink's own account, else the embedded broker on the host of
 * `PUBLIC_URL` at `MQTT_PORT`.
 */
export function deviceBrokerUrl(
  config: Pick<Config, 'mqttDeviceUrl' | 'mqttUrl' | 'publicUrl' | 'mqttPort' | 'tls' | 'mqttTlsPort'>,
): string {
  if (config.mqttDeviceUrl) return config.mqttDeviceUrl;
  if (config.mqttUrl) {
    const url = new URL(config.mqttUrl);
    return `${url.protocol}//${url.host}`;
  }
  const host = new URL(config.publicUrl).hostname;
  return config.tls ? `mqtts://${host}:${config.mqttTlsPort}` : `mqtt://${host}:${config.mqttPort}`;
}
