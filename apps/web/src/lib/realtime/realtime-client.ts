import {
  COMMAND_TIMEOUT_MS,
  REALTIME_CLOSE,
  REALTIME_COMMAND_FAILED_MESSAGE,
  REALTIME_PROTOCOL,
  REALTIME_TIMEOUT_MESSAGE,
  type ClientAction,
  type ServerAction,
} from '@fieldlink/api/realtime';
import { reconnectDelay } from './backoff';
import { parseServerAction } from './message-guard';
import type { ConnectionStatus } from './realtime-store';

/** The part of the browser WebSocket the client uses, so tests can hand in a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A request as callers write it; the client adds the `id`. */
export type ClientRequest = DistributiveOmit<ClientAction, 'id'>;
export type ReplyValue = number | string | undefined;

/** A request the server or device answered with `ok: false`, or that was never answered. */
export class RealtimeRequestError extends Error {
  override readonly name = 'RealtimeRequestError';
}

export interface ConnectionSnapshot {
  status: ConnectionStatus;
  reconnectAttempt: number;
  connectionCount: number;
}

export interface RealtimeClientOptions {
  url: string;
  token: string;
  onAction: (action: ServerAction) => void;
  /**
   * Called before a reply is settled: whoever holds actions back to apply them together applies
   * the ones received before it (a subscription's states come before its reply).
   */
  beforeReply?: () => void;
  onConnection: (snapshot: ConnectionSnapshot) => void;
  /** Called after each socket opens (count 1 for the first, more for reconnects). */
  onOpen?: (connectionCount: number) => void;
  /** The server refused the token: the session is over, reconnecting would not help. */
  onUnauthorized?: () => void;
  createSocket?: (url: string, protocols: string[]) => SocketLike;
  random?: () => number;
  timeoutMs?: number;
}

interface Pending {
  resolve: (value: ReplyValue) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
  frame: string;
  sent: boolean;
}

/**
 * One WebSocket to the real-time hub with reconnect (exponential backoff with jitter, capped) and
 * request/reply by id. Requests made while the socket is down wait for it, but their 10 s timer runs
 * from the moment they were made: a person pressing a button wants an answer, not a silent queue.
 */
export class RealtimeClient {
  private socket: SocketLike | null = null;
  private stopped = true;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private nextId = 1;
  private readonly pending = new Map<string, Pending>();
  private snapshot: ConnectionSnapshot = { status: 'DISCONNECTED', reconnectAttempt: 0, connectionCount: 0 };

  constructor(private readonly options: RealtimeClientOptions) {}

  get connection(): ConnectionSnapshot {
    return this.snapshot;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  /** Reconnects at once when waiting for a retry (the network came back, the tab became visible). */
  retryNow(): void {
    if (this.stopped || this.socket || this.retryTimer === null) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.open();
  }

  stop(): void {
    this.stopped = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onclose = null;
      socket.onmessage = null;
      socket.close(1000, 'signed out');
    }
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new RealtimeRequestError('Disconnected.'));
      this.pending.delete(id);
    }
    this.update({ status: 'DISCONNECTED', reconnectAttempt: 0 });
  }

  request(action: ClientRequest): Promise<ReplyValue> {
    const id = String(this.nextId++);
    const frame = JSON.stringify({ ...action, id });
    return new Promise<ReplyValue>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new RealtimeRequestError(REALTIME_TIMEOUT_MESSAGE));
      }, this.options.timeoutMs ?? COMMAND_TIMEOUT_MS);
      const pending: Pending = { resolve, reject, timer, frame, sent: false };
      this.pending.set(id, pending);
      this.trySend(pending);
    });
  }

  private open(): void {
    const create = this.options.createSocket ?? ((url, protocols) => new WebSocket(url, protocols));
    const first = this.snapshot.connectionCount === 0 && this.snapshot.reconnectAttempt === 0;
    this.update({ status: first ? 'CONNECTING' : 'RECONNECTING' });
    let socket: SocketLike;
    try {
      socket = create(this.options.url, [REALTIME_PROTOCOL, this.options.token]);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.update({ status: 'CONNECTED', reconnectAttempt: 0, connectionCount: this.snapshot.connectionCount + 1 });
      for (const pending of this.pending.values()) this.trySend(pending);
      this.options.onOpen?.(this.snapshot.connectionCount);
    };
    socket.onmessage = (event) => this.receive(event.data);
    socket.onerror = () => {
      // A close event always follows; reconnecting is decided there.
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      // Requests already sent on the dropped socket are not sent again (a relay write must not run
      // twice); their answer is lost with the socket, so they end with the timeout message.
      if (this.stopped) return;
      if (event.code === REALTIME_CLOSE.unauthorized) {
        this.stopped = true;
        this.update({ status: 'DISCONNECTED', reconnectAttempt: 0 });
        this.options.onUnauthorized?.();
        return;
      }
      if (event.code === REALTIME_CLOSE.forbiddenOrigin) {
        this.stopped = true;
        this.update({ status: 'DISCONNECTED', reconnectAttempt: 0 });
        return;
      }
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    const attempt = this.snapshot.reconnectAttempt + 1;
    this.update({ status: 'RECONNECTING', reconnectAttempt: attempt });
    this.retryTimer = setTimeout(
      () => {
        this.retryTimer = null;
        if (!this.stopped) this.open();
      },
      reconnectDelay(attempt, this.options.random),
    );
  }

  private trySend(pending: Pending): void {
    if (pending.sent || !this.socket || this.socket.readyState !== OPEN) return;
    this.socket.send(pending.frame);
    pending.sent = true;
  }

  private receive(data: unknown): void {
    const action = parseServerAction(data);
    if (!action) return;
    if (action.type === 'server/reply') {
      const pending = this.pending.get(action.id);
      if (!pending) return;
      this.options.beforeReply?.();
      this.pending.delete(action.id);
      clearTimeout(pending.timer);
      if (action.ok) pending.resolve(action.value);
      else pending.reject(new RealtimeRequestError(action.error || REALTIME_COMMAND_FAILED_MESSAGE));
      return;
    }
    this.options.onAction(action);
  }

  private update(change: Partial<ConnectionSnapshot>): void {
    const next = { ...this.snapshot, ...change };
    if (
      next.status === this.snapshot.status &&
      next.reconnectAttempt === this.snapshot.reconnectAttempt &&
      next.connectionCount === this.snapshot.connectionCount
    ) {
      return;
    }
    this.snapshot = next;
    this.options.onConnection(next);
  }
}
