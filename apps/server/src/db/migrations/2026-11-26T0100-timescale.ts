import type { Kysely } from 'kysely';

// Retired. This step once turned `logs` into a TimescaleDB hypertable where the extension existed; no
// installation could test it (Debian ships no TimescaleDB package), so it never ran anywhere. Native
// monthly partitions and roll-ups replace it (2026-12-05T0000-log-partitions-rollups). The name stays
// listed so databases that recorded it still migrate.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(_db: Kysely<any>): Promise<void> {}
