import { randomUUID } from 'node:crypto';
import type { DeviceCommand, ReplyFrame } from '@fieldlink/api/device-frames';
import { COMMAND_TIMEOUT_MS } from '@fieldlink/api/realtime';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A command as a caller states it; the service adds version, correlation id and expiry. */
export type CommandRequest = DistributiveOmit<DeviceCommand, 'v' | 'id' | 'exp'>;

export type CommandOutcome = { result: 'OK' | 'FAIL'; value?: number | string } | { result: 'TIMEOUT' };

/** Publishes a command to a device's down topic. */
export type PublishCommand = (thingName: string, command: DeviceCommand) => Promise<void>;

interface Pending {
  thingName: string;
  settle: (outcome: CommandOutcome) => void;
  timer: NodeJS.Timeout;
}

/**
 * Sends commands to devices and matches their replies by correlation id. A command expires when the
 * browser stops waiting: the device is told the expiry and must not run it later.
 */
export class CommandService {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly publish: PublishCommand,
    /** How long a command waits for its answer. */
    readonly timeoutMs = COMMAND_TIMEOUT_MS,
  ) {}

  async send(thingName: string, request: CommandRequest): Promise<CommandOutcome> {
    const id = randomUUID();
    const command = { ...request, v: 4, id, exp: Date.now() + this.timeoutMs } as DeviceCommand;
    const outcome = new Promise<CommandOutcome>((resolve) => {
      const timer = setTimeout(() => this.settle(id, { result: 'TIMEOUT' }), this.timeoutMs);
      this.pending.set(id, { thingName, settle: resolve, timer });
    });
    try {
      await this.publish(thingName, command);
    } catch {
      this.settle(id, { result: 'TIMEOUT' });
    }
    return outcome;
  }

  /** A reply from a device; ignored unless it answers a pending command sent to that same device. */
  resolve(thingName: string, reply: ReplyFrame): void {
    const pending = this.pending.get(reply.id);
    if (!pending || pending.thingName !== thingName) return;
    this.settle(
      reply.id,
      reply.value === undefined ? { result: reply.result } : { result: reply.result, value: reply.value },
    );
  }

  /** Ends every pending command as timed out (shutdown). */
  cancelAll(): void {
    for (const id of [...this.pending.keys()]) this.settle(id, { result: 'TIMEOUT' });
  }

  private settle(id: string, outcome: CommandOutcome): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    clearTimeout(pending.timer);
    pending.settle(outcome);
  }
}
