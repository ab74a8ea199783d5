import { describe, expect, it } from 'vitest';
import type { ReportState } from '@fieldlink/domain/reports';
import { newlyFailedReports } from './report-failures';

// Issue 35 item 10: a report that fails gets a toast, once, even when it failed before it was listed.
describe('newlyFailedReports', () => {
  const OPENED = 1_000_000;
  const report = (id: string, state: ReportState, createdAt = OPENED + 5_000) => ({ id, state, createdAt });

  it.each<[string, Map<string, ReportState>, ReturnType<typeof report>, boolean]>([
    ['seen generating, now failed', new Map([['r', 'GENERATING']]), report('r', 'ERROR'), true],
    ['first seen failed, made since the page opened', new Map(), report('r', 'ERROR'), true],
    ['first seen failed, made long before', new Map(), report('r', 'ERROR', OPENED - 3_600_000), false],
    ['already told', new Map([['r', 'ERROR']]), report('r', 'ERROR'), false],
    ['ready', new Map([['r', 'GENERATING']]), report('r', 'READY'), false],
  ])('%s: %s', (_name, seen, given, told) => {
    expect(newlyFailedReports([given], seen, OPENED).length > 0).toBe(told);
    expect(seen.get('r')).toBe(given.state);
    expect(newlyFailedReports([given], seen, OPENED)).toEqual([]);
  });
});
