import type { Writable } from 'node:stream';
import type { WebSocket } from 'ws';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { settingsRequestError } from '@fieldlink/domain/device-settings';
import {
  ClientAction,
  REALTIME_CLOSE,
  REALTIME_COMMAND_FAILED_MESSAGE,
  REALTIME_DEVICE_ACTIONS,
  REALTIME_TIMEOUT_MESSAGE,
  type ServerAction,
} from '@fieldlink/api/realtime';
import {
  MAX_PENDING_COMMANDS_PER_DEVICE,
  MAX_PENDING_COMMANDS_PER_USER,
  MAX_PENDING_REQUESTS_PER_SOCKET,
  REALTIME_BURST_SECONDS,
  pendingLimitMessage,
  type PendingLimit,
} from '@fieldlink/domain/realtime-limits';
import type { AccessChange, DeviceEvent } from '../events';
import { byUser } from '../features/audit/service';
import { deviceStateActions } from './device-state';
import { inScope, requireDeviceAction } from '../features/session/access';
import type { DeviceService } from '../features/devices/service';
import { accessFingerprint, type UserContext } from '../features/session/user-context';
import type { TokenClaims } from '../security/tokens';
import type { CommandRequest, CommandService } from './commands';
import { DeviceTableFeed, type TableWatcher } from './device-table-feed';
import { nulTextPath } from '../security/nul-text';
import type { HeldToken } from '../security/open-tokens';
import { PendingRequests, type PendingPlace } from './pending-requests';
import { ReadBudget } from './read-budget';
import { textFrame } from './text-frame';

const actionCheck = TypeCompiler.Compile(ClientAction);
/** A socket with more unsent bytes than this is a slow consumer and is closed. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
const MAX_MESSAGE_BYTES = 64 * 1024;
/**
 * While a subscription's current states are sent, the hub waits whenever this much is still unsent,
 * so a subscription to many devices never makes a slow consumer of a socket (`MAX_BUFFERED_BYTES`).
 */
const STATE_BUFFERED_BYTES = 1024 * 1024;
/** How often the hub looks whether a socket sending current states has sent enough to go on. */
const STATE_DRAIN_POLL_MS = 10;

interface Session {
  socket: WebSocket;
  /**
   * The socket's TCP connection, when it negotiated no extension: device events, built once as a
   * frame (`textFrame`), are written to it directly. Null: everything goes through `socket.send`.
   */
  connection: Writable | null;
  user: UserContext;
  subscriptions: Set<string>;
  /** Set while the socket watches the device table's live feed. */
  tableWatcher: TableWatcher | null;
  /** How fast the connection may send: past it, its reads are paused (issue 34). */
  budget: ReadBudget;
  /**
   * Events of devices just subscribed, held (as text) until their current state is sent: an event
   * newer than the state read must not go before it.
   */
  held: Map<string, string[]>;
  /** The length of every held event's text: they count as unsent (`MAX_BUFFERED_BYTES`). */
  heldBytes: number;
}

/** A request refused because too many are waiting for their answer: the reply says when to try again. */
class PendingLimitReached extends Error {
  constructor(
    limit: PendingLimit,
    readonly retryAfterSeconds: number,
  ) {
    super(pendingLimitMessage(limit, retryAfterSeconds));
  }
}

/** Requests that send a command to a device (the others only watch). */
const isDeviceCommand = (action: ClientAction) => REALTIME_DEVICE_ACTIONS[action.type] !== 'watch';

export interface HubLogger {
  warn(object: object, message: string): void;
}

/** How the hub checks again, now and then, that the tokens its sockets were opened with still hold. */
export interface SessionCheck {
  /** The ids (jti) of the tokens among these still accepted at `now`. */
  openTokenIds(held: readonly HeldToken[], now: number): Promise<ReadonlySet<string>>;
  /** The access of these tokens' users as it stands now (`accessFingerprint`), by user id. */
  currentAccess(held: readonly TokenClaims[]): Promise<ReadonlyMap<string, string>>;
  /** The group path of each of these devices that exists, by thing name. */
  groupPaths(thingNames: readonly string[]): Promise<ReadonlyMap<string, string>>;
  now(): number;
  everyMs: number;
}

/**
 * Browser sockets and what each watches. A device event goes only to sockets subscribed to that
 * device; a subscription is granted only for a device in the user's scope, with dashboard access.
 */
