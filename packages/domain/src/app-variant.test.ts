import { describe, expect, it } from 'vitest';
import {
  isGroupHidden,
  landingFor,
  offeredSections,
  offeredTabs,
  offeredThemes,
  resolveAppType,
  resolveTheme,
  themeNamed,
  THEME_NAMES,
  type AppType,
  type NavigationSubject,
  type VariantAccount,
} from './app-variant';
import type { Permission } from './permissions';

const account = (appType: string, kind = 'customer', theme: string | null = null): VariantAccount => ({
  appType,
  kind,
  theme,
  userVariant: '5',
});

describe('resolveAppType: subdomain, then the account (every kind), then default', () => {
  it.each([
    ['app', account('brew'), 'brew'],
    ['app', account('spray'), 'spray'],
    ['app', account('stock'), 'stock'],
    ['app', account('filtec'), 'filtec'],
    ['app', account('filtec moe'), 'filtec moe'],
    ['app', account('default'), 'default'],
    ['localhost', account('filtec', 'demo'), 'filtec'],
    ['localhost', account('brew', 'investor'), 'brew'],
    ['localhost', account('spray', 'supplier'), 'spray'],
    ['brew', account('default'), 'brew'],
    ['Brew', account('default'), 'brew'],
    ['mosnix', account('default'), 'spray'],
    ['bp', account('default'), 'stock'],
    ['filtec', account('default'), 'filtec'],
    ['moe', account('filtec'), 'filtec moe'],
    ['filtec', account('brew', 'investor'), 'filtec'],
    ['app', account('something-else'), 'default'],
    ['app', null, 'default'],
    ['brew', null, 'brew'],
  ] as const)('subdomain %j, account %j -> %s', (subdomain, variantAccount, expected) => {
    expect(resolveAppType(subdomain, variantAccount)).toBe(expected);
  });
});

describe('resolveTheme: /videos/, subdomain, the user, the account, the default', () => {
  it.each([
    { pathname: '/videos/intro', subdomain: 'bp', userTheme: 'DARK', account: null, expected: 'GREY' },
    {
      pathname: '/videos/',
      subdomain: '',
      userTheme: null,
      account: account('filtec', 'customer', 'filtec'),
      expected: 'GREY',
    },
    { pathname: '/videos', subdomain: '', userTheme: null, account: null, expected: 'GREY' },
    { pathname: '/videosx', subdomain: '', userTheme: null, account: null, expected: 'DEFAULT' },
    {
      pathname: '/dash',
      subdomain: 'bp',
      userTheme: 'DARK',
      account: account('stock', 'customer', 'filtec'),
      expected: 'bp',
    },
    {
      pathname: '/dash',
      subdomain: 'app',
      userTheme: 'DARK',
      account: account('filtec', 'customer', 'filtec'),
      expected: 'DARK',
    },
    { pathname: '/dash', subdomain: 'localhost', userTheme: 'dark', account: null, expected: 'DARK' },
    { pathname: '/dash', subdomain: 'Filtec', userTheme: null, account: null, expected: 'filtec' },
    {
      pathname: '/dash',
      subdomain: 'app',
      userTheme: null,
      account: account('filtec', 'customer', 'filtec'),
      expected: 'filtec',
    },
    {
      pathname: '/dash',
      subdomain: 'app',
      userTheme: null,
      account: account('spray', 'demo', 'mosnix'),
      expected: 'mosnix',
    },
    {
      pathname: '/dash',
      subdomain: 'app',
      userTheme: null,
      account: account('brew', 'investor', 'DARK'),
      expected: 'DARK',
    },
    {
      pathname: '/dash',
      subdomain: 'pre',
      userTheme: null,
      account: account('brew', 'investor', 'DARK'),
      expected: 'pre',
    },
    {
      pathname: '/dash',
      subdomain: 'app',
      userTheme: null,
      account: account('default'),
      defaultTheme: 'realtech',
      expected: 'realtech',
    },
    { pathname: '/signin', subdomain: 'app', userTheme: 'nonsense', account: null, expected: 'DEFAULT' },
    {
      pathname: '/signin',
      subdomain: 'app',
      userTheme: null,
      account: null,
      defaultTheme: 'realtech',
      expected: 'realtech',
    },
    {
      pathname: '/signin',
      subdomain: 'app',
      userTheme: 'GREY',
      account: null,
      defaultTheme: 'realtech',
      expected: 'GREY',
    },
    {
      pathname: '/signin',
      subdomain: 'app',
      userTheme: null,
      account: null,
      defaultTheme: 'unknown',
      expected: 'DEFAULT',
    },
  ])('$pathname on $subdomain, user $userTheme, account $account.theme -> $expected', ({ expected, ...inputs }) => {
    expect(resolveTheme(inputs)).toBe(expected);
  });

  it('names only known themes, ignoring case', () => {
    expect(themeNamed('REDDYICE')).toBe('reddyice');
    expect(themeNamed(' dark ')).toBe('DARK');
    expect(themeNamed('')).toBeNull();
    expect(themeNamed('www')).toBeNull();
    expect(THEME_NAMES).toHaveLength(15);
  });
});

describe('offeredThemes: DEFAULT, DARK and the brands of the account and the host', () => {
  it.each([
    ['app', account('filtec', 'customer', 'filtec'), ['DEFAULT', 'DARK', 'filtec']],
    ['app', account('default'), ['DEFAULT', 'DARK']],
    ['bp', account('default'), ['DEFAULT', 'DARK', 'bp']],
    ['bp', account('spray', 'customer', 'mosnix'), ['DEFAULT', 'DARK', 'bp', 'mosnix']],
    ['localhost', null, ['DEFAULT', 'DARK']],
  ] as const)('subdomain %j, account %j -> %j', (subdomain, variantAccount, expected) => {
    expect(offeredThemes(subdomain, variantAccount)).toEqual(expected);
  });
});

