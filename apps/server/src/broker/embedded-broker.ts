import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import { MAX_FRAME_BYTES } from '@fieldlink/api/device-frames';
import { deviceDownTopic, deviceUpTopic, isThingName } from '@fieldlink/api/mqtt-topics';
import type { DeviceDirectory } from '../ingest/device-directory';
import type { Ingest } from '../ingest/ingest';
import { PublishRate } from '../ingest/publish-rate';
import { RateLimiter } from '../security/rate-limit';
import { secretMatches } from '../security/secrets';
import { toMillis } from '@fieldlink/domain/timestamps';
import type { DeviceBroker } from './device-broker';
import { guardPacketSizes } from './packet-guard';
import { acceptProxied } from './proxy-protocol';
import type { TlsCredentials } from '../security/tls-credentials';
import { REAL_TIMERS, type Timers } from '../timers';
import { ownDrainTimeout, type DrainingClient } from './drain-timeout';

/** How long a proxied connection may take to send its PROXY protocol header. */
const PROXY_HEADER_TIMEOUT_MS = 5_000;

export interface BrokerLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface EmbeddedBrokerOptions {
  /** Plain MQTT's port (0: any free port); null: no plain MQTT. */
  port: number | null;
  /** MQTT over TLS, on its own port (0: any free port), with certificates that may be renewed while it runs. */
  tls?: { port: number; credentials: TlsCredentials } | null;
  host?: string;
  directory: DeviceDirectory;
  ingest: Ingest;
  logger: BrokerLogger;
  /** Frames per second one device may publish, averaged over 10 s. */
  maxFramesPerSecond?: number;
  /** How long a device's full socket may stay full before the device is dropped (`MQTT_DRAIN_TIMEOUT_MS`). */
  drainTimeoutMs?: number;
  /** The timers of the drain timeout (real ones unless a test moves them). */
  timers?: Timers;
  /** Plain MQTT connections come from a load balancer and begin with a PROXY protocol v2 header (`MQTT_PROXY_PROTOCOL`). */
  proxyProtocol?: boolean;
}

function authError(message: string, returnCode: 3 | 4 | 5): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

/** The address a connection comes from (TCP, or the WebSocket's request). */
const sourceAddresses = new WeakMap<object, string>();
function sourceOf(client: Client): string {
  const connection = client.conn as unknown as object;
  return sourceAddresses.get(connection) ?? (client.conn as net.Socket).remoteAddress ?? 'unknown';
}

/**
 * True when a command on a device's down topic has passed its expiry: a session resumed after it
 * must not receive it (SECURITY.md 16). A payload that is not a command with `exp` is not expired.
 */
function commandExpired(payload: Buffer | string, nowMs: number): boolean {
  try {
    const exp = (JSON.parse(payload.toString()) as { exp?: unknown }).exp;
    return typeof exp === 'number' && toMillis(exp) <= nowMs;
  } catch {
    return false;
  }
}

/**
 * Aedes in the server process. Devices authenticate with their own credentials and may publish only
 * to `dev/{own thingName}/up` and subscribe only to `dev/{own thingName}/down`. Frames are stored in
 * `authorizePublish`, which Aedes completes before it sends PUBACK: a QoS 1 frame is acknowledged
 * only once committed. Sessions live in memory (docs/decisions.md).
 */
