import type { DeviceEvent, DeviceEvents, EventOrigin } from './events';
import { SerialWork } from './serial-work';

export interface FollowerLogger {
  error(object: object, message: string): void;
}

/** How often a follower's directory is read again, whatever the events said. */
const DIRECTORY_REFRESH_MS = 60_000;

/**
 * Follows the frames devices store, from the event bus: a directory of
 * the devices it cares about by thing name, read at start and again when a minute old, and its work
 * run one piece at a time per device, in the order frames were committed. A device outside the
 * directory costs one map lookup per frame. The alarm evaluator, the shelf tracker and the brew tank
 * tracker are such.
 */
export abstract class DeviceFollower<Entry> {
  protected directory = new Map<string, Entry>();
  protected readonly work: SerialWork;
  private loadedAt = 0;
  private loading: Promise<void> | null = null;
  private stopListening: (() => void) | null = null;

  constructor(
    protected readonly events: DeviceEvents,
    logger: FollowerLogger,
    /** What the log says when a piece of work failed. */
    failure: string,
  ) {
    this.work = new SerialWork((error, thingName) => logger.error({ err: error, thingName }, failure));
  }

  /** The devices to follow, by thing name, as stored now. */
  protected abstract readDirectory(): Promise<Map<string, Entry>>;

  protected abstract onEvent(event: DeviceEvent, origin: EventOrigin): void;

  async start(): Promise<void> {
    await this.reload();
    this.stopListening = this.events.on((event, origin) => this.onEvent(event, origin));
  }

  /** Waits for the work under way (tests, shutdown). */
  async idle(): Promise<void> {
    await this.work.idle();
  }

  async stop(): Promise<void> {
    this.stopListening?.();
    await this.idle();
  }

  /** Reads the directory again in the background when it is more than a minute old. */
  protected refreshWhenStale(): void {
    if (Date.now() - this.loadedAt > DIRECTORY_REFRESH_MS) void this.reload().catch(() => undefined);
  }

  /** Reads the directory again now (a configuration changed); joins a read already under way. */
  async reload(): Promise<void> {
    if (!this.loading) {
      this.loading = this.readDirectory()
        .then((directory) => {
          this.directory = directory;
          this.loadedAt = Date.now();
        })
        .finally(() => (this.loading = null));
    }
    await this.loading;
  }
}