export class RealtimeHub {
  private readonly sessions = new Set<Session>();
  private readonly watchers = new Map<string, Set<Session>>();
  private closing = false;
  private readonly tableFeed: DeviceTableFeed;
  private sessionCheck: { check: SessionCheck; timer: NodeJS.Timeout } | null = null;
  /**
   * Requests waiting for their answer, per socket (any request), per user and per device (commands,
   * which wait up to the command timeout): past a limit a request is refused at once, so a flood of
   * commands costs neither memory nor time (issue 34).
   */
  private readonly pendingBySocket: PendingRequests<Session>;
  private readonly pendingByUser: PendingRequests<string>;
  private readonly pendingByDevice: PendingRequests<string>;

  /**
   * `announce` puts an event this hub makes (a setpoint's new state after a write) on the event bus,
   * so browsers on every instance of a cluster see it, not only those on this one; without a bus the
   * hub delivers it itself.
   */
  constructor(
    private readonly devices: DeviceService,
    private readonly commands: CommandService,
    private readonly logger: HubLogger,
    /** Messages a second one connection may send on average before its reads are paced. */
    private readonly messagesPerSecond: number,
    private readonly announce: (event: DeviceEvent) => void = (event) => this.publish(event),
  ) {
    this.pendingBySocket = new PendingRequests(MAX_PENDING_REQUESTS_PER_SOCKET, commands.timeoutMs);
    this.pendingByUser = new PendingRequests(MAX_PENDING_COMMANDS_PER_USER, commands.timeoutMs);
    this.pendingByDevice = new PendingRequests(MAX_PENDING_COMMANDS_PER_DEVICE, commands.timeoutMs);
    this.tableFeed = new DeviceTableFeed({
      groupPaths: (thingNames) => this.devices.groupPaths(thingNames),
      onError: (error) => this.logger.warn({ err: error }, 'The device table feed could not read device paths'),
    });
  }

  /** How often a connection's reads were paused for sending past its budget, since start. */
  readPauses = 0;

  get socketCount(): number {
    return this.sessions.size;
  }

  /**
   * `connection` is the TCP connection the socket was upgraded from (`request.raw.socket`): without
   * extensions ws writes each frame to it at once and whole, so frames written there directly keep
   * their order among ws's own (`publish` still checks that ws holds nothing queued).
   */
  attach(socket: WebSocket, user: UserContext, connection: Writable | null = null): void {
    // A browser reconnecting while the server shuts down is turned away, or it would hold the server open.
    if (this.closing) {
      socket.close(REALTIME_CLOSE.goingAway, 'Server shutting down');
      return;
    }
    const session: Session = {
      socket,
      connection: socket.extensions === '' ? connection : null,
      user,
      subscriptions: new Set(),
      tableWatcher: null,
      budget: new ReadBudget(this.messagesPerSecond, this.messagesPerSecond * REALTIME_BURST_SECONDS),
      held: new Map(),
      heldBytes: 0,
    };
    this.sessions.add(session);
    socket.on('message', (data, isBinary) => {
      const size = Array.isArray(data) ? data.reduce((sum, part) => sum + part.length, 0) : (data as Buffer).byteLength;
      if (isBinary || size > MAX_MESSAGE_BYTES) {
        this.send(session, { type: 'server/error', message: 'Message too large or not text.' });
        return;
      }
      this.pace(session);
      void this.onMessage(session, data.toString());
    });
    socket.on('close', () => this.detach(session));
    socket.on('error', () => this.detach(session));
  }

  /**
   * Stops reading a connection that sent past its budget until the messages it sent are within the
   * budget again: the ones already read are still answered, the next ones wait in the sender's TCP
   * buffers.
   */
  private pace(session: Session): void {
    const waitMs = session.budget.take();
    if (waitMs === 0 || session.socket.isPaused) return;
    session.socket.pause();
    this.readPauses += 1;
    const resumeWhenWithinBudget = (delayMs: number) =>
      setTimeout(() => {
        if (session.socket.readyState !== session.socket.OPEN) return;
        // Messages of the read in hand were taken after the pause: wait for those too.
        const moreMs = session.budget.waitMs();
        if (moreMs > 0) resumeWhenWithinBudget(moreMs);
        else session.socket.resume();
      }, delayMs).unref();
    resumeWhenWithinBudget(waitMs);
  }

