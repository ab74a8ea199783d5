import { describe, expect, it } from 'vitest';
import { CommandInbox } from './command-inbox';

const NOW = Date.UTC(2025, 0, 1);

function readChannel(id: string, exp = NOW + 60_000): string {
  return JSON.stringify({ v: 4, id, exp, cmd: 'readChannel', code: 'c1' });
}

describe('CommandInbox', () => {
  it('runs a fresh command', () => {
    expect(new CommandInbox().receive(readChannel('a'), NOW)).toMatchObject({ action: 'run', command: { id: 'a' } });
  });

  it.each([
    ['in milliseconds', NOW - 1],
    ['in seconds (12 digits or fewer)', Math.floor(NOW / 1000) - 1],
    ['exactly now', NOW],
  ])('ignores a command whose expiry %s has passed', (_, exp) => {
    expect(new CommandInbox().receive(readChannel('a', exp), NOW)).toEqual({ action: 'ignore', reason: 'expired' });
  });

  it('accepts an expiry in seconds that is still ahead', () => {
    const exp = Math.floor(NOW / 1000) + 30;
    expect(new CommandInbox().receive(readChannel('a', exp), NOW).action).toBe('run');
  });

  it('never runs an id twice: a copy in flight is ignored, a later one gets the first answer', () => {
    const inbox = new CommandInbox();
    expect(inbox.receive(readChannel('a'), NOW).action).toBe('run');
    expect(inbox.receive(readChannel('a'), NOW)).toEqual({ action: 'ignore', reason: 'duplicate' });
    const reply = { v: 4, type: 'reply', id: 'a', result: 'OK', value: 3 } as const;
    inbox.record('a', reply);
    expect(inbox.receive(readChannel('a'), NOW)).toEqual({ action: 'replay', reply });
  });

  it('forgets the oldest ids beyond its capacity, so memory stays bounded', () => {
    const inbox = new CommandInbox(3);
    for (const id of ['a', 'b', 'c', 'd']) inbox.receive(readChannel(id), NOW);
    expect(inbox.receive(readChannel('a'), NOW).action).toBe('run');
    expect(inbox.receive(readChannel('d'), NOW).action).toBe('ignore');
  });

  it('answers FAIL to an invalid command that carries an id, and drops one without', () => {
    const inbox = new CommandInbox();
    const invalid = JSON.stringify({ v: 4, id: 'x', exp: NOW + 1000, cmd: 'writeChannel', code: 'sp1' });
    expect(inbox.receive(invalid, NOW)).toEqual({
      action: 'reject',
      reply: { v: 4, type: 'reply', id: 'x', result: 'FAIL' },
    });
    expect(inbox.receive(JSON.stringify({ cmd: 'readChannel' }), NOW)).toEqual({
      action: 'ignore',
      reason: 'malformed',
    });
    expect(inbox.receive('{not json', NOW)).toEqual({ action: 'ignore', reason: 'malformed' });
    expect(inbox.receive(Buffer.from(readChannel('y')), NOW).action).toBe('run');
  });
});
