import { describe, expect, it } from 'vitest';
import {
  WORK_LIMITS,
  unknownChannelCode,
  unknownChannelCodeMessage,
  workLimitMessage,
  workLimitRefusal,
  type WorkLimitName,
} from './work-limits';

describe('work limits', () => {
  it.each([
    [
      'up to every limit',
      [
        ['reportsInFlightPerUser', 5],
        ['reportsInFlightPerAccount', 20],
      ],
      null,
    ],
    [
      'past the user limit',
      [
        ['reportsInFlightPerUser', 6],
        ['reportsInFlightPerAccount', 6],
      ],
      'reportsInFlightPerUser',
    ],
    [
      'past the account limit',
      [
        ['reportsInFlightPerUser', 1],
        ['reportsInFlightPerAccount', 21],
      ],
      'reportsInFlightPerAccount',
    ],
    [
      'past both: the first named',
      [
        ['schedulesPerUser', 31],
        ['schedulesPerAccount', 101],
      ],
      'schedulesPerUser',
    ],
    ['a queue filled to its limit', [['queuedMessagesPerDevice', 50]], null],
    ['a queue past its limit', [['queuedMessagesPerDevice', 51]], 'queuedMessagesPerDevice'],
  ] as const)('%s', (_label, counts, refused) => {
    expect(workLimitRefusal(counts as ReadonlyArray<readonly [WorkLimitName, number]>)?.limit ?? null).toBe(refused);
  });

  it('names the limit and its value, and when to try again only for work that finishes by itself', () => {
    expect(workLimitRefusal([['batchReportsInFlightPerUser', 4]])).toEqual({
      limit: 'batchReportsInFlightPerUser',
      max: 3,
      retryAfterSeconds: 10,
      message:
        'Limit reached: at most 3 batch reports generating at a time per user. Please wait until one is ready. ' +
        'Please try again in 10 seconds.',
    });
    expect(workLimitMessage('schedulesPerAccount')).toBe(
      'Limit reached: at most 100 report schedules per account. Delete a schedule no longer needed to make room.',
    );
    expect(workLimitRefusal([['reportsKeptPerUser', 501]])?.retryAfterSeconds).toBeNull();
  });

  it('has an account limit at least as large as the user limit of the same thing', () => {
    const pairs = [
      ['reportsInFlightPerUser', 'reportsInFlightPerAccount'],
      ['reportsKeptPerUser', 'reportsKeptPerAccount'],
      ['batchReportsInFlightPerUser', 'batchReportsInFlightPerAccount'],
      ['batchReportsKeptPerUser', 'batchReportsKeptPerAccount'],
      ['schedulesPerUser', 'schedulesPerAccount'],
    ] as const;
    for (const [user, account] of pairs) expect(WORK_LIMITS[account].max).toBeGreaterThanOrEqual(WORK_LIMITS[user].max);
  });
});

describe('unknown channel codes', () => {
  it.each([
    ['setpoints and flags of the specification', ['sp1', 'SP-16', 'gpf32', 'do16', 't10'], null, null],
    ['a made-up prefix', ['sp1', 'zz12'], null, 'zz12'],
    ['past its prefix’s count', ['gpf33'], null, 'gpf33'],
    ['channel 0', ['c0'], null, 'c0'],
    ['expanded IO without any configured', ['xdo1'], null, 'xdo1'],
    ['expanded IO within the device’s', ['xdo4'], 4, null],
    ['expanded IO past the device’s', ['xdo5'], 4, 'xdo5'],
  ] as const)('%s', (_label, codes, expandedIoMax, unknown) => {
    expect(unknownChannelCode(codes, expandedIoMax)).toBe(unknown);
  });

  it('names the code', () => {
    expect(unknownChannelCodeMessage('zz12')).toBe('Unknown channel code for this device: zz12.');
  });
});
