import type { ChannelConfig } from '@fieldlink/api/device-frames';
import type { ChannelSettings } from '@fieldlink/domain/device-settings';
import { resolveChannelCode } from '@fieldlink/simulation/channel-codes';

/** What a `writeConfig` command carries. */
export interface ConfigChange {
  readonly channels?: readonly ChannelSettings[];
  readonly uploadInterval?: number;
  readonly logInterval?: number;
}

/**
 * The settings a device keeps in its own memory: each channel's name, upload and alarm flags as a
 * person last set them (`writeConfig`), over the defaults of its plant, and its two intervals.
 */
export class DeviceConfigMemory {
  private readonly channels = new Map<string, Omit<ChannelSettings, 'code'>>();

  constructor(
    /** Minutes between uploads. */
    public uploadInterval: number,
    /** Seconds between log samples. */
    public logInterval: number,
  ) {}

  /**
   * Applies a change, all or nothing: false (and nothing changed) when it names a channel the
   * device does not have. `codes` are the device's own channel codes.
   */
  apply(change: ConfigChange, codes: readonly string[]): boolean {
    const resolved = (change.channels ?? []).map((channel) => ({
      ...channel,
      code: resolveChannelCode(channel.code, codes),
    }));
    if (resolved.some((channel) => channel.code === undefined)) return false;
    for (const { code, ...settings } of resolved) {
      this.channels.set(code!, { ...this.channels.get(code!), ...settings });
    }
    if (change.uploadInterval !== undefined) this.uploadInterval = change.uploadInterval;
    if (change.logInterval !== undefined) this.logInterval = change.logInterval;
    return true;
  }

  /** A channel's configuration as reported: the plant's, with what a person set on top. */
  channelConfig(base: ChannelConfig): ChannelConfig {
    const settings = this.channels.get(base.code);
    return settings ? { ...base, ...settings } : base;
  }
}
