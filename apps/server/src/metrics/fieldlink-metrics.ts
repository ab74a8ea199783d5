import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { DeviceBroker } from '../broker/device-broker';
import type { EventRelay } from '../cluster/event-relay';
import type { Ingest } from '../ingest/ingest';
import type { JobQueue } from '../jobs/job-queue';
import type { RealtimeHub } from '../realtime/hub';
import { MetricsRegistry, type Histogram } from './registry';

export interface MetricSources {
  db: Kysely<Database>;
  ingest: Ingest;
  hub: RealtimeHub;
  jobs: JobQueue;
  broker: () => DeviceBroker | null;
  relay: () => EventRelay | null;
}

export interface FieldlinkMetrics {
  registry: MetricsRegistry;
  httpSeconds: Histogram;
  stop(): void;
}

/** Answers the last value for `ttlMs`, so a scrape every few seconds costs one query, not one per scrape. */
function cached<T>(ttlMs: number, read: () => Promise<T>): () => Promise<T> {
  let value: { at: number; result: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (!value || now - value.at > ttlMs) {
      const result = read();
      value = { at: now, result };
      result.catch(() => (value = null));
    }
    return value.result;
  };
}

/**
 * The metrics `/metrics` exposes. Counters of this process (a Prometheus server sums instances);
 * gauges read from the database (`fieldlink_devices_connected`, `fieldlink_jobs`) are the cluster's
 * and the same on every instance.
 */
export function createFieldlinkMetrics(sources: MetricSources): FieldlinkMetrics {
  const registry = new MetricsRegistry();
  const { ingest, hub, jobs, db } = sources;

  registry.collect(
    'counter',
    'fieldlink_ingest_frames_total',
    'Device frames read and stored.',
    () => ingest.counters.frames,
  );
  registry.collect(
    'counter',
    'fieldlink_ingest_data_points_total',
    'Channel values stored from log frames.',
    () => ingest.counters.dataPoints,
  );
  registry.collect(
    'counter',
    'fieldlink_ingest_rejected_frames_total',
    'Device frames refused or dropped, by reason.',
    () => [
      { labels: { reason: 'unreadable' }, value: ingest.counters.rejected },
      { labels: { reason: 'oversized' }, value: ingest.counters.oversized },
      { labels: { reason: 'rate_limited' }, value: ingest.counters.rateLimited },
      { labels: { reason: 'future_timestamp' }, value: ingest.counters.futureDropped },
    ],
  );
  const storedSeconds = registry.histogram(
    'fieldlink_ingest_store_seconds',
    'From a frame reaching this process to its rows being committed (when the broker is acknowledged).',
  );
  ingest.observeStored = (seconds) => storedSeconds.observe(seconds);

  registry.collect(
    'gauge',
    'fieldlink_mqtt_connections',
    'MQTT connections this process holds: devices on the embedded broker, or its own sessions at an external broker.',
    () => sources.broker()?.connectedClients() ?? 0,
  );
  registry.collect(
    'gauge',
    'fieldlink_ingest_frames_in_flight',
    'Frames received from the external broker and not yet committed.',
    () => {
      const broker = sources.broker();
      return broker && 'inFlight' in broker ? (broker as { inFlight(): number }).inFlight() : null;
    },
  );
  registry.collect(
    'counter',
    'fieldlink_ingest_subscriptions_total',
    "Subscriptions the external broker granted to this process's ingest session: one at start, one after every reconnect.",
    () => {
      const broker = sources.broker();
      return broker && 'ingestSubscriptions' in broker
        ? (broker as { ingestSubscriptions(): number }).ingestSubscriptions()
        : null;
    },
  );
  registry.collect(
    'gauge',
    'fieldlink_ingest_subscribed',
    "1 while this process's ingest session at the external broker is connected and subscribed (single mode: the holder).",
    () => {
      const broker = sources.broker();
      if (!broker || !('ingestSubscribed' in broker)) return null;
      return (broker as { ingestSubscribed(): boolean }).ingestSubscribed() ? 1 : 0;
    },
  );
  const connectedDevices = cached(5000, async () => {
    const row = await db
      .selectFrom('devices')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('is_connected', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
  registry.collect('gauge', 'fieldlink_devices_connected', 'Devices whose last connection report says connected.', () =>
    connectedDevices(),
  );
  registry.collect(
    'gauge',
    'fieldlink_realtime_sockets',
    'Browser real-time sockets open on this process.',
    () => hub.socketCount,
  );
  registry.collect(
    'counter',
    'fieldlink_realtime_read_pauses_total',
    'Times a browser socket sent past its message budget and was not read for a while.',
    () => hub.readPauses,
  );

  const jobDepth = cached(5000, () => jobs.depth());
  registry.collect('gauge', 'fieldlink_jobs', 'Background jobs waiting (queued) or given up (failed).', async () => {
    const depth = await jobDepth();
    return [
      { labels: { state: 'queued' }, value: depth.queued },
      { labels: { state: 'failed' }, value: depth.failed },
    ];
  });
  registry.collect('counter', 'fieldlink_jobs_run_total', 'Job attempts run by this process, by outcome.', () => [
    { labels: { outcome: 'succeeded' }, value: jobs.counters.succeeded },
    { labels: { outcome: 'retried' }, value: jobs.counters.retried },
    { labels: { outcome: 'failed' }, value: jobs.counters.failed },
  ]);
  registry.collect(
    'counter',
    'fieldlink_cluster_messages_total',
    'Messages relayed between instances, by direction.',
    () => {
      const relay = sources.relay();
      if (!relay) return null;
      return [
        { labels: { direction: 'sent' }, value: relay.counters.sent },
        { labels: { direction: 'received' }, value: relay.counters.received },
        { labels: { direction: 'dropped' }, value: relay.counters.dropped },
      ];
    },
  );

  const databaseUp = cached(2000, async () => {
    try {
      await db.selectFrom('settings').select('key').limit(1).execute();
      return 1;
    } catch {
      return 0;
    }
  });
  registry.collect('gauge', 'fieldlink_database_up', '1 when the database answers.', () => databaseUp());

  const httpSeconds = registry.histogram(
    'fieldlink_http_request_duration_seconds',
    'API answer times by method, route and status class.',
  );

  const loopDelay = monitorEventLoopDelay({ resolution: 20 });
  loopDelay.enable();
  registry.collect(
    'gauge',
    'fieldlink_event_loop_delay_seconds',
    'Event loop delay of this process (p50, p99, max).',
    () => {
      const samples = [
        { labels: { quantile: '0.5' }, value: loopDelay.percentile(50) / 1e9 },
        { labels: { quantile: '0.99' }, value: loopDelay.percentile(99) / 1e9 },
        { labels: { quantile: '1' }, value: loopDelay.max / 1e9 },
      ];
      loopDelay.reset();
      return samples;
    },
  );
  registry.collect('gauge', 'process_resident_memory_bytes', 'Resident memory of this process.', () =>
    process.memoryUsage.rss(),
  );
  registry.collect('gauge', 'nodejs_heap_used_bytes', 'V8 heap in use.', () => process.memoryUsage().heapUsed);

  return { registry, httpSeconds, stop: () => loopDelay.disable() };
}
