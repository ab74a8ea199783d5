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
  root_group_id: string;
  created_at: number;
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
  alarms_have_been_read: number;
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

export interface ConnectionsTable {
  id: string;
  device_id: string;
  t: number;
  connected: number;
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

export interface Database {
  accounts: AccountsTable;
  groups: GroupsTable;
  users: UsersTable;
  attachment_points: AttachmentPointsTable;
  devices: DevicesTable;
  latest_values: LatestValuesTable;
  logs: LogsTable;
  connections: ConnectionsTable;
  revoked_tokens: RevokedTokensTable;
  invitations: InvitationsTable;
  password_resets: PasswordResetsTable;
  outbox: OutboxTable;
  event_log: EventLogTable;
  settings: SettingsTable;
  device_messages: DeviceMessagesTable;
}
