import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** Row types of the cluster tables (migration 2026-11-26T0000-cluster). */
export interface JobsTable {
  id: string;
  kind: string;
  /** JSON. */
  payload: string;
  /** queued | failed; a job that succeeds is deleted. */
  state: string;
  run_at: number;
  attempts: number;
  max_attempts: number;
  locked_by: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
}

export interface IngestSessionsTable {
  /** MQTT client id of a persistent ingest session at the broker. */
  client_id: string;
  /** The instance that holds (or is draining) the session. */
  instance_id: string;
  heartbeat_at: number;
  created_at: number;
}

// A type alias, not an interface: Kysely's withTables wants an index-signature-compatible record.
export type ClusterTables = {
  jobs: JobsTable;
  ingest_sessions: IngestSessionsTable;
};

/** The database with the cluster tables typed; kept beside them so db/schema.ts stays the feature tables'. */
export type ClusterDatabase = Kysely<Database & ClusterTables>;

export function withClusterTables(db: Kysely<Database>): ClusterDatabase {
  return db.withTables<ClusterTables>();
}
