import { randomUUID } from 'node:crypto';
import type { DeviceCommand, ReplyFrame } from '@fieldlink/api/device-frames';
import { COMMAND_TIMEOUT_MS } from '@fieldlink/api/realtime';
import { isAuditedCommand, type AuditAction } from '@fieldlink/domain/audit';
import type { AuditOrigin, AuditRecord } from '../features/audit/service';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A command as a caller states it; the service adds version, correlation id and expiry. */
export type CommandRequest = DistributiveOmit<DeviceCommand, 'v' | 'id' | 'exp'>;

export type CommandOutcome = { result: 'OK' | 'FAIL'; value?: number | string } | { result: 'TIMEOUT' };

/** Publishes a command to a device's down topic. */
export type PublishCommand = (thingName: string, command: DeviceCommand) => Promise<void>;

/**
 * Who sends a command to which device, for the audit trail; `context` joins the entry's values (the
 * group of a broadcast). Or the action whose entry already records it: a queued message is recorded
 * when queued, an update's delivery when it is approved; recording the delivery again would record
 * one change twice.
 */
export type CommandSender =
  | { by: AuditOrigin; device: { id: string; accountId: string; name: string }; context?: Record<string, unknown> }
  | { recordedWith: AuditAction };

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
  /** Per device, the end of the last command queued to be recorded and published. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(
    private readonly publish: PublishCommand,
    /** Writes an audit entry in a transaction of its own (`audit.recordAlone`). */
    private readonly record: (entry: AuditRecord) => Promise<void>,
    /** How long a command waits for its answer. */
    readonly timeoutMs = COMMAND_TIMEOUT_MS,
  ) {}

  /**
   * Sends a command and waits for its answer. One that changes something at the device is recorded
   * in the audit trail before it is published, with its correlation id: a command whose entry could
   * not be written is not sent. Commands to one device leave in the order they were sent, whatever
   * order their entries are written in.
   */
  async send(thingName: string, request: CommandRequest, sender: CommandSender): Promise<CommandOutcome> {
    const id = randomUUID();
    // Wrapped, so the turn ends when the command is out, not when its answer comes.
    const { outcome } = await this.inTurn(thingName, async () => {
      if ('by' in sender && isAuditedCommand(request.cmd)) {
        await this.record({
          accountId: sender.device.accountId,
          by: sender.by,
          action: 'device.command',
          target: { kind: 'device', id: sender.device.id, name: sender.device.name },
          deviceId: sender.device.id,
          after: { ...sender.context, ...request, commandId: id },
        });
      }
      const command = { ...request, v: 4, id, exp: Date.now() + this.timeoutMs } as DeviceCommand;
      const answered = new Promise<CommandOutcome>((resolve) => {
        const timer = setTimeout(() => this.settle(id, { result: 'TIMEOUT' }), this.timeoutMs);
        this.pending.set(id, { thingName, settle: resolve, timer });
      });
      try {
        await this.publish(thingName, command);
      } catch {
        this.settle(id, { result: 'TIMEOUT' });
      }
      return { outcome: answered };
    });
    return outcome;
  }

  /**
   * Runs `step` after the steps queued before it for the same device have ended (failed ones
   * included): a device's commands are recorded and published one at a time, in call order.
   */
  private inTurn<T>(thingName: string, step: () => Promise<T>): Promise<T> {
    const result = (this.turns.get(thingName) ?? Promise.resolve()).then(step);
    const ended = result.then(
      () => undefined,
      () => undefined,
    );
    this.turns.set(thingName, ended);
    void ended.then(() => {
      if (this.turns.get(thingName) === ended) this.turns.delete(thingName);
    });
    return result;
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
