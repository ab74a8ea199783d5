// The server's one entry for code outside it that measures or drives it (bench/): the app, its storage
// and the few internals a benchmark times on their own. Lint (`import-x/no-restricted-paths`) lets
// bench/ and scripts/ reach the server only through this module and `services.ts`, so what they
// depend on is listed here, not spread over the server's folders.
export { buildApp } from '../src/app';
export { loadConfig, type Config, type LogRetention } from '../src/config';
export { migrate, openStorage } from '../src/db/database';
export type { Database, DevicesTable } from '../src/db/schema';
export { hourOf } from '../src/db/log-blocks';
export { encodeInboxBody, INBOX_SHARD_SPAN, INBOX_SHARDS, inboxRows, inboxShard, moveInbox } from '../src/db/log-inbox';
export { rollUpStoredSamples } from '../src/db/log-writes';
export { startCheckpointer } from '../src/db/sqlite-checkpointer';
export { withClusterTables } from '../src/cluster/cluster-tables';
export { BATCH_DELAY_MS, BATCH_MAX_ROWS, POSTGRES_BATCHES_IN_FLIGHT } from '../src/ingest/frame-writer';
export { DeviceTableService } from '../src/features/device-table/service';
export { AccountService } from '../src/features/accounts/service';
export {
  LogMaintenance,
  LOG_MAINTENANCE_JOB,
  logPartitions,
  partitionNameOf,
} from '../src/features/devices/log-maintenance';
export { channelLogArrays } from '../src/features/devices/log-repository';
export { insertDevice } from '../src/features/devices/repository';
export { monthStartOf, packClosedMonths } from '../src/features/devices/rollup-packs';
export { insertAttachmentPoint, insertUser } from '../src/features/session/repository';
export type { UserContext } from '../src/features/session/user-context';
export { newId } from '../src/security/secrets';
export { seedDemo } from '../src/seed/seed';
export { freshPostgres, type FreshPostgres } from './fresh-postgres';
export { serverStartTimeoutMs, startServerProcess, type ServerProcess } from './cluster/server-process';
export { until } from './until';
export { MOSQUITTO_BIN, startMosquitto, waitForPort, type TestMosquitto } from './cluster/mosquitto';
export { freePort } from './ports';
export { startTestPushService } from './push-service';
export { startWebhookReceiver } from './webhook-receiver';
export type { DeviceClockAnswer, DeviceClockRequest } from '../src/simulator-clock';
export {
  canRollUpgrade,
  PREVIOUS_RELEASE,
  ROLL_BROWSERS,
  ROLL_DEVICES,
  startRollingUpgrade,
  type RollResult,
} from './cluster/rolling-upgrade';