  /** Delivers a device event to the sockets watching that device. */
  publish(event: DeviceEvent): void {
    this.tableFeed.note(event);
    const watchers = this.watchers.get(event.thingName);
    if (!watchers) return;
    // One frame for every watcher: `socket.send` measured, encoded and wrote the text in two parts per
    // socket, about two thirds of the server's user CPU per update (issue 41 item 4, round 2).
    const text = JSON.stringify(event);
    let frame: Buffer | null = null;
    for (const session of watchers) {
      const held = session.held.size > 0 ? session.held.get(event.thingName) : undefined;
      if (held) {
        held.push(text);
        session.heldBytes += text.length;
        // A socket that reads nothing while its states wait would hold events without end.
        if (session.heldBytes + session.socket.bufferedAmount > MAX_BUFFERED_BYTES) this.closeSlow(session);
        continue;
      }
      if (!this.canSend(session)) continue;
      const { connection, socket } = session;
      // Only while ws holds nothing back in its own queue (`bufferedAmount` is the connection's
      // waiting bytes plus ws's queued ones): a frame written past that queue would overtake it.
      if (connection && socket.bufferedAmount === connection.writableLength)
        connection.write((frame ??= textFrame(text)));
      else socket.send(text);
    }
  }

  /**
   * Sends an action that concerns people rather than a device (a report's progress) to every
   * socket whose user passes `audience`.
   */
  notifyUsers(action: ServerAction, audience: (user: UserContext) => boolean): void {
    const text = JSON.stringify(action);
    for (const session of this.sessions) if (audience(session.user)) this.sendText(session, text);
  }

  /** Closes every socket of a user (password change, access removed). */
  private closeUser(userId: string, code: number = REALTIME_CLOSE.unauthorized): void {
    for (const session of this.sessions) if (session.user.id === userId) session.socket.close(code, 'Session ended');
  }

  /**
   * Checks the subscriptions to these devices again after they changed group: a socket whose user no
   * longer sees a device stops receiving it at once (SECURITY.md 3, access removed).
   */
  private async revalidate(thingNames: readonly string[]): Promise<void> {
    for (const thingName of thingNames) {
      for (const session of [...(this.watchers.get(thingName) ?? [])]) {
        const visible = await this.devices.visibleDevice(session.user, { thingName }).then(
          () => true,
          () => false,
        );
        if (!visible) this.dropWatch(session, thingName);
      }
    }
  }

  /** Stops a socket's subscription to a device its user no longer sees, and says so. */
  private dropWatch(session: Session, thingName: string): void {
    this.unwatch(session, thingName);
    this.send(session, { type: 'server/error', message: `Device ${thingName} is no longer available.` });
  }

  /** Follows a change of access on this instance's sockets (`AccessChange`). */
  applyAccessChange(change: AccessChange): void {
    if (change.kind === 'tokenEnded') this.closeToken(change.tokenId);
    else if (change.kind === 'usersChanged') for (const userId of change.userIds) this.closeUser(userId, change.code);
    else void this.revalidate(change.thingNames);
  }

  /**
   * Checks the sockets every `check.everyMs`: a socket whose token expired, whose session ended,
   * whose API token was revoked or whose owner changed password or was removed is closed; one whose
   * user's permissions or place changed is closed with `accessChanged` (the browser reconnects and
   * is authorised afresh); a subscription to a device moved out of its user's reach stops. The
   * cluster's access messages (`applyAccessChange`) do all this at once; this is the backstop when
   * one is lost (they travel at QoS 0), and what ends a socket that outlives its token.
   */
  startSessionChecks(check: SessionCheck): void {
    const timer = setInterval(() => {
      this.checkSessions().catch((error: unknown) =>
        this.logger.warn({ err: error }, "Could not check the real-time sockets' sessions"),
      );
    }, check.everyMs);
    timer.unref();
    this.sessionCheck = { check, timer };
  }

