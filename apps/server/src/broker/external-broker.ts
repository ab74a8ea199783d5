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

/** Shared mode: every instance joins this share group; the broker hands each frame to one of them. */
export const INGEST_SHARE_FILTER = `$share/fieldlink-ingest/${DEVICE_UP_FILTER}`;
/** Single mode: the cluster's one persistent session, held by one instance at a time. */
export const SINGLE_INGEST_CLIENT_ID = 'fieldlink-ingest';
/** How often a standby looks whether the single ingest session is free to take. */
const STANDBY_CLAIM_MS = 1000;

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
  /**
   * `single`: one instance at a time holds one persistent session on `dev/+/up` (survives broker
   * restarts on Mosquitto 2.0); `shared`: every instance holds a session in a shared subscription
   * (ingest scales out; Mosquitto 2.0 forgets shared subscriptions when it restarts).
   */
  ingestMode: 'single' | 'shared';
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
  /**
   * Subscriptions the broker granted to this instance's ingesting session since start: one when it
   * starts ingesting, and one more after every reconnect (after a broker restart, the moment from
   * which frames reach this instance again).
   */
  ingestSubscriptions(): number;
  /** Whether this instance's ingesting session is connected and subscribed now (single mode: on the holder only). */
  ingestSubscribed(): boolean;
}