const subject = (appType: AppType, permissions: Permission[], userVariant: string | null = '5'): NavigationSubject => ({
  appType,
  permissions,
  secretPermissions: [],
  userVariant,
});

// The demo users of the README, and the permission sets around them.
const VIEW_DASH_ONLY: Permission[] = ['VIEW_DASH'];
const MOE: Permission[] = ['VIEW_DASH', 'ADD_EDIT_DELETE_SCENES', 'ADD_EDIT_DELETE_WIDGETS', 'ALARM'];
const OPS: Permission[] = ['VIEW_DASH', 'VIEW_ACCOUNTS', 'ADD_EDIT_DELETE_GROUPS', 'INVITE_USERS', 'ADD_DEVICES'];
const STOCK: Permission[] = ['VIEW_ACCOUNTS', 'READ_REPORTS', 'REPORTING', 'REPORTING_PLUS'];
const ACCOUNTS_ONLY: Permission[] = ['VIEW_ACCOUNTS'];
const REPORTS_ONLY: Permission[] = ['READ_REPORTS'];

describe('offeredTabs: the variant and the permissions, nothing the user cannot open', () => {
  it.each([
    ['default', ['ADMIN'], '5', 'devices scenes treeview deviceList auditLog webhooks reports schedules alarms alerts'],
    ['default', VIEW_DASH_ONLY, '5', 'devices scenes deviceList alarms alerts'],
    ['default', OPS, '5', 'devices scenes treeview deviceList alarms alerts'],
    // The device list shows device data: only with the right to read it (VIEW_DASH, issue 34 item 4).
    ['default', ACCOUNTS_ONLY, '5', 'treeview alarms alerts'],
    ['default', REPORTS_ONLY, '5', ''],
    ['default', [], null, ''],
    [
      'brew',
      ['ADMIN'],
      '5',
      'devices brewing scenes treeview deviceList auditLog webhooks reports schedules alarms alerts',
    ],
    ['brew', ACCOUNTS_ONLY, '5', 'treeview alarms alerts'],
    [
      'spray',
      ['ADMIN'],
      '5',
      'devices spray scenes treeview deviceList auditLog webhooks reports schedules alarms alerts',
    ],
    ['spray', OPS, '5', 'devices spray scenes treeview deviceList alarms alerts'],
    ['spray', ACCOUNTS_ONLY, '5', 'treeview alarms alerts'],
    ['stock', STOCK, '2', 'inventory treeview reports alarms alerts'],
    ['stock', VIEW_DASH_ONLY, '2', ''],
    [
      'stock',
      ['ADMIN'],
      '2',
      'devices inventory scenes treeview deviceList auditLog webhooks reports schedules alarms alerts',
    ],
    ['stock', VIEW_DASH_ONLY, '5', 'devices inventory scenes deviceList alarms alerts'],
    ['filtec', ['ADMIN'], '5', 'devices scenes treeview deviceList auditLog webhooks reports schedules alarms alerts'],
    ['filtec moe', MOE, '5', 'devices scenes deviceList alarms alerts'],
  ] as const)('%s with %j, variant %j -> %s', (appType, permissions, variant, expected) => {
    expect(offeredTabs(subject(appType, [...permissions], variant)).join(' ')).toBe(expected);
  });

  it.each([
    ['default', VIEW_DASH_ONLY, '5', 'dashboard accounts alarms'],
    ['filtec moe', MOE, '5', 'dashboard accounts alarms'],
    ['stock', STOCK, '2', 'dashboard accounts reports alarms'],
    ['default', ['ADMIN'], '5', 'dashboard accounts reports alarms'],
    ['default', [], '5', ''],
  ] as const)('sections of %s with %j, variant %j -> %s', (appType, permissions, variant, expected) => {
    expect(offeredSections(subject(appType, [...permissions], variant)).join(' ')).toBe(expected);
  });
});

describe('landingFor: where each variant lands after sign-in', () => {
  it.each([
    ['brew', ['ADMIN'], '5', 'brewSummary'],
    ['brew', ACCOUNTS_ONLY, '5', 'accountsTree'],
    ['spray', OPS, '5', 'sprayOverview'],
    ['spray', ACCOUNTS_ONLY, '5', 'accountsTree'],
    ['stock', STOCK, '2', 'inventory'],
    ['stock', VIEW_DASH_ONLY, '2', 'dashAccessDeny'],
    ['filtec', ['ADMIN'], '5', 'deviceDash'],
    ['filtec moe', MOE, '5', 'deviceDash'],
    ['default', VIEW_DASH_ONLY, '5', 'deviceDash'],
    ['default', OPS, '5', 'deviceDash'],
    ['default', ACCOUNTS_ONLY, '5', 'accountsTree'],
    ['default', ACCOUNTS_ONLY, '2', 'accountsTree'],
    ['default', REPORTS_ONLY, '5', 'dashAccessDeny'],
  ] as const)('%s with %j, variant %j -> %s', (appType, permissions, variant, expected) => {
    expect(landingFor(subject(appType, [...permissions], variant)).page).toBe(expected);
  });
});

describe('isGroupHidden: the placeholder groups are hidden for investor accounts', () => {
  it.each([
    ['investor', 'new', true],
    ['investor', 'trash', true],
    ['investor', 'group', false],
    ['investor', 'root', false],
    ['customer', 'new', false],
    ['customer', 'trash', false],
    ['demo', 'new', false],
    ['supplier', 'trash', false],
  ])('%s account, %s group -> %s', (kind, groupKind, expected) => {
    expect(isGroupHidden(kind, groupKind)).toBe(expected);
  });
});
