import type { DeviceCommand, ReplyFrame } from '@fieldlink/api/device-frames';
import { replyFrame } from './frame-builder';
import type { DeviceModel } from '@fieldlink/simulation/plant-model';
import type { ConfigChange } from './device-config-memory';

/** Frames a device publishes after answering, so the console sees the effect at once. */
export type FollowUpFrame = 'log' | 'config' | 'health' | 'status';

export interface CommandOutcome {
  readonly reply: ReplyFrame;
  readonly followUps: readonly FollowUpFrame[];
}

/** The parts of a device a command can reach. */
export interface CommandTarget {
  readonly model: DeviceModel;
  setTimeDate(timeDate: { tzName: string; tzRule: string }): void;
  flashLed(): void;
  /** Applies channel settings and intervals (`writeConfig`); false when the device cannot. */
  applyConfig(change: ConfigChange): boolean;
  /** Starts an over-the-air update; false when one is already running. */
  startOtaUpdate(update: { updateId: string; updateCommand: string }): boolean;
}

/** Limits of the config frame's `timeDate`, so a stored time zone always fits the frame. */
const MAX_TZ_NAME = 64;
const MAX_TZ_RULE = 128;

/** Runs one screened command against the device and says what to answer and publish. */
export function runCommand(command: DeviceCommand, target: CommandTarget): CommandOutcome {
  const { model } = target;
  const fail: CommandOutcome = { reply: replyFrame(command.id, 'FAIL'), followUps: [] };
  switch (command.cmd) {
    case 'readChannel': {
      const value = model.readChannel(command.code);
      return value === undefined ? fail : { reply: replyFrame(command.id, 'OK', value), followUps: [] };
    }
    case 'writeChannel': {
      const value = model.writeChannel(command.code, command.value);
      if (value === undefined) return fail;
      return { reply: replyFrame(command.id, 'OK', value), followUps: ['log', 'status'] };
    }
    case 'readRegister': {
      const value = model.readRegister(command.register);
      return value === undefined ? fail : { reply: replyFrame(command.id, 'OK', value), followUps: [] };
    }
    case 'writeRegister': {
      const value = model.writeRegister(command.register, command.value);
      // Registers are part of the config the console keeps, so send it again.
      return value === undefined ? fail : { reply: replyFrame(command.id, 'OK', value), followUps: ['config'] };
    }
    case 'refreshMetadata':
      return { reply: replyFrame(command.id, 'OK'), followUps: ['config', 'health'] };
    case 'system':
      target.flashLed();
      return { reply: replyFrame(command.id, 'OK'), followUps: [] };
    case 'timeDate': {
      const { tzName, tzRule } = command;
      if (tzName.length === 0 || tzName.length > MAX_TZ_NAME || tzRule.length > MAX_TZ_RULE) return fail;
      target.setTimeDate({ tzName, tzRule });
      return { reply: replyFrame(command.id, 'OK'), followUps: ['config', 'health'] };
    }
    case 'writeConfig': {
      // The console learns the new settings from the configuration the device sends again.
      return target.applyConfig(command) ? { reply: replyFrame(command.id, 'OK'), followUps: ['config'] } : fail;
    }
    case 'otaUpdate': {
      const started = target.startOtaUpdate({ updateId: command.updateId, updateCommand: command.updateCommand });
      return started ? { reply: replyFrame(command.id, 'OK'), followUps: [] } : fail;
    }
  }
}
