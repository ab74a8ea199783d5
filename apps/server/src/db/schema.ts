import type { Generated } from 'kysely';

/**
 * Row types of every table, as Kysely sees them. Booleans are stored as 0/1 and times as unix
 * milliseconds in both dialects, so one set of queries serves SQLite and PostgreSQL.
 */
export interface AccountsTable {
  id: string;
  name: string;
  app_type: string;
  kind: string;
  user_variant: string | null;
  /** The account's brand theme (a theme name), or null. */
  theme: string | null;
  root_group_id: string;
  created_at: number;
  /** 1 when the account requires a second factor of its users and its customers' users (issue 38). */
  require_second_factor: Generated<number>;
}

export interface GroupsTable {
  id: string;
  account_id: string;
  parent_id: string | null;
  name: string;
  /** root | group | new | trash */
  kind: string;
  /** './' then the slash-separated ids from the top of the tree down to this group. */
  path: string;
  /** 1 for a group of demo devices simulated in the browser (core §3 `simulation`). */
  simulation: Generated<number>;
  created_at: number;
}

export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  theme: string | null;
  muted_devices: string;
  latest_user_update_id: string | null;
  /** Bumped on password change: every token issued before is refused. */
  token_version: number;
  created_at: number;
  /** 1: sees every value and chart but operates nothing (issue 35). */
  monitor_only: number;
  /** The user's clock (issue 36 item 2): IANA zone, '12' | '24', 'dmy' | 'mdy'; null: not chosen. */
  time_zone: string | null;
  hour_cycle: string | null;
  date_order: string | null;
  /** TOTP secret, encrypted (features/mfa): set while the second factor is on. */
  totp_secret: string | null;
  /** TOTP secret of an enrolment waiting for its first code, encrypted. */
  totp_pending_secret: string | null;
  /** The last TOTP time step a code was accepted for: a code is used once. */
  totp_last_step: number | null;
  /** The verified phone number SMS alerts go to (E.164), or null. */
  phone: string | null;
  phone_verified_at: number | null;
}

/** A user's passkey (WebAuthn credential, issue 38 item 2), by its credential id (base64url). */
export interface PasskeysTable {
  id: string;
  user_id: string;
  /** The name the user gave it. */
  name: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** The authenticator's signature counter at its last use (0: it keeps none). */
  counter: number;
  /** JSON: the transports the browser reported (`internal`, `hybrid`, `usb`, …). */
  transports: string;
  created_at: number;
  last_used_at: number | null;
}

/** A WebAuthn ceremony's challenge: taken once, dead after `expires_at`. */
export interface WebauthnChallengesTable {
  challenge: string;
  /** `register`, `signIn` (no password) or `secondFactor`. */
  purpose: string;
  /** Null for a passwordless sign-in, whose user is not known yet. */
  user_id: string | null;
  expires_at: number;
}

/** One-time recovery codes of a user's second factor, as hashes. */
export interface MfaRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: number | null;
}

export interface AttachmentPointsTable {
  id: string;
  user_id: string;
  account_id: string;
  /** Order of the user's attachment points; permissions come from the first (ordinal 0). */
  ordinal: number;
  path: string;
  permissions: string;
  secret_permissions: string;
  app_type: string;
}

export interface DevicesTable {
  id: string;
  account_id: string;
  group_id: string;
  thing_name: string;
  secret_hash: string;
  name: string;
  sn: string | null;
  site: string | null;
  plan: string;
  fw: string | null;
  model: string | null;
  hw: string | null;
  base: string | null;
  custom: string | null;
  esp_fw: string | null;
  hw_platform: string | null;
  update_point: string | null;
  upload_interval: number | null;
  log_interval: number | null;
  time_date: string | null;
  channels: string;
  registers: string;
  ports: string;
  location: string | null;
  tags: string;
  health: string | null;
  status: string;
  is_connected: number;
  last_connection: number | null;
  last_disconnection: number | null;
  ota_pending_submitted_at: number | null;
  /** JSON: the device's latest OTA update as the API shows it (features/ota), null when none. */
  ota_update: string | null;
  alarms_have_been_read: number;
  /** JSON object: the device's custom attributes (core §3 `customAttributes`). */
  custom_attributes: Generated<string>;
  /** Expanded-IO points the device reports it is configured for; null when it reports none. */
  expanded_io_max: Generated<number | null>;
  created_at: number;
}

export interface LatestValuesTable {
  device_id: string;
  code: string;
  t: number;
  value: number;
  extra: string | null;
}

export interface LogsTable {
  device_id: string;
  code: string;
  t: number;
  value: number;
}

