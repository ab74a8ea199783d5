import fp from 'fastify-plugin';
import { startClusterNode } from '../cluster/cluster-node';
import type { TlsCredentials } from '../security/tls-credentials';
import { startEmbeddedBroker } from './embedded-broker';

export interface BrokerPluginOptions {
  /** Port of the embedded MQTT broker (0: any free port); null runs without a broker. */
  mqttPort: number | null;
  /** False: the embedded broker takes no plain MQTT, only MQTT over TLS. */
  plainMqtt: boolean;
  /** Port of the embedded broker's MQTT over TLS when TLS is configured (0: any free port). */
  mqttTlsPort: number;
  /** The HTTPS server's certificate, which MQTT over TLS serves too (reloaded on change); null without TLS. */
  tls: TlsCredentials | null;
}

/**
 * Devices connect last, once every feature that follows their frames is in: to the external broker
 * named by `MQTT_URL` (a cluster node, with its relay to the other instances), else to the embedded
 * broker. Sets `app.broker` (and in a cluster `app.relay` and `app.deviceAccounts`).
 */
export const brokerPlugin = fp<BrokerPluginOptions>(
  async (app, { mqttPort, plainMqtt, mqttTlsPort, tls }) => {
    const { config } = app;
    if (config.mqttUrl) {
      const node = await startClusterNode({
        config,
        db: app.storage.db,
        ingest: app.ingest,
        events: app.events,
        replies: app.commands,
        applyAccess: (change) => app.hub.applyAccessChange(change),
        logger: app.log,
      });
      app.broker = node.broker;
      app.relay = node.relay;
      app.deviceAccounts = node.broker.credentials;
    } else if (mqttPort !== null) {
      app.broker = await startEmbeddedBroker({
        port: plainMqtt ? mqttPort : null,
        tls: tls && { port: mqttTlsPort, credentials: tls },
        directory: app.directory,
        ingest: app.ingest,
        logger: app.log,
        maxFramesPerSecond: config.mqttMaxFramesPerSecond,
        drainTimeoutMs: config.mqttDrainTimeoutMs,
        proxyProtocol: config.mqttProxyProtocol,
      });
    }
    app.shutdown.add('tls', () => tls?.close());
    app.shutdown.add('broker', () => app.broker?.close());
  },
  { name: 'broker', dependencies: ['settings', 'storage', 'shutdown', 'ingest', 'hub'] },
);
