import { randomBytes } from 'node:crypto';
import mqtt, { type MqttClient } from 'mqtt';
import { MAX_FRAME_BYTES } from '@fieldlink/api/device-frames';
import { DEVICE_UP_FILTER, deviceDownTopic, thingNameFromUpTopic } from '@fieldlink/api/mqtt-topics';
import type { ClusterTransport } from '../cluster/cluster-transport';
import type { IngestSessionRegistry } from '../cluster/ingest-sessions';
import type { Ingest } from '../ingest/ingest';
import { PublishRate } from '../ingest/publish-rate';
import { DATABASE_CREDENTIALS, type DeviceBroker, type DeviceCredentialStore } from './device-broker';
import { IngestSession, type IngestSessionLogger } from './ingest-session';
import { MosquittoDynsec } from './mosquitto-dynsec';

/** Every instance joins this share group: the broker hands each frame to one of them. */
export const INGEST_SHARE_FILTER = `$share/fieldlink-ingest/${DEVICE_UP_FILTER}`;

export interface ExternalBrokerOptions {
  /** `mqtt://host:1883` or `mqtts://host:8883`; credentials may be in the URL. */
  url: string;
  username?: string;
  password?: string;
  /** Where devices connect (shown to operators, used by the demo fleet); default: `url` without credentials. */
  deviceUrl?: string;
  instanceId: string;
  ingest: Ingest;
  sessions: IngestSessionRegistry;
  /** `dynsec`: provision device accounts into Mosquitto's dynamic security; `none`: the broker asks Fieldlink (EMQX HTTP auth). */
  provisioning: 'dynsec' | 'none';
  maxFramesPerSecond?: number;
  /** Frames in flight from the broker to each ingest session. */
  receiveMaximum?: number;
  logger: IngestSessionLogger;
}

export interface ExternalBroker extends DeviceBroker {
  readonly kind: 'external';
  readonly credentials: DeviceCredentialStore;
  readonly transport: ClusterTransport;
  /** Frames in hand (received, not yet committed) across this instance's ingest sessions. */
  inFlight(): number;
}

/**
 * An existing MQTT broker (Mosquitto 2, EMQX) serving many Fieldlink instances. Each instance holds
 * one persistent MQTT 5 session in the shared subscription `$share/fieldlink-ingest/dev/+/up`, and
 * acknowledges a frame to the broker only once it is committed; a control connection sends
 * commands, provisions device accounts, and carries the cluster's server topics.
 */
