import type { Kysely } from 'kysely';
import type { Config } from '../config';
import type { Database } from '../db/schema';
import type { AccessChange, DeviceEvents } from '../events';
import type { Ingest, ReplySink } from '../ingest/ingest';
import { startExternalBroker, type ExternalBroker } from '../broker/external-broker';
import type { IngestSessionLogger } from '../broker/ingest-session';
import { withClusterTables } from './cluster-tables';
import { EventRelay } from './event-relay';
import { IngestSessionRegistry } from './ingest-sessions';

export interface ClusterNodeOptions {
  config: Config;
  db: Kysely<Database>;
  ingest: Ingest;
  events: DeviceEvents;
  /** Where replies relayed from other instances go (the command service). */
  replies: ReplySink;
  /** Applies a change of access relayed from another instance (the hub). */
  applyAccess: (change: AccessChange) => void;
  logger: IngestSessionLogger;
}

export interface ClusterNode {
  broker: ExternalBroker;
  relay: EventRelay;
}

/**
 * This instance's place in a cluster on an external MQTT broker (`MQTT_URL`): its ingest session in
 * the shared subscription, the registry through which sessions of dead instances are adopted, and
 * the relay that carries events and command replies to the other instances.
 */
export async function startClusterNode(options: ClusterNodeOptions): Promise<ClusterNode> {
  const { config, logger } = options;
  if (!config.mqttUrl) throw new Error('Cluster mode needs MQTT_URL');
  const sessions = new IngestSessionRegistry(withClusterTables(options.db), config.instanceId, {
    leaseMs: config.clusterLeaseSeconds * 1000,
    logger,
  });
  const broker = await startExternalBroker({
    url: config.mqttUrl,
    username: config.mqttAdminUsername ?? undefined,
    password: config.mqttAdminPassword ?? undefined,
    deviceUrl: config.mqttDeviceUrl ?? undefined,
    instanceId: config.instanceId,
    ingest: options.ingest,
    sessions,
    provisioning: config.mqttProvisioning,
    ingestMode: config.mqttIngest,
    maxFramesPerSecond: config.mqttMaxFramesPerSecond,
    logger,
  });
  const relay = new EventRelay(broker.transport, options.events, options.replies, logger, options.applyAccess);
  try {
    await relay.start();
  } catch (error) {
    await broker.close();
    throw error;
  }
  const close = broker.close.bind(broker);
  return {
    relay,
    broker: Object.assign(broker, {
      async close() {
        relay.stop();
        await close();
      },
    }),
  };
}
