import { describe, expect, it } from 'vitest';
import { shouldReplaceLatest } from './log-merge';

const s = (t: number, value = t) => ({ t, value });

describe('shouldReplaceLatest', () => {
  it.each([
    ['no stored value', undefined, s(5), true],
    ['null stored value', null, s(5), true],
    ['newer sample', s(5), s(6), true],
    ['same time', s(5, 1), s(5, 2), true],
    ['older sample', s(5), s(4), false],
  ])('%s -> %s', (_label, current, incoming, expected) =>
    expect(shouldReplaceLatest(current, incoming)).toBe(expected),
  );
});
