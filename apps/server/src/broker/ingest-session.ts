import net from 'node:net';
import tls from 'node:tls';
import mqttPacket, { type IPublishPacket, type Packet } from 'mqtt-packet';

export interface IngestSessionLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}

export interface IngestSessionOptions {
  /** `mqtt://host:port` or `mqtts://host:port`. */
  url: URL;
  clientId: string;
  username?: string;
  password?: string;
  /** The subscription this session holds, e.g. `$share/fieldlink-ingest/dev/+/up`. */
  filter: string;
  /** Frames the broker may have in flight to this session before it queues (MQTT 5 Receive Maximum). */
  receiveMaximum?: number;
  /** How long the broker keeps the session while nobody is connected to it. */
  sessionExpirySeconds?: number;
  keepaliveSeconds?: number;
  /**
   * Stores a frame; resolves once committed. A rejection is retried, and the frame stays
   * unacknowledged meanwhile. `backlogSince`: the frame was held by the broker for this session
   * while nobody was connected to it, since about then.
   */
  onMessage(topic: string, payload: Buffer, backlogSince?: number): Promise<void>;
  /**
   * The session was last held (by a dead instance) until then: what the broker held for it is
   * backlog since then. Without it, backlog starts when this object's own connection was lost.
   */
  heldUntil?: number;
  /**
   * The broker granted this session's subscription: once after start, and again after every
   * reconnect (a broker restart loses shared subscriptions even when it restores the session).
   */
  onSubscribed?: () => void;
  logger: IngestSessionLogger;
}

const PROTOCOL = { protocolVersion: 5 } as const;
const RETRY_MS = [250, 500, 1000, 2000, 5000];
/**
 * Reconnecting after the link or the broker went away: prompt, so that the session is subscribed
 * again soon after a broker restart (Mosquitto 2.0 forgets shared subscriptions, and frames that
 * arrive before a member subscribes again are dropped). At most one attempt a second per session.
 */
const RECONNECT_MS = [100, 250, 500, 1000];
/** MQTT 5 DISCONNECT reason: another connection took this client id (an instance adopting the session). */
const SESSION_TAKEN_OVER = 0x8e;

/**
 * One persistent MQTT 5 session that receives device frames and acknowledges each to the broker
 * only once it is committed. mqtt.js handles incoming publishes one at a time (its PUBACK gates the
 * next packet), which would cap ingest at one database commit per frame; this client lets up to
 * `receiveMaximum` frames be stored together in one batch and acknowledges them as their commits
 * land. A frame not acknowledged when the connection drops stays in the session: the broker sends it
 * again to whoever connects with this client id (the instance itself, or the one that adopts its
 * session, docs/decisions.md "Cluster").
 */
export class IngestSession {
  private socket: net.Socket | null = null;
  /** Bumped on every connection: a PUBACK belongs to the connection that received the publish. */
  private generation = 0;
  private stopped = false;
  private nextMessageId = 1;
  private readonly awaiting = new Map<number, { resolve: (packet: Packet) => void; reject: (error: Error) => void }>();
  private readonly handling = new Set<Promise<void>>();
  private lastMessageAt = 0;
  private keepaliveTimer: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private attempts = 0;
  private subscribed = false;
  /** When the last established connection was lost. */
  private lostAt: number | null;
  /**
   * Between a resumed session's CONNACK and the SUBACK of its subscription: Mosquitto sends what it
   * held for the session right after CONNACK, before it reads our SUBSCRIBE, so these are backlog.
   */
  private catchingUp = false;
  private established = false;
  /**
   * The broker refused the connection or gave this client id to another connection: reconnect with
   * the long back-off, not the prompt one (no tight loop against bad credentials or a session's new
   * holder).
   */
  private refused = false;
  private connectedOnce: { resolve: () => void; reject: (error: Error) => void } | null = null;
  /**
   * Frames received and acknowledged since start, attempts to store them again, and subscriptions
   * the broker granted (one per connection that subscribes).
   */
  readonly counters = { received: 0, acknowledged: 0, retried: 0, subscribed: 0 };

  constructor(private readonly options: IngestSessionOptions) {
    this.lostAt = options.heldUntil ?? null;
  }

  get clientId(): string {
    return this.options.clientId;
  }

  get inFlight(): number {
    return this.handling.size;
  }

  get connected(): boolean {
    return this.socket !== null && this.subscribed;
  }

