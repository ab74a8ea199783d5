import { describe, expect, it } from 'vitest';
import { needsResubscribeAfterReconnect } from './resubscribe-rule';

describe('needsResubscribeAfterReconnect', () => {
  it.each([
    ['/dash/PUMP_1', true],
    ['/dash/acc/grp/scene', true],
    ['/inv/cig/overview', true],
    ['/brew/summary/g1', true],
    ['/dash', false],
    ['/accounts/treeview', false],
    ['/reports', false],
  ])('%s -> %s', (path, expected) => {
    expect(needsResubscribeAfterReconnect(path)).toBe(expected);
  });
});
