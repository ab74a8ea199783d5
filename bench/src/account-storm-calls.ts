import type { StorageDialect } from './benchmark';
import type { DeviceCredentials } from './ingest-calls';
import type { ProcessUsage } from './process-meter';

/** Calls between the reconnect-storm benchmark (parent) and its server process. */

export interface StormServerReady {
  httpPort: number;
  mqttPort: number;
  storage: string;
  /** Time to write the fleet of 100,000 devices. */
  generateMs: number;
  /** The MQTT device whose frames are timed to their PUBACK while the storm runs. */
  device: DeviceCredentials;
  /** The supplier's admin, who sees the whole fleet: every console of the storm is theirs. */
  adminToken: string;
  /** A user of another account, whose plain API call is timed while the storm runs. */
  otherToken: string;
}

export type StormServerCalls = {
  setup(params: { dialect: StorageDialect; postgresUrl: string }): Promise<StormServerReady>;
  restart(params: null): Promise<{ httpPort: number; mqttPort: number }>;
  /** The ETag of the tree (columns, brotli) as it is now, the app's kept trees untouched. */
  treeTag(params: { token: string }): Promise<string>;
  mark(params: null): Promise<ProcessUsage>;
  shutdown(params: null): Promise<void>;
};