export async function startEmbeddedBroker(options: EmbeddedBrokerOptions): Promise<DeviceBroker> {
  const { directory, ingest, logger } = options;
  const drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
  const timers = options.timers ?? REAL_TIMERS;
  const publishRate = new PublishRate(options.maxFramesPerSecond ?? 200);
  // Failed connects count against the address they come from, so whoever knows only a thing name
  // cannot lock the real device out; a device in a reconnect loop is held to 20 connects a minute
  // only once it has authenticated.
  const failedByAddress = new RateLimiter(20, 60_000);
  const connectsByDevice = new RateLimiter(20, 60_000);

  const aedes = await Aedes.createBroker({
    maxClientsIdLength: 64,
    // The broker keeps the drain timeout itself, on `options.timers` (ownDrainTimeout in `handle`).
    drainTimeout: 0,
    connectTimeout: 10_000,
    // No cap on deliveries in flight, so no queue inside the broker's emitter (mqemitter). With a cap,
    // a device that stops reading holds a slot with every command waiting for its socket to drain; once
    // it holds them all, every publish of every device waits in that queue until the drain timeout
    // drops it. The queue is then emptied by a synchronous recursion (`released` -> `_do` ->
    // `fastparallel` -> `released`) whenever a message completes at once, as a command to the dropped
    // device or any frame with no subscriber does: tens of thousands queued overflowed the stack and
    // ended the process (issue 34). What may be in flight is bounded by what reaches the broker:
    // devices subscribe only to their own command topic, so only commands sent to them wait (real-time
    // ones capped per socket, user and device: realtime/hub.ts), until the drain timeout drops a
    // stalled device.
    concurrency: 0,
    preConnect(client, _packet, callback) {
      if (failedByAddress.isLimited(sourceOf(client))) return callback(new Error('Too many failed connects'), false);
      callback(null, true);
    },
    authenticate(client, username, password, done) {
      // Fail closed: any error while checking is a refusal.
      const thingName = client.id;
      const refuse = (error: AuthenticateError) => {
        failedByAddress.hit(sourceOf(client));
        done(error, false);
      };
      if (!username || username !== thingName || !isThingName(thingName) || !password) {
        return refuse(authError('Bad user name or password', 4));
      }
      directory.find(thingName).then(
        (device) => {
          if (!device || !secretMatches(password.toString('utf8'), device.secretHash)) {
            return refuse(authError('Bad user name or password', 4));
          }
          if (!connectsByDevice.reserve(thingName)) return done(authError('Too many connects', 3), false);
          done(null, true);
        },
        () => done(authError('Server unavailable', 5), false),
      );
    },
    authorizePublish(client, packet, callback) {
      if (!client) return callback(new Error('Only devices publish'));
      // The client's id passed `isThingName` when it connected, so its own up topic is the only one
      // whose thing name is its id: a comparison, not a split and a pattern per frame.
      if (packet.topic !== deviceUpTopic(client.id)) return callback(new Error('Topic not allowed'));
      if (packet.payload.length > MAX_FRAME_BYTES) {
        ingest.countRefused('oversized');
        return callback(new Error('Frame too large'));
      }
      if (packet.retain) packet.retain = false; // device frames are never retained
      if (publishRate.isOver(client.id)) {
        ingest.countRefused('rateLimited');
        return callback(new Error('Publish rate exceeded'));
      }
      // Not copied: the frame is read in this turn (a known device) or once its device is looked up,
      // and nothing keeps the payload after that (a copy was about 1 % of the main thread).
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      ingest.handle(client.id, payload).then(
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
    // Checked again on every delivery, retained messages and restored sessions included; a command
    // whose expiry passed while the device was away is dropped (a resumed session would deliver it).
    authorizeForward(client, packet) {
      if (packet.topic !== deviceDownTopic(client.id)) return null;
      return commandExpired(packet.payload, Date.now()) ? null : packet;
    },
  });

  const onConnection = (client: Client, connected: boolean) => {
    // A storage failure here must not become an unhandled rejection, which would end the process.
    directory
      .find(client.id)
      .then((device) => device && ingest.connectionChanged(device, connected))
      .catch((error: unknown) =>
        logger.warn({ thingName: client.id, error: String(error) }, 'Connection state not stored'),
      );
  };
  aedes.on('client', (client) => onConnection(client, true));
  aedes.on('clientDisconnect', (client) => {
    publishRate.forget(client.id);
    onConnection(client, false);
  });
  // One line per connection: a dropped connection fails each delivery still queued for it, which
  // logged the same error once per queued command (thousands for a stalled device).
  const reportedErrors = new WeakSet<Client>();
  aedes.on('clientError', (client, error) => {
    if (reportedErrors.has(client)) return;
    reportedErrors.add(client);
    logger.warn({ thingName: client.id, error: error.message }, 'MQTT client error');
  });

  /** Feeds a connection to Aedes behind the packet-size guard. */
  const handle = (stream: Duplex, source?: string) => {
    if (source) sourceAddresses.set(stream, source);
    guardPacketSizes(stream, (reason) =>
      logger.warn({ source: source ?? (stream as net.Socket).remoteAddress, reason }, 'MQTT connection refused'),
    );
    // Aedes's client has `waitForDrain` and `conn` (aedes/lib/client.js); its types leave them out.
    ownDrainTimeout(aedes.handle(stream) as unknown as DrainingClient, drainTimeoutMs, timers);
  };
  // Every open TCP connection, so a stop can end the ones Aedes does not know yet (a device still in
  // CONNECT or authentication would otherwise hold the stop until the connect timeout).
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const accept = (socket: net.Socket, source?: string) => handle(socket, source);
  // Behind a load balancer the connection's own address is the balancer's: the device's comes first.
  const acceptPlain = options.proxyProtocol
    ? (socket: net.Socket) =>
        acceptProxied(socket, PROXY_HEADER_TIMEOUT_MS, accept, (reason) =>
          logger.warn({ source: socket.remoteAddress, reason }, 'MQTT connection refused'),
        )
    : accept;
  const listen = async (server: net.Server, port: number, scheme: 'mqtt' | 'mqtts') => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, options.host ?? '0.0.0.0', () => resolve());
    });
    const address = server.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    logger.info({ port: bound, scheme }, 'MQTT broker listening');
    return bound;
  };
  const servers: net.Server[] = [];
  let plainPort: number | null = null;
  if (options.port !== null) {
    const server = net.createServer(acceptPlain).on('connection', track);
    servers.push(server);
    plainPort = await listen(server, options.port, 'mqtt');
  }
  let tlsPort: number | null = null;
  if (options.tls) {
    // A handshake that fails (a scanner, an old client) is the client's problem, not an error here.
    const server = tls.createServer(options.tls.credentials.serverOptions, (socket) => accept(socket));
    server.on('tlsClientError', () => undefined).on('connection', track);
    options.tls.credentials.follow(server);
    servers.push(server);
    tlsPort = await listen(server, options.tls.port, 'mqtts');
  }
  if (plainPort === null && tlsPort === null) throw new Error('The embedded broker needs plain MQTT or MQTT over TLS');
  // The in-process demo fleet connects here: plain MQTT when it is on, else over TLS.
  const deviceUrl = plainPort !== null ? `mqtt://127.0.0.1:${plainPort}` : `mqtts://127.0.0.1:${tlsPort}`;

  return {
    kind: 'embedded',
    port: plainPort ?? 0,
    tlsPort,
    deviceUrl,
    handleStream(stream, source) {
      handle(stream, source);
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
      // Take no new connection first: devices reconnect within a second, and one that lands while the
      // broker closes would keep the listener open.
      const stopped = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
      await new Promise<void>((resolve) => aedes.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await Promise.all(stopped);
    },
  };
}