  /**
   * One pass of the session check (see `startSessionChecks`); answers how many sockets it closed and
   * how many subscriptions it stopped.
   */
  async checkSessions(): Promise<{ closed: number; dropped: number }> {
    if (!this.sessionCheck) return { closed: 0, dropped: 0 };
    const { check } = this.sessionCheck;
    const sessions = [...this.sessions];
    const open = await check.openTokenIds(
      sessions.map((session) => ({ claims: session.user.claims, apiToken: session.user.apiToken !== undefined })),
      check.now(),
    );
    // A closed socket leaves `sessions` once its closing handshake ends: count it out at once.
    const closed = new Set<Session>();
    const close = (session: Session, code: number, reason: string) => {
      session.socket.close(code, reason);
      closed.add(session);
    };
    for (const session of sessions) {
      if (!open.has(session.user.claims.jti) && this.sessions.has(session))
        close(session, REALTIME_CLOSE.unauthorized, 'Session ended');
    }
    const kept = () => sessions.filter((session) => this.sessions.has(session) && !closed.has(session));
    const access = await check.currentAccess(kept().map((session) => session.user.claims));
    for (const session of kept()) {
      const now = access.get(session.user.id);
      if (now !== undefined && now !== accessFingerprint(session.user))
        close(session, REALTIME_CLOSE.accessChanged, 'Access changed');
    }
    const watched = [...new Set(kept().flatMap((session) => [...session.subscriptions]))];
    const paths = await check.groupPaths(watched);
    let dropped = 0;
    for (const session of kept()) {
      for (const thingName of [...session.subscriptions]) {
        const path = paths.get(thingName);
        if (path !== undefined && inScope(session.user, path)) continue;
        this.dropWatch(session, thingName);
        dropped += 1;
      }
    }
    return { closed: closed.size, dropped };
  }

  /** Closes the sockets opened with one token (sign-out). */
  private closeToken(jti: string): void {
    for (const session of this.sessions) {
      if (session.user.claims.jti === jti) session.socket.close(REALTIME_CLOSE.unauthorized, 'Signed out');
    }
  }

