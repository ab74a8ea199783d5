import type { ReplyFrame } from '@fieldlink/api/device-frames';
import type { AccessChange, DeviceEvent, DeviceEvents } from '../events';
import type { ReplySink } from '../ingest/ingest';
import { CLUSTER_TOPICS, type ClusterTransport } from './cluster-transport';

export interface EventRelayLogger {
  warn(object: object, message: string): void;
}

/** Largest relay message: well under a broker's packet limit sized for 16 KiB device frames. */
const MAX_MESSAGE_BYTES = 15 * 1024;

interface EventsMessage {
  from: string;
  events: DeviceEvent[];
}

interface AccessMessage {
  from: string;
  change: AccessChange;
}

interface ReplyMessage {
  from: string;
  thingName: string;
  reply: ReplyFrame;
}

/**
 * Carries device events and command replies between the instances of a cluster. Events stored here
 * are gathered for one turn of the event loop and sent in messages of at most 15 KiB; events from
 * the other instances are emitted on the local bus as `remote`, so the hub serves them and this
 * relay does not send them on again.
 */
export class EventRelay {
  private pending: string[] = [];
  private pendingBytes = 0;
  private scheduled = false;
  private stopListening: (() => void) | null = null;
  readonly counters = { sent: 0, received: 0, dropped: 0 };

  constructor(
    private readonly transport: ClusterTransport,
    private readonly events: DeviceEvents,
    private readonly replies: ReplySink,
    private readonly logger: EventRelayLogger,
    /** Applies a change of access relayed from another instance to this one's sockets. */
    private readonly applyAccess: (change: AccessChange) => void,
  ) {}

  async start(): Promise<void> {
    await this.transport.subscribe(CLUSTER_TOPICS.events, (payload) => this.onEvents(payload));
    await this.transport.subscribe(CLUSTER_TOPICS.replies, (payload) => this.onReply(payload));
    await this.transport.subscribe(CLUSTER_TOPICS.access, (payload) => this.onAccess(payload));
    this.stopListening = this.events.on((event, origin) => {
      if (origin === 'local') this.queue(event);
    });
  }

  stop(): void {
    this.stopListening?.();
    this.flush();
  }

  /** Tells the other instances about a reply this instance received. */
  relayReply(thingName: string, reply: ReplyFrame): void {
    const message: ReplyMessage = { from: this.transport.instanceId, thingName, reply };
    this.send(CLUSTER_TOPICS.replies, JSON.stringify(message));
  }

  /** Tells the other instances about a change of access made here, at once (not batched). */
  relayAccess(change: AccessChange): void {
    const message: AccessMessage = { from: this.transport.instanceId, change };
    this.send(CLUSTER_TOPICS.access, JSON.stringify(message));
  }

  private queue(event: DeviceEvent): void {
    const text = JSON.stringify(event);
    if (this.pendingBytes + text.length > MAX_MESSAGE_BYTES) this.flush();
    this.pending.push(text);
    this.pendingBytes += text.length + 1;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.scheduled = false;
    if (this.pending.length === 0) return;
    const payload = `{"from":${JSON.stringify(this.transport.instanceId)},"events":[${this.pending.join(',')}]}`;
    this.pending = [];
    this.pendingBytes = 0;
    this.send(CLUSTER_TOPICS.events, payload);
  }

  private send(topic: string, payload: string): void {
    this.counters.sent += 1;
    this.transport.publish(topic, payload).catch((error: unknown) => {
      this.counters.dropped += 1;
      this.logger.warn({ error: (error as Error).message }, 'Cluster message not sent');
    });
  }

  private onEvents(payload: Buffer): void {
    const message = parse<EventsMessage>(payload);
    if (!message || message.from === this.transport.instanceId || !Array.isArray(message.events)) return;
    this.counters.received += 1;
    for (const event of message.events) this.events.emit(event, 'remote');
  }

  private onAccess(payload: Buffer): void {
    const message = parse<AccessMessage>(payload);
    if (!message || message.from === this.transport.instanceId) return;
    const change = accessChangeOf(message);
    if (change) this.applyAccess(change);
  }

  private onReply(payload: Buffer): void {
    const message = parse<ReplyMessage>(payload);
    if (!message || message.from === this.transport.instanceId) return;
    this.replies.resolve(message.thingName, message.reply);
  }
}

/** A relayed change of access, if the message is one (the topic is the instances' own; checked anyway). */
function accessChangeOf(message: AccessMessage | null): AccessChange | null {
  const change = message?.change;
  const strings = (values: unknown) => Array.isArray(values) && values.every((value) => typeof value === 'string');
  if (change?.kind === 'tokenEnded' && typeof change.tokenId === 'string') return change;
  if (change?.kind === 'usersChanged' && strings(change.userIds) && Number.isInteger(change.code)) return change;
  if (change?.kind === 'devicesMoved' && strings(change.thingNames)) return change;
  return null;
}

function parse<T>(payload: Buffer): T | null {
  try {
    return JSON.parse(payload.toString('utf8')) as T;
  } catch {
    return null;
  }
}