/**
 * An existing MQTT broker (Mosquitto 2, EMQX) serving many Fieldlink instances. Frames arrive over
 * persistent MQTT 5 sessions, each frame acknowledged to the broker only once it is committed; a
 * session whose instance died is taken over by another instance through the session registry, so
 * what the broker holds for it is stored, not lost. A control connection sends commands,
 * provisions device accounts, and carries the cluster's server topics (docs/decisions.md
 * "Cluster").
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
  // The control connection carries the cluster's real-time events, many small publishes: without
  // TCP_NODELAY, Nagle's algorithm holds one back until the broker acknowledges the previous one,
  // which a delayed ACK puts off by up to 40 ms (the ingest sessions set it on their own sockets).
  const noDelay = () => (control.stream as { setNoDelay?: (noDelay: boolean) => void }).setNoDelay?.(true);
  noDelay();
  control.on('connect', noDelay);

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

  const shared = options.ingestMode === 'shared';
  /**
   * Shared mode, once this instance's session has subscribed again after a reconnect: devices whose
   * first frame since then, received live, was already taken as their report of being connected.
   * After a Mosquitto 2.0 restart the sessions are restored with the wills the broker sent as it
   * stopped, but not their shared subscription, so the `conn` frames the devices send as they
   * reconnect can fall into the gap before the instances subscribe again; without this, a device
   * would be shown disconnected until its next connection report (docs/decisions.md "Cluster").
   */
  let confirmed: Set<string> | null = null;

  /** A device frame from the broker: the checks the embedded broker makes before storing. */
  const onFrame = async (topic: string, payload: Buffer, backlogSince?: number): Promise<void> => {
    const thingName = thingNameFromUpTopic(topic);
    if (!thingName) return;
    // The broker cannot be asked to drop one device; oversized and over-rate frames are
    // acknowledged, counted and dropped.
    if (payload.length > MAX_FRAME_BYTES) return ingest.countRefused('oversized');
    if (publishRate.isOver(thingName)) return ingest.countRefused('rateLimited');
    const now = Date.now();
    const handled = await ingest.handle(thingName, payload, now, backlogSince);
    // A readable frame other than a connection report, received live, shows its device connected.
    if (confirmed && backlogSince === undefined && handled && handled.type !== 'conn' && !confirmed.has(thingName)) {
      // Dated when the frame arrived: a will from the backlog (dated when the backlog began) cannot
      // undo it; a will published later does.
      await ingest.connectionChanged(handled.device, true, now);
      confirmed.add(thingName);
    }
  };

  let subscriptions = 0;
  const onSubscribed = () => {
    subscriptions += 1;
    if (shared && subscriptions > 1) confirmed = new Set();
  };
  const newSession = (clientId: string, heldUntil?: number) =>
    new IngestSession({
      url,
      clientId,
      username,
      password,
      filter: shared ? INGEST_SHARE_FILTER : DEVICE_UP_FILTER,
      receiveMaximum: options.receiveMaximum ?? 1000,
      heldUntil,
      onMessage: onFrame,
      onSubscribed,
      logger,
    });

  /** This instance's ingesting session: its own in the shared mode; the cluster's, when held, in the single mode. */
  let own: IngestSession | null = null;
  const adopted = new Map<string, IngestSession>();

  /** Shared mode: a dead instance's session is drained (its frames stored) and ended. */
  const drainAdopted = async (clientId: string, heldUntil: number) => {
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

  /** Single mode: this instance becomes the holder of the cluster's session, backlog included. */
  const hold = async (heldUntil?: number) => {
    if (own) return;
    const session = newSession(SINGLE_INGEST_CLIENT_ID, heldUntil);
    own = session;
    try {
      await session.start({ timeoutMs: 60_000 });
      logger.info({ clientId: SINGLE_INGEST_CLIENT_ID }, 'This instance now ingests for the cluster');
    } catch (error) {
      logger.warn({ error: (error as Error).message }, 'Could not open the ingest session; giving it up');
      own = null;
      await session.close();
      await sessions.abandon(SINGLE_INGEST_CLIENT_ID).catch(() => undefined);
    }
  };

  /** Single mode: a standby takes the cluster's session when nobody holds it (not once closing). */
  let claiming: Promise<void> | null = null;
  let closing = false;
  const claimIfFree = async () => {
    if (shared || own || claiming || closing) return;
    claiming = sessions
      .claim(SINGLE_INGEST_CLIENT_ID)
      .then((mine) => (mine ? hold() : undefined))
      .finally(() => (claiming = null));
    await claiming;
  };

  if (shared) {
    own = newSession(`fieldlink-ingest-${randomBytes(8).toString('hex')}`);
    await sessions.register(own.clientId);
    await own.start();
  } else if (await sessions.claim(SINGLE_INGEST_CLIENT_ID)) {
    await hold();
  }

  sessions.start({
    onAdopt: (clientId, heldUntil) => {
      if (clientId === SINGLE_INGEST_CLIENT_ID) void hold(heldUntil);
      else void drainAdopted(clientId, heldUntil);
    },
    onLost: (clientId) => {
      const session = adopted.get(clientId) ?? (own?.clientId === clientId ? own : null);
      if (!session) return;
      void session.close();
      if (session !== own) return;
      own = null;
      if (!shared) return; // single mode: another instance holds the session now; stand by
      // Another instance took our old session: carry on under a new one.
      const fresh = newSession(`fieldlink-ingest-${randomBytes(8).toString('hex')}`);
      own = fresh;
      void sessions
        .register(fresh.clientId)
        .then(() => fresh.start({ timeoutMs: 60_000 }))
        .catch((error: unknown) =>
          logger.warn({ error: (error as Error).message }, 'Could not open a new ingest session'),
        );
    },
    onTick: claimIfFree,
  });
  // A stopping holder gives the session back (a rolling upgrade): a standby takes it within a second.
  const standby = shared ? null : setInterval(() => void claimIfFree().catch(() => undefined), STANDBY_CLAIM_MS);
  standby?.unref();

  const deviceUrl = options.deviceUrl ?? address;
  logger.info(
    { broker: address, mode: options.ingestMode, clientId: own?.clientId ?? 'standby' },
    'Connected to the MQTT broker',
  );

  return {
    kind: 'external',
    port: 0,
    tlsPort: null,
    deviceUrl,
    credentials,
    transport,
    handleStream(stream) {
      // Devices use the external broker's own WebSocket listener.
      stream.destroy();
    },
    async sendCommand(thingName, command) {
      // MQTT 5 message expiry: the broker drops the command from a device's queued session once its
      // `exp` has passed, so a device reconnecting later never receives it (SECURITY.md 16).
      const messageExpiryInterval = Math.max(1, Math.ceil((command.exp - Date.now()) / 1000));
      await control.publishAsync(deviceDownTopic(thingName), JSON.stringify(command), {
        qos: 1,
        properties: { messageExpiryInterval },
      });
    },
    connectedClients() {
      return (control.connected ? 1 : 0) + (own?.connected ? 1 : 0) + adopted.size;
    },
    inFlight() {
      let total = own?.inFlight ?? 0;
      for (const session of adopted.values()) total += session.inFlight;
      return total;
    },
    ingestSubscriptions() {
      return subscriptions;
    },
    ingestSubscribed() {
      return own?.connected ?? false;
    },
    async close() {
      closing = true;
      if (standby) clearInterval(standby);
      await claiming?.catch(() => undefined);
      await sessions.stop();
      const current = own;
      if (current && shared) {
        // Hand back cleanly: store what the session holds and end it; if that cannot finish (the
        // database is away), keep it at the broker for another instance to adopt.
        if (await current.drainAndEnd({ timeoutMs: 5000 })) {
          await sessions.release(current.clientId).catch(() => undefined);
        }
      } else if (current) {
        // The cluster's session stays at the broker, frames not yet stored included; a standby
        // takes it over at once.
        await current.settle(5000);
        await current.close();
        await sessions.release(current.clientId).catch(() => undefined);
      }
      await Promise.all([...adopted.values()].map((session) => session.close()));
      await control.endAsync();
    },
  };
}
