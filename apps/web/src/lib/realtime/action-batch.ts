import type { ServerAction } from '@fieldlink/api/realtime';
import type { Store } from '../create-store';
import { applyServerActions, withoutDevices, type RealtimeState } from './realtime-store';

export interface ActionBatchOptions {
  store: Store<RealtimeState>;
  /** Whether a device is watched now: the store keeps state only of those. */
  isWatched: (thingName: string) => boolean;
  /** Runs `flush` once the burst in hand is in (tests run it at will). */
  schedule: (flush: () => void) => void;
  now: () => number;
}

/**
 * Where the real-time actions reach the store: the actions that arrive in one burst (a socket's
 * messages come one task each, a subscription's states 4,000 in a row) wait for the scheduled
 * flush and are then applied in order as one store change, so the store's listeners run once and
 * React renders once per burst, and each slice is copied once (`applyServerActions`). Devices no
 * longer watched leave the store in the same change (`withoutDevices`), unless a page watched them
 * again meanwhile (one page leaving and the next showing the same device, in one commit).
 */
export class ActionBatch {
  private actions: ServerAction[] = [];
  private readonly unwatched = new Set<string>();
  private scheduled = false;
  /** The current schedule's number: a flush asked for before an early flush is not this burst's. */
  private ticket = 0;

  constructor(private readonly options: ActionBatchOptions) {}

  add(action: ServerAction): void {
    this.actions.push(action);
    this.request();
  }

  /** These devices are no longer watched: their state leaves the store with the next flush. */
  forget(thingNames: readonly string[]): void {
    for (const thingName of thingNames) this.unwatched.add(thingName);
    this.request();
  }

  /**
   * Applies what waits now: before a reply is settled (a subscription's states are in the store
   * when its request resolves) and before the connection's status changes (a closed socket's
   * actions are applied before the next socket opens).
   */
  flush(): void {
    this.scheduled = false;
    const { actions, unwatched } = this;
    if (actions.length === 0 && unwatched.size === 0) return;
    this.actions = [];
    const { isWatched } = this.options;
    const gone = [...unwatched].filter((thingName) => !isWatched(thingName));
    unwatched.clear();
    const now = this.options.now();
    this.options.store.setState((state) => withoutDevices(applyServerActions(state, actions, now, isWatched), gone));
  }

  /** Drops what waits (sign-out, a new connection). */
  clear(): void {
    this.actions = [];
    this.unwatched.clear();
  }

  private request(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const ticket = ++this.ticket;
    this.options.schedule(() => {
      if (this.scheduled && this.ticket === ticket) this.flush();
    });
  }
}
