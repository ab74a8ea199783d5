import { describe, expect, it } from 'vitest';
import { runningBatchesKey } from './use-tanks';

// Issue 35 item 8: the finished batches are read again when a tank's running batch changes.
describe('runningBatchesKey', () => {
  const tank = (deviceId: string, batchId: string | null) =>
    ({ deviceId, batchInfo: batchId === null ? null : { id: batchId } }) as Parameters<
      typeof runningBatchesKey
    >[0][number];

  it.each([
    ['an end taken back', [tank('d1', null)], [tank('d1', 'b1')], true],
    ['a batch ended', [tank('d1', 'b1')], [tank('d1', null)], true],
    ['another batch started', [tank('d1', 'b1')], [tank('d1', 'b2')], true],
    ['only readings changed', [tank('d1', 'b1'), tank('d2', null)], [tank('d1', 'b1'), tank('d2', null)], false],
  ])('%s: changed %s', (_name, before, after, changed) =>
    expect(runningBatchesKey(before) !== runningBatchesKey(after)).toBe(changed),
  );
});
