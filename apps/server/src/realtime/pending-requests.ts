import { pendingRetryAfterSeconds } from '@fieldlink/domain/realtime-limits';

/** A request's place among those waiting; given back once it has its answer. */
export interface PendingPlace {
  release(): void;
}

/**
 * Requests waiting for their answer, counted per key (a socket, a user, a device), with at most
 * `limit` per key. A request past the limit gets no place but the seconds until the oldest waiting
 * one has its answer at the latest. Only keys with requests waiting are kept.
 */
export class PendingRequests<K> {
  /** Start times of each key's waiting requests, oldest first (a Set keeps insertion order). */
  private readonly waiting = new Map<K, Set<{ startedAt: number }>>();

  constructor(
    private readonly limit: number,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(key: K): PendingPlace | { retryAfterSeconds: number } {
    const places = this.waiting.get(key) ?? new Set();
    if (places.size >= this.limit) {
      const oldest = places.values().next().value!;
      return { retryAfterSeconds: pendingRetryAfterSeconds(oldest.startedAt, this.timeoutMs, this.now()) };
    }
    const place = { startedAt: this.now() };
    places.add(place);
    this.waiting.set(key, places);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        places.delete(place);
        if (places.size === 0 && this.waiting.get(key) === places) this.waiting.delete(key);
      },
    };
  }
}