  /**
   * Connects and subscribes (`subscribe: false` only restores the session, to drain it). Resolves
   * once the first connection is up; rejects after `timeoutMs` without one. Reconnects by itself
   * afterwards.
   */
  start({ subscribe = true, timeoutMs = 30_000 } = {}): Promise<void> {
    this.subscribed = false;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.connectedOnce = null;
        reject(new Error(`No connection to the MQTT broker at ${this.options.url.host} after ${timeoutMs} ms`));
      }, timeoutMs);
      this.connectedOnce = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.connect(subscribe);
    });
  }

  /**
   * Ends the session for good: unsubscribes (nothing new is routed here), stores and acknowledges
   * everything the broker still holds for it, then disconnects with session expiry 0 so the broker
   * deletes it. Answers false, leaving the session in place, when that does not finish in time.
   */
  async drainAndEnd({ quietMs = 500, timeoutMs = 30_000 } = {}): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    try {
      await this.request({ cmd: 'unsubscribe', messageId: 0, unsubscriptions: [this.options.filter] }, timeoutMs);
    } catch (error) {
      this.options.logger.warn(
        { clientId: this.options.clientId, error: (error as Error).message },
        'Could not unsubscribe',
      );
      await this.close();
      return false;
    }
    this.subscribed = false;
    // Queued frames follow as in-flight slots free up: quiet with nothing in hand means empty.
    while (Date.now() < deadline) {
      if (this.handling.size === 0 && Date.now() - this.lastMessageAt >= quietMs) {
        this.stopped = true;
        this.send({ cmd: 'disconnect', reasonCode: 0, properties: { sessionExpiryInterval: 0 } });
        await this.endSocket();
        return true;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await this.close();
    return false;
  }

  /** Disconnects, keeping the session (and any frame not yet acknowledged) at the broker. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.socket) this.send({ cmd: 'disconnect', reasonCode: 0 });
    await this.endSocket();
  }

  /** Waits until every frame in hand is stored (or `timeoutMs` passes). */
  async settle(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.handling.size > 0 && Date.now() < deadline) await Promise.race([...this.handling, delay(50)]);
    return this.handling.size === 0;
  }

  private connect(subscribe: boolean): void {
    if (this.stopped) return;
    const { url } = this.options;
    const port = Number(url.port) || (url.protocol === 'mqtts:' ? 8883 : 1883);
    const host = url.hostname;
    const socket =
      url.protocol === 'mqtts:' ? tls.connect({ host, port, servername: host }) : net.connect({ host, port });
    socket.setNoDelay(true);
    const generation = ++this.generation;
    this.socket = socket;
    const parser = mqttPacket.parser(PROTOCOL);
    parser.on('packet', (packet: Packet) => this.onPacket(packet, generation, subscribe));
    parser.on('error', (error: Error) => {
      this.options.logger.warn({ clientId: this.options.clientId, error: error.message }, 'Bad packet from broker');
      socket.destroy();
    });
    socket.on('data', (data: Buffer) => parser.parse(data));
    socket.on('error', () => undefined); // followed by close
    socket.on('close', () => this.onClose(generation, subscribe));
    socket.once(url.protocol === 'mqtts:' ? 'secureConnect' : 'connect', () => {
      this.send({
        cmd: 'connect',
        protocolId: 'MQTT',
        protocolVersion: 5,
        clientId: this.options.clientId,
        clean: false,
        keepalive: this.options.keepaliveSeconds ?? 30,
        username: this.options.username,
        password: this.options.password === undefined ? undefined : Buffer.from(this.options.password),
        properties: {
          sessionExpiryInterval: this.options.sessionExpirySeconds ?? 7 * 24 * 3600,
          receiveMaximum: this.options.receiveMaximum ?? 1000,
        },
      });
    });
  }

  private onPacket(packet: Packet, generation: number, subscribe: boolean): void {
    if (generation !== this.generation) return;
    switch (packet.cmd) {
      case 'connack': {
        if (packet.reasonCode !== 0 && packet.reasonCode !== undefined) {
          const error = new Error(`The MQTT broker refused the connection (reason ${packet.reasonCode})`);
          this.options.logger.warn({ clientId: this.options.clientId, reason: packet.reasonCode }, error.message);
          this.refused = true;
          this.socket?.destroy();
          return;
        }
        if (this.lostAt !== null) {
          this.options.logger.info(
            { clientId: this.options.clientId, sessionPresent: packet.sessionPresent, attempts: this.attempts },
            'Ingest session connected again',
          );
        }
        this.attempts = 0;
        this.refused = false;
        this.established = true;
        this.catchingUp = packet.sessionPresent && this.lostAt !== null;
        this.startKeepalive(generation);
        if (!subscribe) {
          this.connectedOnce?.resolve();
          this.connectedOnce = null;
          return;
        }
        // Subscribed again on every connection, whatever `sessionPresent` says: harmless when the
        // session kept its subscription, needed when the broker lost it (a restart without
        // persistence, and Mosquitto 2.0 restores sessions but not their `$share/…` subscriptions).
        this.request(
          { cmd: 'subscribe', messageId: 0, subscriptions: [{ topic: this.options.filter, qos: 1, rh: 2 }] },
          10_000,
        ).then(
          (suback) => {
            const granted = (suback as { granted?: number[] }).granted?.[0];
            if (granted !== 1 && granted !== 0) {
              const error = new Error(`The MQTT broker refused the subscription to ${this.options.filter}`);
              this.options.logger.warn({ clientId: this.options.clientId, granted }, error.message);
              this.connectedOnce?.reject(error);
              this.connectedOnce = null;
              return;
            }
            this.subscribed = true;
            this.catchingUp = false;
            this.counters.subscribed += 1;
            if (this.counters.subscribed > 1) {
              this.options.logger.info({ clientId: this.options.clientId }, 'Ingest session subscribed again');
            }
            this.options.onSubscribed?.();
            this.connectedOnce?.resolve();
            this.connectedOnce = null;
          },
          () => this.socket?.destroy(),
        );
        return;
      }
      case 'publish':
        this.onPublish(packet, generation);
        return;
      case 'suback':
      case 'unsuback': {
        const waiter = this.awaiting.get(packet.messageId ?? -1);
        if (waiter) {
          this.awaiting.delete(packet.messageId!);
          waiter.resolve(packet);
        }
        return;
      }
      case 'disconnect':
        this.options.logger.warn(
          { clientId: this.options.clientId, reason: packet.reasonCode },
          'The MQTT broker ended the ingest session',
        );
        if (packet.reasonCode === SESSION_TAKEN_OVER) this.refused = true;
        this.socket?.destroy();
        return;
      default:
        return; // pingresp: the keep-alive timer only needs traffic
    }
  }

  private onPublish(packet: IPublishPacket, generation: number): void {
    this.lastMessageAt = Date.now();
    this.counters.received += 1;
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    // A session being drained never subscribes: all it gets is backlog.
    const backlogSince = this.catchingUp ? (this.lostAt ?? undefined) : undefined;
    const run = this.store(packet.topic, payload, backlogSince).then((stored) => {
      this.handling.delete(run);
      if (!stored) return;
      // A PUBACK on a later connection would acknowledge a different message with the same id:
      // after a reconnect the broker sends this one again (a harmless duplicate).
      if (packet.qos > 0 && generation === this.generation && this.socket) {
        this.send({ cmd: 'puback', messageId: packet.messageId!, reasonCode: 0 });
        this.counters.acknowledged += 1;
      }
    });
    this.handling.add(run);
  }

  /** Stores one frame, retrying while the database is unavailable; gives up (false) only once closed. */
  private async store(topic: string, payload: Buffer, backlogSince: number | undefined): Promise<boolean> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.options.onMessage(topic, payload, backlogSince);
        return true;
      } catch (error) {
        if (this.stopped) return false;
        this.counters.retried += 1;
        if (attempt === 0) {
          this.options.logger.warn(
            { clientId: this.options.clientId, error: (error as Error).message },
            'Frame not stored; kept unacknowledged and retried',
          );
        }
        await delay(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!);
      }
    }
  }

  private request(packet: Packet, timeoutMs: number): Promise<Packet> {
    const messageId = this.nextMessageId;
    this.nextMessageId = (this.nextMessageId % 65535) + 1;
    return new Promise<Packet>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.awaiting.delete(messageId);
        reject(new Error(`No answer to ${packet.cmd} in ${timeoutMs} ms`));
      }, timeoutMs);
      this.awaiting.set(messageId, {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      this.send({ ...packet, messageId } as Packet);
    });
  }

  private send(packet: Packet): void {
    if (this.socket && !this.socket.destroyed) this.socket.write(mqttPacket.generate(packet, PROTOCOL));
  }

  private startKeepalive(generation: number): void {
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    const seconds = this.options.keepaliveSeconds ?? 30;
    let lastRead = this.socket?.bytesRead ?? 0;
    let missed = 0;
    this.keepaliveTimer = setInterval(
      () => {
        if (generation !== this.generation || !this.socket) return;
        const read = this.socket.bytesRead;
        missed = read === lastRead ? missed + 1 : 0;
        lastRead = read;
        // Nothing heard for two half-periods after a ping: the link is dead even if TCP has not noticed.
        if (missed >= 3) {
          this.socket.destroy();
          return;
        }
        this.send({ cmd: 'pingreq' });
      },
      (seconds * 1000) / 2,
    );
    this.keepaliveTimer.unref();
  }

  private onClose(generation: number, subscribe: boolean): void {
    if (generation !== this.generation) return;
    this.socket = null;
    this.subscribed = false;
    this.catchingUp = false;
    // Failed attempts while the broker is away do not move the time the session was lost.
    if (this.established) {
      this.lostAt = Date.now();
      if (!this.stopped)
        this.options.logger.warn({ clientId: this.options.clientId }, 'Ingest session lost; reconnecting');
    }
    this.established = false;
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    for (const waiter of this.awaiting.values()) waiter.reject(new Error('Connection closed'));
    this.awaiting.clear();
    if (this.stopped) return;
    const steps = this.refused ? RETRY_MS : RECONNECT_MS;
    const wait = steps[Math.min(this.attempts, steps.length - 1)]! * (0.5 + Math.random() / 2);
    this.attempts += 1;
    this.reconnectTimer = setTimeout(() => this.connect(subscribe), wait);
  }

  private async endSocket(): Promise<void> {
    const socket = this.socket;
    if (this.keepaliveTimer) clearInterval(this.keepaliveTimer);
    if (!socket) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      socket.end();
      setTimeout(() => socket.destroy(), 1000).unref();
    });
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
