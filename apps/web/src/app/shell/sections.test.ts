import { describe, expect, it } from 'vitest';
import { NAV_TAB_SECTIONS, NAV_TABS } from '@fieldlink/domain/app-variant';
import { locateTab, offeredDefinitions, sectionTarget, SECTION_DEFINITIONS } from './sections';

describe('locateTab', () => {
  it.each([
    ['/dash', { section: 'dashboard', tab: 'devices' }],
    ['/dash/PUMP_1', { section: 'dashboard', tab: 'devices' }],
    ['/brew/summary/g1', { section: 'dashboard', tab: 'brewing' }],
    ['/spray/g1', { section: 'dashboard', tab: 'spray' }],
    ['/inv/cig/overview', { section: 'dashboard', tab: 'inventory' }],
    ['/bp-no-data', { section: 'dashboard', tab: 'inventory' }],
    ['/accounts/treeview', { section: 'accounts', tab: 'treeview' }],
    ['/accounts/list', { section: 'accounts', tab: 'deviceList' }],
    ['/reports', { section: 'reports', tab: 'reports' }],
    ['/reports/schedules', { section: 'reports', tab: 'schedules' }],
    ['/alarms', { section: 'alarms', tab: 'alarms' }],
    ['/alerts', { section: 'alarms', tab: 'alerts' }],
    ['/dashboard', null],
    ['/privacy', null],
  ])('%s -> %o', (path, expected) => {
    expect(locateTab(path)).toEqual(expected);
  });

  it('has one tab definition for every tab of the domain, in the domain’s section', () => {
    const defined = SECTION_DEFINITIONS.flatMap((d) => d.tabs.map((tab) => [tab.tab, d.section]));
    expect(defined.map(([tab]) => tab).sort()).toEqual([...NAV_TABS].sort());
    for (const [tab, section] of defined) expect(NAV_TAB_SECTIONS[tab as keyof typeof NAV_TAB_SECTIONS]).toBe(section);
  });
});

describe('sectionTarget', () => {
  const routes = { scenes: '/dash/acc1/g2', homeGroupId: 'g7', rootGroupId: 'root1' };

  it('opens the sub-tab last chosen in each section independently, else the first offered', () => {
    const [dashboard, accounts] = SECTION_DEFINITIONS;
    expect(sectionTarget(accounts!, 'deviceList')).toBe('/accounts/list');
    expect(sectionTarget(dashboard!, 'devices')).toBe('/dash');
    expect(sectionTarget(dashboard!, null)).toBe('/dash');
    expect(sectionTarget(dashboard!, 'brewing', routes)).toBe('/brew/summary/g7');
    expect(sectionTarget(dashboard!, 'spray', routes)).toBe('/spray/root1');
  });

  it('leads the Scenes tab to the scene dashboards once the account tree is read', () => {
    const [dashboard] = SECTION_DEFINITIONS;
    expect(sectionTarget(dashboard!, 'scenes', routes)).toBe('/dash/acc1/g2');
    expect(sectionTarget(dashboard!, 'scenes')).toBe('/dash');
    expect(sectionTarget(dashboard!, 'devices', routes)).toBe('/dash');
  });

  it('never leads a section to a tab the user is not offered', () => {
    const stock = offeredDefinitions({
      appType: 'stock',
      permissions: ['VIEW_ACCOUNTS', 'READ_REPORTS'],
      userVariant: '2',
    });
    expect(stock.map((d) => [d.section, d.tabs.map((tab) => tab.tab)])).toEqual([
      ['dashboard', ['inventory']],
      // No device list without the right to read devices (VIEW_DASH): it shows their data.
      ['accounts', ['treeview']],
      ['reports', ['reports']],
      ['alarms', ['alarms', 'alerts']],
    ]);
    expect(sectionTarget(stock[0]!, 'devices')).toBe('/inv/cig');
    expect(sectionTarget(stock[1]!, 'deviceList')).toBe('/accounts/treeview');
  });
});

describe('the Scenes sub-tab', () => {
  it.each([
    ['/dash/acc1/g1', { section: 'dashboard', tab: 'scenes' }],
    ['/dash/acc1/g1/s1', { section: 'dashboard', tab: 'scenes' }],
    ['/dash/acc1/g1/', { section: 'dashboard', tab: 'scenes' }],
    ['/dash/PUMP_1', { section: 'dashboard', tab: 'devices' }],
    ['/dash/acc1/g1/s1/extra', { section: 'dashboard', tab: 'devices' }],
  ])('%s -> %o', (path, expected) => {
    expect(locateTab(path)).toEqual(expected);
  });
});

// Issue 39 item 3: Accounts → Webhooks is offered to those who may manage webhooks, and to nobody else.
describe('the Webhooks sub-tab', () => {
  const labels = (permissions: string[]) =>
    offeredDefinitions({ appType: 'default', permissions: permissions as never })
      .flatMap((definition) => definition.tabs)
      .map((tab) => tab.label);

  it.each([
    [['ADMIN'], true],
    [['VIEW_DASH', 'VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS', 'INVITE_USERS', 'ADD_DEVICES'], false],
    [['VIEW_ACCOUNTS', 'READ_REPORTS'], false],
  ])('with %j: %s', (permissions, offered) => {
    expect(labels(permissions).includes('Webhooks')).toBe(offered);
  });

  it('opens /accounts/webhooks in the Accounts section', () => {
    expect(locateTab('/accounts/webhooks')).toEqual({ section: 'accounts', tab: 'webhooks' });
  });
});
