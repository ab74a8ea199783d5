import net from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { MAX_FRAME_BYTES } from '@fieldlink/api/device-frames';
import { deviceDownTopic, isThingName, thingNameFromUpTopic } from '@fieldlink/api/mqtt-topics';
import type { DeviceDirectory } from '../ingest/device-directory';
import type { Ingest } from '../ingest/ingest';
import { PublishRate } from '../ingest/publish-rate';
import { RateLimiter } from '../security/rate-limit';
import { secretMatches } from '../security/secrets';
import type { DeviceBroker } from './device-broker';

export interface BrokerLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface EmbeddedBrokerOptions {
  port: number;
  host?: string;
  directory: DeviceDirectory;
  ingest: Ingest;
  logger: BrokerLogger;
  /** Frames per second one device may publish, averaged over 10 s. */
  maxFramesPerSecond?: number;
}

function authError(message: string, returnCode: 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/**
 * Aedes in the server process. Devices authenticate with their own credentials and may publish only
 * to `dev/{own thingName}/up` and subscribe only to `dev/{own thingName}/down`. Frames are stored in
 * `authorizePublish`, which Aedes completes before it sends PUBACK: a QoS 1 frame is acknowledged
 * only once committed. Sessions live in memory (docs/decisions.md).
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<DeviceBroker> {
  const { directory, ingest, logger } = options;
  const publishRate = new PublishRate(options.maxFramesPerSecond ?? 200);
  // A device in a reconnect loop must not cost a credential check each time: 20 connects a minute.
  const connects = new RateLimiter(20, 60_000);

  const aedes = await Aedes.createBroker({
    maxClientsIdLength: 64,
    drainTimeout: 10_000,
    connectTimeout: 10_000,
    concurrency: 1000,
    preConnect(_client, packet, callback) {
      const key = packet.clientId || 'anonymous';
      if (connects.isLimited(key)) return callback(new Error('Too many connects'), false);
      connects.hit(key);
      callback(null, true);
    },
    authenticate(client, username, password, done) {
      // Fail closed: any error while checking is a refusal.
      const thingName = client.id;
      if (!username || username !== thingName || !isThingName(thingName) || !password) {
        return done(authError('Bad user name or password', 4), false);
      }
      directory.find(thingName).then(
        (device) => {
          if (device && secretMatches(password.toString('utf8'), device.secretHash)) done(null, true);
          else done(authError('Bad user name or password', 4), false);
        },
        () => done(authError('Server unavailable', 5), false),
      );
    },
    authorizePublish(client, packet, callback) {
      if (!client) return callback(new Error('Only devices publish'));
      if (thingNameFromUpTopic(packet.topic) !== client.id) return callback(new Error('Topic not allowed'));
      if (packet.payload.length > MAX_FRAME_BYTES) {
        ingest.countRefused('oversized');
        return callback(new Error('Frame too large'));
      }
      if (packet.retain) packet.retain = false; // device frames are never retained
      if (publishRate.isOver(client.id)) {
        ingest.countRefused('rateLimited');
        return callback(new Error('Publish rate exceeded'));
      }
      ingest.handle(client.id, Buffer.from(packet.payload)).then(
        () => callback(null),
        // Not stored (database unavailable): refuse, so the device keeps and resends the frame.
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
    authorizeSubscribe(client, subscription, callback) {
      // Refused with SUBACK 0x80; the connection stays up.
      if (subscription.topic !== deviceDownTopic(client.id)) return callback(null, null);
      callback(null, subscription);
    },
    // Checked again on every delivery, retained messages and restored sessions included.
    authorizeForward(client, packet) {
      return packet.topic === deviceDownTopic(client.id) ? packet : null;
    },
  });

  const onConnection = (client: Client, connected: boolean) => {
    directory.find(client.id).then(
      (device) => device && ingest.connectionChanged(device, connected),
      () => undefined,
    );
  };
  aedes.on('client', (client) => onConnection(client, true));
  aedes.on('clientDisconnect', (client) => {
    publishRate.forget(client.id);
    onConnection(client, false);
  });
  aedes.on('clientError', (client, error) =>
    logger.warn({ thingName: client.id, error: error.message }, 'MQTT client error'),
  );

  const server = net.createServer((socket) => aedes.handle(socket));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  logger.info({ port }, 'MQTT broker listening');

  return {
    kind: 'embedded',
    port,
    deviceUrl: `mqtt://127.0.0.1:${port}`,
    handleStream(stream) {
      aedes.handle(stream);
    },
    sendCommand(thingName, command) {
      return new Promise((resolve, reject) =>
        aedes.publish(
          {
            cmd: 'publish',
            topic: deviceDownTopic(thingName),
            payload: Buffer.from(JSON.stringify(command)),
            qos: 1,
            retain: false,
            dup: false,
          },
          (error) => (error ? reject(error) : resolve()),
        ),
      );
    },
    connectedClients() {
      return aedes.connectedClients;
    },
    async close() {
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
