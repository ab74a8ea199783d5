import { describe, expect, it } from 'vitest';
import type { BrewBatchesAnswer } from '@fieldlink/api/brew';
import { takeBackOffers } from './take-back';

type Summary = BrewBatchesAnswer['batches'][number];

// Issue 35 item 8: the end of a tank's newest batch may be taken back while the tank is idle.
describe('takeBackOffers', () => {
  const batch = (id: string, deviceId: string, ended: boolean) =>
    ({ id, deviceId, date: { start: 1, end: ended ? 2 : null } }) as Summary;
  const tank = (deviceId: string, running: string | null) => ({
    deviceId,
    batchInfo:
      running === null
        ? null
        : ({ id: running } as NonNullable<Parameters<typeof takeBackOffers>[1][number]['batchInfo']>),
  });

  it.each<[string, Summary[], ReturnType<typeof tank>[], string[]]>([
    [
      'the newest batch of an idle tank',
      [batch('b2', 'd1', true), batch('b1', 'd1', true)],
      [tank('d1', null)],
      ['b2'],
    ],
    [
      'not when the tank runs another batch',
      [batch('b2', 'd1', false), batch('b1', 'd1', true)],
      [tank('d1', 'b2')],
      [],
    ],
    ['not a running batch', [batch('b1', 'd1', false)], [tank('d1', 'b1')], []],
    [
      'each idle tank its own',
      [batch('b3', 'd2', true), batch('b2', 'd1', true)],
      [tank('d1', null), tank('d2', null)],
      ['b3', 'b2'],
    ],
    ['not a tank the group no longer has', [batch('b1', 'd9', true)], [tank('d1', null)], []],
  ])('%s', (_name, batches, tanks, offered) =>
    expect([...takeBackOffers(batches, tanks)].sort()).toEqual([...offered].sort()),
  );
});