export async function startExternalBroker(options: ExternalBrokerOptions): Promise<ExternalBroker> {
  const url = new URL(options.url);
  const username = options.username ?? (url.username ? decodeURIComponent(url.username) : undefined);
  const password = options.password ?? (url.password ? decodeURIComponent(url.password) : undefined);
  url.username = '';
  url.password = '';
  const address = `${url.protocol}//${url.host}`;
  const { ingest, sessions, logger } = options;
  const publishRate = new PublishRate(options.maxFramesPerSecond ?? 200);

  const control: MqttClient = await mqtt.connectAsync(address, {
    clientId: `fieldlink-control-${options.instanceId}`,
    username,
    password,
    protocolVersion: 5,
    clean: true,
    reconnectPeriod: 2000,
    connectTimeout: 10_000,
  });
  control.on('error', (error) => logger.warn({ error: error.message }, 'MQTT control connection error'));
  control.on('offline', () => logger.warn({}, 'MQTT control connection lost; reconnecting'));

  let credentials: DeviceCredentialStore = DATABASE_CREDENTIALS;
  if (options.provisioning === 'dynsec') {
    const dynsec = new MosquittoDynsec(control, username);
    await dynsec.setUp();
    credentials = dynsec;
  }

  const handlers = new Map<string, (payload: Buffer) => void>();
  control.on('message', (topic, payload) => handlers.get(topic)?.(payload));
  const transport: ClusterTransport = {
    instanceId: options.instanceId,
    async publish(topic, payload) {
      await control.publishAsync(topic, payload, { qos: 0 });
    },
    async subscribe(topic, onMessage) {
      handlers.set(topic, onMessage);
      // No local: this instance's own messages are not sent back to it.
      await control.subscribeAsync(topic, { qos: 0, nl: true });
    },
  };

  /** A device frame from the broker: the checks the embedded broker makes before storing. */
  const onFrame = async (topic: string, payload: Buffer, backlogSince?: number): Promise<void> => {
    const thingName = thingNameFromUpTopic(topic);
    if (!thingName) return;
    // The broker cannot be asked to drop one device; oversized and over-rate frames are
    // acknowledged, counted and dropped.
    if (payload.length > MAX_FRAME_BYTES) return ingest.countRefused('oversized');
    if (publishRate.isOver(thingName)) return ingest.countRefused('rateLimited');
    await ingest.handle(thingName, payload, Date.now(), backlogSince);
  };

  const newSession = (clientId: string, backlogSince?: number) =>
    new IngestSession({
      backlogSince,
      url,
      clientId,
      username,
      password,
      filter: INGEST_SHARE_FILTER,
      receiveMaximum: options.receiveMaximum ?? 1000,
      onMessage: onFrame,
      logger,
    });

  const newClientId = () => `fieldlink-ingest-${randomBytes(8).toString('hex')}`;
  let own = newSession(newClientId());
  const adopted = new Map<string, IngestSession>();
  await sessions.register(own.clientId);
  await own.start();

  const drainAdopted = async (clientId: string, heldUntil: number) => {
    // Everything in a dead instance's session was held for it since it stopped renewing its lease.
    const session = newSession(clientId, heldUntil);
    adopted.set(clientId, session);
    try {
      await session.start({ subscribe: false });
      if (await session.drainAndEnd()) {
        logger.info({ clientId, stored: session.counters.acknowledged }, 'Adopted ingest session drained and ended');
        await sessions.release(clientId);
      } else {
        await sessions.abandon(clientId);
      }
    } catch (error) {
      logger.warn({ clientId, error: (error as Error).message }, 'Adopted ingest session not drained; retried later');
      await session.close();
      await sessions.abandon(clientId).catch(() => undefined);
    } finally {
      adopted.delete(clientId);
    }
  };

  sessions.start({
    onAdopt: (clientId, heldUntil) => void drainAdopted(clientId, heldUntil),
    onLost: (clientId) => {
      const session = adopted.get(clientId);
      if (session) {
        void session.close();
        return;
      }
      if (clientId !== own.clientId) return;
      // Another instance holds our old session now: carry on under a new one.
      const lost = own;
      own = newSession(newClientId());
      void lost.close();
      void sessions
        .register(own.clientId)
        .then(() => own.start({ timeoutMs: 60_000 }))
        .catch((error: unknown) =>
          logger.warn({ error: (error as Error).message }, 'Could not open a new ingest session'),
        );
    },
  });

  const deviceUrl = options.deviceUrl ?? address;
  logger.info({ broker: address, clientId: own.clientId }, 'Ingesting from the MQTT broker');

  return {
    kind: 'external',
    port: 0,
    deviceUrl,
    credentials,
    transport,
    handleStream(stream) {
      // Devices use the external broker's own WebSocket listener.
      stream.destroy();
    },
    async sendCommand(thingName, command) {
      await control.publishAsync(deviceDownTopic(thingName), JSON.stringify(command), { qos: 1 });
    },
    connectedClients() {
      return (control.connected ? 1 : 0) + (own.connected ? 1 : 0) + adopted.size;
    },
    inFlight() {
      let total = own.inFlight;
      for (const session of adopted.values()) total += session.inFlight;
      return total;
    },
    async close() {
      await sessions.stop();
      // Hand back cleanly: store what the session holds and end it; if that cannot finish (the
      // database is away), keep it at the broker for another instance to adopt.
      const ended = await own.drainAndEnd({ timeoutMs: 5000 });
      if (ended) await sessions.release(own.clientId).catch(() => undefined);
      await Promise.all([...adopted.values()].map((session) => session.close()));
      await control.endAsync();
    },
  };
}
