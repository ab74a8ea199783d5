import { describe, expect, it } from 'vitest';
import { parseServerAction } from './message-guard';

describe('parseServerAction', () => {
  it.each([
    ['not json', '{nope'],
    ['not a string', 42],
    ['unknown type', JSON.stringify({ type: 'server/somethingNew', thingName: 'PUMP_1' })],
    ['no type', JSON.stringify({ thingName: 'PUMP_1' })],
    ['wrong shape', JSON.stringify({ type: 'server/newRawLogs', thingName: 'PUMP_1', logs: { c1: [{ value: 'x' }] } })],
    ['bad thing name', JSON.stringify({ type: 'server/health', thingName: '../etc', health: {} })],
  ])('ignores %s', (_name, data) => {
    expect(parseServerAction(data)).toBeNull();
  });

  it('accepts a known, well-formed action', () => {
    const action = { type: 'server/newRawLogs', thingName: 'PUMP_1', logs: { c1: [{ value: 2, t: 1 }] } };
    expect(parseServerAction(JSON.stringify(action))).toEqual(action);
    expect(
      parseServerAction(JSON.stringify({ type: 'server/reply', id: '7', ok: false, error: 'Command Failed.' })),
    ).toMatchObject({ type: 'server/reply', ok: false });
  });
});
