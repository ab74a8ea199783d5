import type { DeviceCommand, DeviceFrame } from '@fieldlink/api/device-frames';
import { DEVICE_UP_FILTER, deviceDownTopic, deviceUpTopic, thingNameFromUpTopic } from '@fieldlink/api/mqtt-topics';
import { connectAsync, type MqttClient } from 'mqtt';

/** The thing name of the recorder's own markers (see {@link FrameRecorder.settle}); no device has it. */
const MARKER_THING = 'recorder-marker';

export interface RecordedFrame {
  readonly thingName: string;
  /** Parsed JSON as it arrived; tests check it against the frame schemas. */
  readonly frame: DeviceFrame;
}

/** A plain MQTT client standing in for the server in tests: records every device frame, sends commands. */
export class FrameRecorder {
  readonly frames: RecordedFrame[] = [];
  private waiters: (() => void)[] = [];
  private markers = 0;
  private readonly markerWaiters = new Map<string, () => void>();

  private constructor(private readonly client: MqttClient) {
    client.on('message', (topic, payload) => {
      const thingName = thingNameFromUpTopic(topic);
      if (thingName === null) return;
      if (thingName === MARKER_THING) {
        const marker = payload.toString('utf8');
        this.markerWaiters.get(marker)?.();
        this.markerWaiters.delete(marker);
        return;
      }
      this.frames.push({ thingName, frame: JSON.parse(payload.toString('utf8')) as DeviceFrame });
      const waiters = this.waiters;
      this.waiters = [];
      for (const waiter of waiters) waiter();
    });
  }

  static async connect(url: string, username: string, password: string): Promise<FrameRecorder> {
    const client = await connectAsync(url, { clientId: username, username, password, reconnectPeriod: 100 });
    const recorder = new FrameRecorder(client);
    await client.subscribeAsync(DEVICE_UP_FILTER, { qos: 1 });
    return recorder;
  }

  /** Frames of one device, optionally only those recorded from `fromIndex` of `frames` on. */
  framesOf(thingName: string, fromIndex = 0): DeviceFrame[] {
    return this.frames
      .slice(fromIndex)
      .flatMap((recorded) => (recorded.thingName === thingName ? [recorded.frame] : []));
  }

  /** Index in `frames` of the first frame from `fromIndex` on that matches; waits up to `timeoutMs`. */
  async waitFor(
    match: (recorded: RecordedFrame) => boolean,
    options: { fromIndex?: number; timeoutMs?: number } = {},
  ): Promise<number> {
    const deadline = Date.now() + (options.timeoutMs ?? 5_000);
    for (;;) {
      const index = this.frames.findIndex((recorded, at) => at >= (options.fromIndex ?? 0) && match(recorded));
      if (index >= 0) return index;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('Timed out waiting for a device frame.');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Waits for the reply to a command id and returns it with its index. */
  async waitForReply(thingName: string, id: string, fromIndex = 0): Promise<{ index: number; frame: DeviceFrame }> {
    const index = await this.waitFor(
      (recorded) => recorded.thingName === thingName && recorded.frame.type === 'reply' && recorded.frame.id === id,
      { fromIndex },
    );
    return { index, frame: (this.frames[index] as RecordedFrame).frame };
  }

  /**
   * Publishes a marker (not recorded) on the up topic of a thing name no device has and waits for it
   * to come back: the broker delivers to the recorder in order, so every frame it took before the
   * marker has been recorded. A check that nothing more arrived runs after this, not after a pause.
   */
  async settle(): Promise<void> {
    this.markers += 1;
    const marker = `marker-${this.markers}`;
    const back = new Promise<void>((resolve) => this.markerWaiters.set(marker, resolve));
    await this.client.publishAsync(deviceUpTopic(MARKER_THING), marker, { qos: 1 });
    await back;
  }

  async send(thingName: string, command: DeviceCommand | Record<string, unknown>): Promise<void> {
    await this.client.publishAsync(deviceDownTopic(thingName), JSON.stringify(command), { qos: 1 });
  }

  async close(): Promise<void> {
    await this.client.endAsync();
  }
}
