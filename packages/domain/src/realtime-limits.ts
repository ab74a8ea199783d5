/**
 * How much one browser, one user and one device may have waiting on the real-time channel at once
 * (issue 34). Each device command waits for its answer up to the command timeout (10 s); past a limit
 * the request is refused at once with a reply naming the limit and when to try again, the real-time
 * twin of a 429 with `retryAfterSeconds`.
 */

/** Requests of any kind one real-time connection may have waiting for their answer. */
export const MAX_PENDING_REQUESTS_PER_SOCKET = 16;
/** Device commands one user may have waiting, over all of the user's connections. */
export const MAX_PENDING_COMMANDS_PER_USER = 32;
/** Device commands waiting for one device's answer, from every user together. */
export const MAX_PENDING_COMMANDS_PER_DEVICE = 16;

/**
 * Messages one real-time connection may send a second, on average (the default of the
 * `REALTIME_MESSAGES_PER_SECOND` setting). A console sends a few a second (subscriptions, a write);
 * past the budget the server stops reading that connection until the average allows the next
 * message, so a flood waits in the sender's TCP buffers instead of the server's event loop.
 */
export const REALTIME_MESSAGES_PER_SECOND = 50;
/** Seconds' worth of the rate a connection may send at once before its reads are paced. */
export const REALTIME_BURST_SECONDS = 4;

/**
 * How often an open real-time connection's token is checked again (expiry, sign-out, revocation,
 * password change): the longest a socket outlives its token when the cluster's message that should
 * close it at once was lost.
 */
export const REALTIME_SESSION_CHECK_MS = 60_000;

/** What a limit counts: one connection's requests, one user's commands, or one device's commands. */
export type PendingLimit = { scope: 'socket' } | { scope: 'user' } | { scope: 'device'; thingName: string };

/** The limit of each scope. */
export const PENDING_LIMITS: Readonly<Record<PendingLimit['scope'], number>> = {
  socket: MAX_PENDING_REQUESTS_PER_SOCKET,
  user: MAX_PENDING_COMMANDS_PER_USER,
  device: MAX_PENDING_COMMANDS_PER_DEVICE,
};

/**
 * Seconds until the oldest waiting request of a full scope has its answer at the latest (it times out
 * `timeoutMs` after it started): at least 1.
 */
export function pendingRetryAfterSeconds(oldestStartedAt: number, timeoutMs: number, now: number): number {
  return Math.max(1, Math.ceil((oldestStartedAt + timeoutMs - now) / 1000));
}

/** The refusal a browser shows when a limit is reached. */
export function pendingLimitMessage(limit: PendingLimit, retryAfterSeconds: number): string {
  const wait = `Please wait ${retryAfterSeconds} ${retryAfterSeconds === 1 ? 'second' : 'seconds'} before trying again.`;
  switch (limit.scope) {
    case 'socket':
      return `Too many requests are waiting for an answer on this connection (at most ${PENDING_LIMITS.socket}). ${wait}`;
    case 'user':
      return `You have too many commands waiting for an answer (at most ${PENDING_LIMITS.user}). ${wait}`;
    case 'device':
      return `Too many commands are waiting for an answer from ${limit.thingName} (at most ${PENDING_LIMITS.device}). ${wait}`;
  }
}