/**
 * SQLite only: samples committed by the frame writer and not yet moved into `logs` and the roll-ups
 * (db/log-inbox.ts), one row per batch and shard of devices. `id` is the row id: the shard times
 * 2^40, plus the order of arrival; `body` the samples as JSON runs of one device each
 * (`[[device, [code, t, value, ...]], ...]`), `samples` how many.
 */
export interface LogInboxRunsTable {
  id: number;
  samples: number;
  body: string;
}

/** The columns both of PostgreSQL's roll-up inboxes have. */
interface RollupInboxRow {
  /** Order of appending (one sequence for both inboxes): of two latest values of one time, the later is kept. */
  id: Generated<number>;
  device_id: string;
  code: string;
  t: number;
  min_value: number | null;
  max_value: number | null;
  sum_value: number | null;
  sample_count: number;
}

/**
 * PostgreSQL: what batches add to the roll-ups and latest values, folded in by a move
 * (db/log-rollup-inbox.ts). `sample_count` > 0: one hour (`t`) of one channel's samples of a batch;
 * 0: a latest value (`last_t`, `last_value`, `extra`), its aggregates null.
 */
export interface LogRollupInboxTable extends RollupInboxRow {
  last_t: number;
  last_value: number;
  extra: string | null;
}

/**
 * PostgreSQL: what this release's batches add to the roll-ups and latest values
 * (db/log-rollup-inbox.ts): one row per channel and hour of a batch, with what its inserted samples
 * add to the roll-ups (`sample_count` 0, `last_t` and `last_value` null: none) and the channel's latest
 * value of the batch when it lies in that hour (`latest_t`, `latest_value`, `extra`; else null).
 */
export interface LogRollupLatestInboxTable extends RollupInboxRow {
  last_t: number | null;
  last_value: number | null;
  latest_t: number | null;
  latest_value: number | null;
  extra: string | null;
}

/**
 * One UTC hour of one channel's samples as one encoded block (db/sample-block-codec.ts): samples older
 * than a week, moved out of `logs` by the log maintenance job (db/log-blocks.ts).
 */
export interface LogBlocksTable {
  device_id: string;
  code: string;
  /** Start of the hour, unix ms. */
  t: number;
  sample_count: number;
  /** The hour's samples, oldest first, as `encodeSampleBlock` writes them. */
  block: Uint8Array;
}

/**
 * One bucket (an hour or a UTC day from `t`) of one channel's log, kept by `insertLogs`
 * (db/log-writes.ts) in the transaction that inserts the samples.
 */
export interface LogRollupTable {
  device_id: string;
  code: string;
  /** Start of the bucket, unix ms. */
  t: number;
  min_value: number;
  max_value: number;
  sum_value: number;
  sample_count: number;
  /** Time of the bucket's latest sample, and its value. */
  last_t: number;
  last_value: number;
}

/**
 * One period of one channel's hourly or daily roll-up (a UTC month of hours, a UTC year of days),
 * packed by the log maintenance job: the buckets as typed arrays in one binary column
 * (features/devices/rollup-packs.ts).
 */
export interface LogRollupPacksTable {
  device_id: string;
  code: string;
  /** Width of the month's buckets, ms (an hour or a day). */
  level: number;
  /** Start of the period, unix ms. */
  t: number;
  data: Uint8Array;
}

export interface ConnectionsTable {
  id: string;
  device_id: string;
  t: number;
  connected: number;
}

/** A personal API token (features/api-tokens; migration 2026-12-12T0300-api-tokens): its hash, never itself. */
export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  /** SHA-256 of the whole token (`hashSecret`). */
  token_hash: string;
  read_only: number;
  created_at: number;
  expires_at: number;
  last_used_at: number | null;
  last_used_address: string | null;
}

/** A signed-in session: one session JWT, `id` its jti (migration 2026-12-12T1100-sessions). */
export interface SessionsTable {
  id: string;
  user_id: string;
  user_agent: string | null;
  address: string | null;
  created_at: number;
  /** Written at most once a minute (`isLastUseDue`). */
  last_seen_at: number;
  expires_at: number;
  ended_at: number | null;
}

export interface RevokedTokensTable {
  jti: string;
  expires_at: number;
}

export interface InvitationsTable {
  code_hash: string;
  email: string;
  account_id: string;
  path: string;
  permissions: string;
  secret_permissions: string;
  app_type: string;
  invited_by: string | null;
  expires_at: number;
  used_at: number | null;
  /** 1: the user it becomes is monitor-only. */
  monitor_only: number;
}

