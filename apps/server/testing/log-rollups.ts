import type { Kysely } from 'kysely';
import type { Database, LogRollupTable, LogsTable } from '../src/db/schema';
import { ROLLUP_LEVELS } from '../src/db/log-writes';
import { bucketRows, mergeBuckets } from '../src/features/devices/rollup-packs';

/**
 * Hourly or daily buckets of samples computed the obvious way (what the roll-up tables must hold), in
 * key order: the reference the roll-up tests compare the tables with.
 */
export function referenceRollups(samples: readonly LogsTable[], width: number): LogRollupTable[] {
  const buckets = new Map<string, LogsTable[]>();
  for (const sample of samples) {
    const key = `${sample.device_id}/${sample.code}/${Math.floor(sample.t / width) * width}`;
    buckets.set(key, [...(buckets.get(key) ?? []), sample]);
  }
  return [...buckets.values()]
    .map((values) => {
      const last = values.reduce((a, b) => (b.t > a.t ? b : a));
      return {
        device_id: last.device_id,
        code: last.code,
        t: Math.floor(last.t / width) * width,
        min_value: Math.min(...values.map((v) => v.value)),
        max_value: Math.max(...values.map((v) => v.value)),
        sum_value: values.reduce((sum, v) => sum + v.value, 0),
        sample_count: values.length,
        last_t: last.t,
        last_value: last.value,
      };
    })
    .sort((a, b) => a.device_id.localeCompare(b.device_id) || a.code.localeCompare(b.code) || a.t - b.t);
}

/** Every stored sample, in key order. */
export function storedLogs(db: Kysely<Database>) {
  return db
    .selectFrom('logs')
    .select(['device_id', 'code', 't', 'value'])
    .orderBy('device_id')
    .orderBy('code')
    .orderBy('t')
    .execute();
}

/** Every latest value, in key order. */
export function storedLatest(db: Kysely<Database>) {
  return db
    .selectFrom('latest_values')
    .select(['device_id', 'code', 't', 'value', 'extra'])
    .orderBy('device_id')
    .orderBy('code')
    .execute();
}

/** Every bucket of a roll-up table, in key order. */
export function storedRollups(db: Kysely<Database>, table: 'logs_hourly' | 'logs_daily') {
  return db.selectFrom(table).selectAll().orderBy('device_id').orderBy('code').orderBy('t').execute();
}

/**
 * Every bucket of a roll-up level, packed periods and table rows alike (a bucket in both combined as
 * reads combine it), in key order: what the roll-up holds whatever the log maintenance job has packed.
 */
export async function allRollups(db: Kysely<Database>, table: 'logs_hourly' | 'logs_daily') {
  const level = ROLLUP_LEVELS.find((rollup) => rollup.table === table)!.width;
  const packed = await db
    .selectFrom('logs_rollup_packs')
    .select(['device_id', 'code', 'level', 't', 'data'])
    .where('level', '=', level)
    .execute();
  const channels = new Map<string, { packed: LogRollupTable[]; rows: LogRollupTable[] }>();
  const channel = (deviceId: string, code: string) => {
    const key = `${deviceId}\u0000${code}`;
    let found = channels.get(key);
    if (!found) channels.set(key, (found = { packed: [], rows: [] }));
    return found;
  };
  for (const row of packed) {
    channel(row.device_id, row.code).packed.push(...bucketRows(row));
  }
  for (const row of await storedRollups(db, table)) channel(row.device_id, row.code).rows.push(row);
  return [...channels.values()]
    .flatMap((buckets) => mergeBuckets(buckets.packed, buckets.rows))
    .sort((a, b) =>
      a.device_id < b.device_id
        ? -1
        : a.device_id > b.device_id
          ? 1
          : a.code < b.code
            ? -1
            : a.code > b.code
              ? 1
              : a.t - b.t,
    );
}
