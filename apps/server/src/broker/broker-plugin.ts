import fp from 'fastify-plugin';
import { startClusterNode } from '../cluster/cluster-node';
import { startEmbeddedBroker } from './embedded-broker';

/**
 * Devices connect last, once every feature that follows their frames is in: to the external broker
 * named by `MQTT_URL` (a cluster node, with its relay to the other instances), else to the embedded
 * broker on `app.launch`'s ports. Sets `app.broker` (and in a cluster `app.relay` and `app.deviceAccounts`).
 */
export const brokerPlugin = fp(
  async (app) => {
    const { config, tlsCredentials: tls } = app;
    // The ports the starting process chose (tests take any free one); MQTT over TLS serves the HTTPS certificate.
    const { mqttPort, plainMqtt, mqttTlsPort } = app.launch;
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
        timers: app.launch.timers,
        proxyProtocol: config.mqttProxyProtocol,
      });
    }
    app.shutdown.add('broker', () => app.broker?.close());
  },
  { name: 'broker', dependencies: ['settings', 'tls', 'storage', 'shutdown', 'ingest', 'hub'] },
);