export interface PasswordResetsTable {
  code_hash: string;
  user_id: string;
  expires_at: number;
  used_at: number | null;
}

export interface OutboxTable {
  id: string;
  to_address: string;
  subject: string;
  text: string;
  created_at: number;
  sent_at: number | null;
  error: string | null;
  /** JSON: stored files sent along (mail/mailer.ts MailAttachment[]); null for none. */
  attachments: string | null;
}

export interface EventLogTable {
  id: string;
  user_id: string | null;
  error: string;
  error_info: string | null;
  created_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** A message for a device, queued while it was offline (features/devices/message-queue.ts). */
export interface DeviceMessagesTable {
  id: string;
  device_id: string;
  target: string;
  message: string;
  /** pending | delivered | failed | expired | replaced */
  status: string;
  attempts: number;
  created_by: string | null;
  created_at: number;
  expires_at: number;
  claimed_at: number | null;
  settled_at: number | null;
  result: string | null;
}

/** A scene (dashboard) of a group (application spec §3). */
export interface ScenesTable {
  id: string;
  group_id: string;
  name: string;
  type: string;
  /** Order within the group. */
  position: number;
  is_grid_locked: number;
  /** JSON: grid items per breakpoint (lg, md, sm, xs, xxs). */
  grid_layout: string;
  created_at: number;
}

/** A widget of a scene. */
export interface WidgetsTable {
  id: string;
  scene_id: string;
  type: string;
  /** JSON: every field a user sets on the widget. */
  props: string;
  created_at: number;
  updated_at: number;
}

/** A channel's alarm configuration and where its evaluation stands (features/alarms). */
export interface AlarmConfigsTable {
  device_id: string;
  code: string;
  enabled: number;
  high: number | null;
  low: number | null;
  hysteresis: number;
  delay_seconds: number;
  severity: string;
  /** NORMAL | PENDING | ACTIVE */
  phase: string;
  /** HIGH | LOW while PENDING or ACTIVE */
  side: string | null;
  since: number | null;
  last_t: number | null;
  version: number;
  updated_by: string | null;
  updated_at: number;
}

/** One raised alarm, kept as history once cleared and acknowledged. */
export interface AlarmsTable {
  id: string;
  device_id: string;
  code: string;
  side: string;
  severity: string;
  threshold: number;
  value: number;
  raised_at: number;
  cleared_at: number | null;
  cleared_value: number | null;
  acknowledged_at: number | null;
  /** Id of the user who acknowledged it. */
  acknowledged_by: string | null;
  reminders_sent: number;
  escalated_at: number | null;
  /** Escalation steps taken along the account's on-call rota (issue 39 item 5). */
  escalation_steps: number;
}

/** An alert of the /alerts page (a disconnection). */
export interface AlertsTable {
  id: string;
  device_id: string;
  /** DISCONNECTED */
  kind: string;
  t: number;
  resolved_at: number | null;
}

/** A submission of an OTA update to some devices, paced and stopped at its failure threshold (features/ota). */
export interface OtaRolloutsTable {
  id: string;
  update_command: string;
  skip_approval: number;
  devices_per_minute: number;
  failure_threshold_percent: number;
  min_executed: number;
  failure_threshold_count: number | null;
  /** RUNNING | STOPPED | COMPLETED */
  state: string;
  stop_reason: string | null;
  started_at: number | null;
  dispatched: number;
  tick_job_id: string | null;
  created_by: string | null;
  created_at: number;
  finished_at: number | null;
}

/** One device's update of a rollout. */
export interface OtaUpdatesTable {
  id: string;
  rollout_id: string;
  device_id: string;
  /** Place in the submission's list of devices (the order a rollout sends in). */
  position: number;
  /** An OtaState of `@fieldlink/domain/ota`. */
  state: string;
  percent: number | null;
  update_command: string;
  submitted_at: number;
  submitted_by: string | null;
  approved_at: number | null;
  approved_by: string | null;
  sent_at: number | null;
  last_report_at: number | null;
  finished_at: number | null;
  reloaded_at: number | null;
  attempts: number;
  fw: string | null;
  error: string | null;
}

/** When each sprayer was last sent a broadcast spray (its cool-down, whatever group was named). */
export interface SprayerBroadcastsTable {
  device_id: string;
  sprayed_at: number;
  sprayed_by: string | null;
}

/** Where a product of a smart shelf stands (features/inventory; domain `ShelfProductTrack`). */
export interface RetailProductsTable {
  device_id: string;
  code: string;
  /** Time of the last reading. */
  t: number;
  count: number;
  /** EMPTY | LOW | GOOD */
  range_state: string;
  decreased_at: number | null;
  restocked_at: number | null;
  range_state_changed_at: number | null;
  sold_weight: number;
  stocked_hours: number;
}

/** A shelf's units sold and estimated lost sales on one UTC day. */
export interface RetailShelfDaysTable {
  device_id: string;
  /** UTC midnight, unix ms. */
  day: number;
  units_sold: number;
  lost_sales: number;
}

/** A document's file (documents/file-store.ts); its content is in stored_file_chunks. */
export interface StoredFilesTable {
  id: string;
  name: string;
  content_type: string;
  size: number;
  /** 0 while being written. */
  complete: number;
  created_at: number;
}

export interface StoredFileChunksTable {
  file_id: string;
  seq: number;
  data: Buffer;
}

/** A report (features/reports): application §3 "Report meta". */
export interface ReportsTable {
  id: string;
  account_id: string;
  name: string;
  comments: string | null;
  /** JSON array of strings. */
  tags: string;
  /** JSON: the report's template and period. */
  props: string;
  /** A ReportState of `@fieldlink/domain/reports`. */
  state: string;
  error: string | null;
  percent: number | null;
  /** The deepest group holding every device of the report. */
  scope_path: string;
  schedule_id: string | null;
  frequency: string | null;
  created_by: string;
  created_by_email: string;
  public_token: string | null;
  file_id: string | null;
  created_at: number;
  completed_at: number | null;
}

/** A report schedule: application §3. */
export interface ReportSchedulesTable {
  id: string;
  account_id: string;
  name: string;
  comments: string | null;
  tags: string;
  /** JSON: the report template and the timing. */
  props: string;
  scope_path: string;
  created_by: string;
  created_by_email: string;
  created_at: number;
  next_run_at: number | null;
  last_run_at: number | null;
  last_report_id: string | null;
  job_id: string | null;
}

/** A brewing tank's settings (features/brew); a device without a row has the defaults. */
export interface BrewTanksTable {
  device_id: string;
  capacity: number | null;
  co2_total_gain: number;
  /** JSON {scale, offset} or null. */
  tank_level: string | null;
  updated_by: string | null;
  updated_at: number;
}

export interface BrewBatchesTable {
  id: string;
  device_id: string;
  state: string;
  start_at: number;
  end_at: number | null;
  props: string;
  transitions: string;
  is_demo: number;
  channels_map: string;
  co2_total_gain: number;
  tank_level: string | null;
  tank_level_at_ferm_start: number | null;
  co2_total_at_start: number | null;
  pressurized_at: number | null;
  frozen_gravity: string | null;
  created_by: string | null;
  created_at: number;
}

export interface BrewGravitiesTable {
  id: string;
  batch_id: string;
  value: number;
  t: number;
  created_by: string | null;
}

export interface BrewSensoriesTable {
  id: string;
  batch_id: string;
  ratings: string;
  notes: string;
  t: number;
  created_by: string | null;
}

export interface BrewAnnotationsTable {
  id: string;
  batch_id: string;
  kind: string;
  text: string;
  t: number;
  color: string;
  channel_code: string | null;
  sensory_id: string | null;
}

export interface BrewReportsTable {
  id: string;
  batch_id: string;
  state: string;
  error: string | null;
  /** The PDF once READY (a stored file of the document runner). */
  file_id: string | null;
  created_by: string | null;
  created_at: number;
  generated_at: number | null;
}

/**
 * One row (id 1) of two counters bumped by triggers in the transaction of every write to what the
 * account tree shows (migration 2026-12-09T0200-account-tree-version): `tree` for its structure and
 * fields, `connection` for the devices' connection fields.
 */
export interface AccountTreeVersionTable {
  id: number;
  tree: number;
  connection: number;
}

/** One change, chained per account (features/audit; migration 2026-12-11T0400-audit-log). */
export interface AuditLogTable {
  id: string;
  account_id: string;
  seq: number;
  at: number;
  /** user | token | system */
  actor_kind: string;
  actor_id: string;
  actor_name: string;
  address: string | null;
  client: string | null;
  action: string;
  target_kind: string | null;
  target_id: string | null;
  target_name: string | null;
  device_id: string | null;
  /** JSON, or null where there is no value. */
  before: string | null;
  after: string | null;
  prev_hash: string;
  hash: string;
}

/** The head of one account's audit chain, and where it starts after retention. */
export interface AuditChainHeadsTable {
  account_id: string;
  seq: number;
  hash: string;
  start_seq: number;
  start_prev_hash: string;
}

/** A browser's Web Push subscription (features/push); the endpoint is unique. */
export interface PushSubscriptionsTable {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
}

/** An account's webhook (features/webhooks; migration 2026-12-12T0900-webhooks). */
export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of event names. */
  events: string;
  /** json | slack | teams */
  format: string;
  /** The signing secret, as shown once (docs/decisions.md, issue 39 item 3). */
  secret: string;
  created_at: number;
  updated_at: number;
}