  /**
   * Closes every socket for shutdown. A peer that has not answered the close handshake within the
   * grace period is cut off, so a stalled browser cannot hold the server open.
   */
  async closeAll(graceMs = 1000): Promise<void> {
    this.closing = true;
    if (this.sessionCheck) clearInterval(this.sessionCheck.timer);
    this.tableFeed.stop();
    const sockets = [...this.sessions].map((session) => session.socket);
    for (const socket of sockets) socket.close(REALTIME_CLOSE.goingAway, 'Server shutting down');
    const deadline = Date.now() + graceMs;
    while (sockets.some((socket) => socket.readyState !== socket.CLOSED) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    for (const socket of sockets) if (socket.readyState !== socket.CLOSED) socket.terminate();
  }

  private detach(session: Session): void {
    if (!this.sessions.delete(session)) return;
    for (const thingName of session.subscriptions) this.unwatch(session, thingName);
    if (session.tableWatcher) this.tableFeed.unwatch(session.tableWatcher);
  }

  private unwatch(session: Session, thingName: string): void {
    session.subscriptions.delete(thingName);
    this.release(session, thingName);
    const watchers = this.watchers.get(thingName);
    watchers?.delete(session);
    if (watchers?.size === 0) this.watchers.delete(thingName);
  }

  private async onMessage(session: Session, text: string): Promise<void> {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      this.send(session, { type: 'server/error', message: 'Message is not JSON.' });
      return;
    }
    if (!actionCheck.Check(message)) {
      const id = typeof (message as { id?: unknown })?.id === 'string' ? (message as { id: string }).id : null;
      const first = actionCheck.Errors(message).First();
      const error = `Invalid message: ${first ? `${first.path || '/'} ${first.message}` : 'unknown action'}`;
      this.send(
        session,
        id ? { type: 'server/reply', id, ok: false, error } : { type: 'server/error', message: error },
      );
      return;
    }
    // What the REST input guard refuses in any request (PostgreSQL cannot store it), refused here too.
    const nulPath = nulTextPath(message);
    if (nulPath !== null) {
      const error = `Invalid message: ${nulPath} must not contain a NUL character`;
      this.send(session, { type: 'server/reply', id: message.id, ok: false, error });
      return;
    }
    // Places are taken before any work, so a refused request costs nothing but its reply.
    const places: PendingPlace[] = [];
    try {
      places.push(this.place(this.pendingBySocket, session, { scope: 'socket' }));
      if (isDeviceCommand(message)) places.push(this.place(this.pendingByUser, session.user.id, { scope: 'user' }));
      const value = await this.dispatch(session, message, places);
      this.send(session, { type: 'server/reply', id: message.id, ok: true, ...(value === undefined ? {} : { value }) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const retry = error instanceof PendingLimitReached ? { retryAfterSeconds: error.retryAfterSeconds } : {};
      this.send(session, { type: 'server/reply', id: message.id, ok: false, error: reason, ...retry });
    } finally {
      for (const place of places) place.release();
    }
  }

  /** A place among the key's waiting requests, or the refusal naming the limit. */
  private place<K>(pending: PendingRequests<K>, key: K, limit: PendingLimit): PendingPlace {
    const place = pending.take(key);
    if ('retryAfterSeconds' in place) throw new PendingLimitReached(limit, place.retryAfterSeconds);
    return place;
  }

  /** `places` holds the request's places among those waiting; a command adds its device's. */
  private async dispatch(
    session: Session,
    action: ClientAction,
    places: PendingPlace[],
  ): Promise<number | string | undefined> {
    // The rule of the action's REST twin, from the domain's one table (dashboard access first, core §4).
    requireDeviceAction(session.user, REALTIME_DEVICE_ACTIONS[action.type]);
    switch (action.type) {
      case 'server/subscribeDevices': {
        // All or nothing: one device out of scope refuses the whole request.
        await this.devices.requireVisibleDevices(session.user, action.thingNames);
        // A socket closed meanwhile is gone: watching for it would keep it.
        if (!this.sessions.has(session)) return undefined;
        const added = [...new Set(action.thingNames)].filter((thingName) => !session.subscriptions.has(thingName));
        for (const thingName of added) {
          session.subscriptions.add(thingName);
          const watchers = this.watchers.get(thingName) ?? new Set();
          watchers.add(session);
          this.watchers.set(thingName, watchers);
        }
        await this.sendCurrentState(session, added);
        return undefined;
      }
      case 'server/unsubscribeDevices':
        for (const thingName of action.thingNames) this.unwatch(session, thingName);
        return undefined;
      case 'server/watchDeviceTable':
        // Scope is checked per device and batch, so a device moved out of the caller's reach stops at once.
        session.tableWatcher ??= {
          inScope: (groupPath) => inScope(session.user, groupPath),
          send: (changes) => this.send(session, changes),
        };
        this.tableFeed.watch(session.tableWatcher);
        return undefined;
      case 'server/unwatchDeviceTable':
        if (session.tableWatcher) this.tableFeed.unwatch(session.tableWatcher);
        session.tableWatcher = null;
        return undefined;
      case 'server/readChannel':
        return this.command(session, places, action.thingName, { cmd: 'readChannel', code: action.code });
      case 'server/writeChannel': {
        const value = await this.command(session, places, action.thingName, {
          cmd: 'writeChannel',
          code: action.code,
          value: action.value,
        });
        this.announce({
          type: 'server/setpointStatus',
          thingName: action.thingName,
          code: action.code,
          state: action.value !== 0 ? 'on' : 'off',
          value: typeof value === 'number' ? value : action.value,
        });
        return value;
      }
      case 'server/readRegister':
        return this.command(session, places, action.thingName, { cmd: 'readRegister', register: action.register });
      case 'server/writeRegister':
        return this.command(session, places, action.thingName, {
          cmd: 'writeRegister',
          register: action.register,
          value: action.value,
        });
      case 'server/refreshMetadata':
        return this.command(session, places, action.thingName, { cmd: 'refreshMetadata' });
      case 'server/systemCommand':
        return this.command(session, places, action.thingName, { cmd: 'system', command: action.command });
      case 'server/timeDate': {
        // The zone must be one the console offers (isKnownTimeZone), as `POST /message` requires.
        const problem = settingsRequestError({ timeDate: { tzName: action.tzName, tzRule: action.tzRule } });
        if (problem) throw new Error(problem);
        return this.command(session, places, action.thingName, {
          cmd: 'timeDate',
          tzName: action.tzName,
          tzRule: action.tzRule,
        });
      }
      case 'server/writeConfig': {
        const { type: _type, id: _id, thingName, ...config } = action;
        const problem = Object.keys(config).length === 0 ? 'Nothing to change.' : settingsRequestError(config);
        if (problem) throw new Error(problem);
        return this.command(session, places, thingName, { cmd: 'writeConfig', ...config });
      }
    }
  }

  /**
   * Sends the current state of devices the socket has just subscribed to (`deviceStateActions`), in
   * the actions a change of it is pushed in, before the subscription's reply: a browser holding a
   * state from an earlier watch (or from before a break) has it renewed, and once the reply is in
   * its state is current. The devices are watched before their records are read, and their events
   * held meanwhile (`Session.held`), then sent after the states: a change committed after the read
   * comes after the state it changes, one committed before it is in the state. Read in one query;
   * sent while the socket keeps up (`STATE_BUFFERED_BYTES`).
   */
  private async sendCurrentState(session: Session, thingNames: readonly string[]): Promise<void> {
    if (thingNames.length === 0) return;
    // This request's holds: a device unwatched (and maybe watched again) meanwhile has another, or none.
    const mine = new Map(thingNames.map((thingName) => [thingName, [] as string[]]));
    for (const [thingName, held] of mine) session.held.set(thingName, held);
    try {
      // Read under the subscription's rule again: a device moved out of reach meanwhile is not sent.
      const rows = await this.devices.visibleDevices(session.user, thingNames);
      for (const row of rows) {
        if (!(await this.drained(session))) return;
        if (session.held.get(row.thing_name) !== mine.get(row.thing_name)) continue;
        for (const action of deviceStateActions(row)) this.send(session, action);
      }
    } finally {
      for (const [thingName, held] of mine) {
        if (session.held.get(thingName) !== held) continue;
        this.release(session, thingName);
        for (const text of held) this.sendText(session, text);
      }
    }
  }

  /** Stops holding a device's events (they are sent or dropped by the caller). */
  private release(session: Session, thingName: string): void {
    const held = session.held.get(thingName);
    if (!held) return;
    session.held.delete(thingName);
    for (const text of held) session.heldBytes -= text.length;
  }

  /** Resolves true once the socket has less than `STATE_BUFFERED_BYTES` unsent; false if it closed. */
  private async drained(session: Session): Promise<boolean> {
    const { socket } = session;
    while (socket.readyState === socket.OPEN && socket.bufferedAmount > STATE_BUFFERED_BYTES) {
      await new Promise((resolve) => setTimeout(resolve, STATE_DRAIN_POLL_MS));
    }
    return socket.readyState === socket.OPEN;
  }

  private async command(
    session: Session,
    places: PendingPlace[],
    thingName: string,
    request: CommandRequest,
  ): Promise<number | string | undefined> {
    const device = await this.devices.visibleDevice(session.user, { thingName });
    // An offline device cannot answer: say so now rather than after the timeout.
    if (device.is_connected !== 1) throw new Error(REALTIME_TIMEOUT_MESSAGE);
    // Counted only once the device is known to be visible: the refusal tells nothing of others' devices.
    places.push(this.place(this.pendingByDevice, thingName, { scope: 'device', thingName }));
    const outcome = await this.commands.send(thingName, request, {
      by: byUser(session.user),
      device: { id: device.id, accountId: device.account_id, name: device.name },
    });
    if (outcome.result === 'TIMEOUT') throw new Error(REALTIME_TIMEOUT_MESSAGE);
    if (outcome.result === 'FAIL') throw new Error(REALTIME_COMMAND_FAILED_MESSAGE);
    return outcome.value;
  }

  private send(session: Session, action: ServerAction): void {
    this.sendText(session, JSON.stringify(action));
  }

  private sendText(session: Session, text: string): void {
    if (this.canSend(session)) session.socket.send(text);
  }

  /**
   * False when the socket is closing, or is a slow consumer and is closed now. ws's `bufferedAmount`
   * counts what waits in the connection, frames written there directly included.
   */
  private canSend(session: Session): boolean {
    const { socket } = session;
    if (socket.readyState !== socket.OPEN) return false;
    if (socket.bufferedAmount + session.heldBytes <= MAX_BUFFERED_BYTES) return true;
    this.closeSlow(session);
    return false;
  }

  private closeSlow(session: Session): void {
    this.logger.warn({ userId: session.user.id }, 'Closing a slow real-time consumer');
    session.socket.close(REALTIME_CLOSE.tooSlow, 'Too slow');
    this.detach(session);
  }
}
