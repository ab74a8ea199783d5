import { describe, expect, it } from 'vitest';
import { locateTab, sectionTarget, SECTION_DEFINITIONS } from './sections';

describe('locateTab', () => {
  it.each([
    ['/dash', { section: 'dashboard', index: 0 }],
    ['/dash/PUMP_1', { section: 'dashboard', index: 0 }],
    ['/brew/summary/g1', { section: 'dashboard', index: 1 }],
    ['/inv/cig/overview', { section: 'dashboard', index: 2 }],
    ['/accounts/list', { section: 'accounts', index: 1 }],
    ['/reports', { section: 'reports', index: 0 }],
    ['/alerts', { section: 'alarms', index: 1 }],
    ['/dashboard', null],
    ['/privacy', null],
  ])('%s -> %o', (path, expected) => {
    expect(locateTab(path)).toEqual(expected);
  });
});

describe('sectionTarget', () => {
  it('opens the sub-tab last chosen in each section independently', () => {
    const [dashboard, accounts] = SECTION_DEFINITIONS;
    expect(sectionTarget(accounts!, 1)).toBe('/accounts/list');
    expect(sectionTarget(dashboard!, 0)).toBe('/dash');
    expect(sectionTarget(dashboard!, 9)).toBe('/dash');
  });
});

describe('the Scenes sub-tab', () => {
  it.each([
    ['/dash/acc1/g1', { section: 'dashboard', index: 3 }],
    ['/dash/acc1/g1/s1', { section: 'dashboard', index: 3 }],
    ['/dash/acc1/g1/', { section: 'dashboard', index: 3 }],
    ['/dash/PUMP_1', { section: 'dashboard', index: 0 }],
    ['/dash/acc1/g1/s1/extra', { section: 'dashboard', index: 0 }],
  ])('%s -> %o', (path, expected) => {
    expect(locateTab(path)).toEqual(expected);
  });

  it('leads to the scene dashboards once the account tree is read', () => {
    const [dashboard] = SECTION_DEFINITIONS;
    expect(sectionTarget(dashboard!, 3, '/dash/acc1/g2')).toBe('/dash/acc1/g2');
    expect(sectionTarget(dashboard!, 3)).toBe('/dash');
    expect(sectionTarget(dashboard!, 0, '/dash/acc1/g2')).toBe('/dash');
  });
});