/** One event on its way to one webhook. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  at: number;
  /** The event as JSON (Fieldlink's format); the body sent is made from it. */
  body: string;
  /** pending | delivered | failed */
  state: string;
  attempts: number;
  last_attempt_at: number | null;
  status: number | null;
  response_ms: number | null;
  detail: string | null;
  next_attempt_at: number | null;
}

/** One verification code sent by SMS (features/sms; migration 2026-12-12T1200-sms); its hash only. */
export interface PhoneCodesTable {
  id: string;
  user_id: string;
  phone: string;
  code_hash: string;
  created_at: number;
  expires_at: number;
  /** Wrong codes tried against it. */
  attempts: number;
  used_at: number | null;
}

/** One alarm SMS to one user. */
export interface SmsMessagesTable {
  id: string;
  user_id: string;
  alarm_id: string | null;
  body: string;
  /** pending | sent | failed */
  state: string;
  attempts: number;
  created_at: number;
  last_attempt_at: number | null;
  /** The gateway's last HTTP status. */
  status: number | null;
  /** The gateway's message id (`sid`) once sent. */
  sid: string | null;
  detail: string | null;
}

/** A user's notification preferences (issue 39 item 5); no row: the defaults. */
export interface NotificationPreferencesTable {
  user_id: string;
  /** JSON: the domain's `NotificationPreferences`. */
  preferences: string;
  updated_at: number;
}

