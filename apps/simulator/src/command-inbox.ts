import { DeviceCommand, type ReplyFrame } from '@fieldlink/api/device-frames';
import { Value } from '@sinclair/typebox/value';
import { replyFrame } from './frame-builder';

/** What to do with a message that arrived on the device's command topic. */
export type InboxVerdict =
  | { readonly action: 'run'; readonly command: DeviceCommand }
  /** Seen before: send the same answer again (QoS 1 may redeliver) but do not run it twice. */
  | { readonly action: 'replay'; readonly reply: ReplyFrame }
  /** Not a valid command but it names an id, so the sender can stop waiting. */
  | { readonly action: 'reject'; readonly reply: ReplyFrame }
  | { readonly action: 'ignore'; readonly reason: 'expired' | 'malformed' | 'duplicate' };

/** Ids the device keeps to recognise a repeated command; older ones are forgotten first. */
const DEFAULT_RECENT_IDS = 256;
/** The longest id a reply frame can carry. */
const MAX_ID_LENGTH = 64;

/**
 * Screens incoming commands: drops the expired and the unparsable, and never lets one command id
 * run twice, remembering a bounded number of recent ids with their replies.
 */
export class CommandInbox {
  private readonly recent = new Map<string, ReplyFrame | undefined>();

  constructor(private readonly capacity = DEFAULT_RECENT_IDS) {}

  receive(payload: string | Uint8Array, nowMs: number): InboxVerdict {
    let message: unknown;
    try {
      message = JSON.parse(typeof payload === 'string' ? payload : Buffer.from(payload).toString('utf8'));
    } catch {
      return { action: 'ignore', reason: 'malformed' };
    }
    const id = commandId(message);
    const exp = isRecord(message) && typeof message.exp === 'number' ? message.exp : undefined;
    if (exp !== undefined && expiryMs(exp) <= nowMs) return { action: 'ignore', reason: 'expired' };
    if (id !== undefined && this.recent.has(id)) {
      const earlier = this.recent.get(id);
      return earlier ? { action: 'replay', reply: earlier } : { action: 'ignore', reason: 'duplicate' };
    }
    if (!Value.Check(DeviceCommand, message)) {
      if (id === undefined) return { action: 'ignore', reason: 'malformed' };
      const reply = replyFrame(id, 'FAIL');
      this.record(id, reply);
      return { action: 'reject', reply };
    }
    if (id === undefined) return { action: 'ignore', reason: 'malformed' };
    // Claimed before it runs, so a copy arriving meanwhile is not run again.
    this.record(id, undefined);
    return { action: 'run', command: message };
  }

  /** Stores the answer to a command so that a repeat of its id gets the same answer. */
  record(id: string, reply: ReplyFrame | undefined): void {
    this.recent.delete(id);
    this.recent.set(id, reply);
    while (this.recent.size > this.capacity) {
      const oldest = this.recent.keys().next();
      if (oldest.done) break;
      this.recent.delete(oldest.value);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function commandId(message: unknown): string | undefined {
  if (!isRecord(message) || typeof message.id !== 'string') return undefined;
  return message.id.length > 0 && message.id.length <= MAX_ID_LENGTH ? message.id : undefined;
}

/** Expiry in ms; a value of 12 digits or fewer is in seconds, as for every protocol timestamp. */
function expiryMs(exp: number): number {
  return exp < 1e12 ? exp * 1000 : exp;
}
