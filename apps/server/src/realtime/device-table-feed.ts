import { DEVICE_TABLE_FEED_INTERVAL_MS, type DeviceTableChange, type ServerActionOf } from '@fieldlink/api/realtime';
import type { DeviceEvent } from '../events';

/** The table fields of a change, without the device's name. */
export type DeviceTableFields = Omit<DeviceTableChange, 'thingName'>;

/**
 * Most changes one batch sends a browser. A batch with more (a whole fleet reconnecting after a
 * broker restart) is sent as `reload` instead: reading the table again (compact, compressed,
 * validated by its ETag) costs the browser and the socket less than 100,000 single changes.
 */
const DEVICE_TABLE_FEED_MAX_CHANGES = 5000;

/** The device table's fields a device event changes, or null when it changes none of them. */
export function tableFieldsOf(event: DeviceEvent): DeviceTableFields | null {
  switch (event.type) {
    case 'server/connectionState':
      return {
        isConnected: event.isConnected,
        lastConnection: event.lastConnection,
        lastDisconnection: event.lastDisconnection,
      };
    case 'server/deviceConfig':
      return event.config.fw === undefined ? null : { fw: event.config.fw };
    case 'server/otaProgress':
      return {
        otaState: event.update.state,
        otaPercent: event.update.percent,
        otaPendingSubmittedAt: event.otaPendingSubmittedAt,
        // A finished update names the firmware the device now runs.
        ...(event.update.fw === null ? {} : { fw: event.update.fw }),
      };
    default:
      return null;
  }
}

/** One browser watching the table: its scope and its socket. */
export interface TableWatcher {
  inScope(groupPath: string): boolean;
  send(action: ServerActionOf<'server/deviceTableChanges'>): void;
}

export interface DeviceTableFeedOptions {
  /** The group path of each device, by thing name: read once per batch, so a moved device is scoped anew. */
  groupPaths(thingNames: readonly string[]): Promise<Map<string, string>>;
  onError(error: unknown): void;
  intervalMs?: number;
  maxChanges?: number;
  now?: () => number;
}

/**
 * The device table's live feed (core §2, issue 14): connection state, firmware and OTA progress of
 * every device in a watcher's scope, gathered per device (the latest fields win) and sent at most once
 * a second, so a fleet of 100,000 devices costs each browser one message a second, not one per event.
 * Nothing is gathered while nobody watches.
 */
export class DeviceTableFeed {
  private readonly watchers = new Set<TableWatcher>();
  private pending = new Map<string, DeviceTableFields>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly intervalMs: number;
  private readonly maxChanges: number;
  private readonly now: () => number;

  constructor(private readonly options: DeviceTableFeedOptions) {
    this.intervalMs = options.intervalMs ?? DEVICE_TABLE_FEED_INTERVAL_MS;
    this.maxChanges = options.maxChanges ?? DEVICE_TABLE_FEED_MAX_CHANGES;
    this.now = options.now ?? Date.now;
  }

  get watcherCount(): number {
    return this.watchers.size;
  }

  watch(watcher: TableWatcher): void {
    this.watchers.add(watcher);
  }

  unwatch(watcher: TableWatcher): void {
    this.watchers.delete(watcher);
    if (this.watchers.size === 0) this.stop();
  }

  /** Takes note of a device event; the next batch carries what it changed. */
  note(event: DeviceEvent): void {
    if (this.watchers.size === 0) return;
    const fields = tableFieldsOf(event);
    if (!fields) return;
    this.pending.set(event.thingName, { ...this.pending.get(event.thingName), ...fields });
    this.timer ??= setTimeout(() => void this.flush(), this.intervalMs);
  }

  /** Sends the gathered changes to each watcher, only those of devices in its scope. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = new Map();
    if (batch.size === 0 || this.watchers.size === 0) return;
    let paths: Map<string, string>;
    try {
      paths = await this.options.groupPaths([...batch.keys()]);
    } catch (error) {
      this.options.onError(error);
      return;
    }
    // The changes by group: a watcher's scope is asked once per group of the batch, not once per device.
    const byGroup = new Map<string, DeviceTableChange[]>();
    for (const [thingName, fields] of batch) {
      const path = paths.get(thingName);
      if (path === undefined) continue;
      const group = byGroup.get(path);
      if (group) group.push({ thingName, ...fields });
      else byGroup.set(path, [{ thingName, ...fields }]);
    }
    const at = this.now();
    for (const watcher of this.watchers) {
      const changes: DeviceTableChange[] = [];
      for (const [path, group] of byGroup) {
        if (watcher.inScope(path)) for (const change of group) changes.push(change);
      }
      if (changes.length > this.maxChanges)
        watcher.send({ type: 'server/deviceTableChanges', at, changes: [], reload: true });
      else if (changes.length > 0) watcher.send({ type: 'server/deviceTableChanges', at, changes });
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}