/** One shift of an account's on-call rota (issue 39 item 5). */
export interface OnCallShiftsTable {
  id: string;
  account_id: string;
  user_id: string;
  /** The shift's place in the rota as it was stored. */
  ordinal: number;
  from_t: number;
  to_t: number;
}

/** A one-time acknowledge link already used, by its nonce (issue 39 item 5). */
export interface AlarmLinkUsesTable {
  nonce: string;
  alarm_id: string;
  user_id: string;
  used_at: number;
}

export interface Database {
  accounts: AccountsTable;
  groups: GroupsTable;
  users: UsersTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  attachment_points: AttachmentPointsTable;
  devices: DevicesTable;
  latest_values: LatestValuesTable;
  logs: LogsTable;
  logs_hourly: LogRollupTable;
  logs_daily: LogRollupTable;
  logs_rollup_packs: LogRollupPacksTable;
  log_blocks: LogBlocksTable;
  log_inbox_runs: LogInboxRunsTable;
  log_rollup_inbox: LogRollupInboxTable;
  log_rollup_latest_inbox: LogRollupLatestInboxTable;
  connections: ConnectionsTable;
  revoked_tokens: RevokedTokensTable;
  api_tokens: ApiTokensTable;
  sessions: SessionsTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  outbox: OutboxTable;
  event_log: EventLogTable;
  settings: SettingsTable;
  device_messages: DeviceMessagesTable;
  ota_rollouts: OtaRolloutsTable;
  ota_updates: OtaUpdatesTable;
  scenes: ScenesTable;
  widgets: WidgetsTable;
  alarm_configs: AlarmConfigsTable;
  alarms: AlarmsTable;
  alerts: AlertsTable;
  sprayer_broadcasts: SprayerBroadcastsTable;
  retail_products: RetailProductsTable;
  retail_shelf_days: RetailShelfDaysTable;
  stored_files: StoredFilesTable;
  stored_file_chunks: StoredFileChunksTable;
  reports: ReportsTable;
  report_schedules: ReportSchedulesTable;
  brew_tanks: BrewTanksTable;
  brew_batches: BrewBatchesTable;
  brew_gravities: BrewGravitiesTable;
  brew_sensories: BrewSensoriesTable;
  brew_annotations: BrewAnnotationsTable;
  brew_reports: BrewReportsTable;
  account_tree_version: AccountTreeVersionTable;
  audit_log: AuditLogTable;
  audit_chain_heads: AuditChainHeadsTable;
  push_subscriptions: PushSubscriptionsTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  phone_codes: PhoneCodesTable;
  sms_messages: SmsMessagesTable;
  notification_preferences: NotificationPreferencesTable;
  on_call_shifts: OnCallShiftsTable;
  alarm_link_uses: AlarmLinkUsesTable;
}
