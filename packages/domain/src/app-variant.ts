import { readsDevices } from './device-actions';
import { can, landingAfterDeviceRead, type PermissionSubject } from './permissions';

/**
 * Application variants (core §1, applications §1): which app a signed-in user gets (brewing, spray,
 * stock, the two water-plant apps or the default), which theme the page wears, which sections and
 * sub-tabs the console offers and where the user lands after sign-in. One rule for all of it, used
 * by the web shell and its tests; the server authorises every call on its own through
 * {@link can}, so a tab offered here is always a page the user may open.
 */

/** Account app types. */
export const APP_TYPES = ['brew', 'spray', 'stock', 'filtec', 'filtec moe', 'default'] as const;
export type AppType = (typeof APP_TYPES)[number];

/**
 * Account kinds: a supplier above its customers, a customer, and the two kinds core §1 singles out:
 * the special kind (`demo`, a showcase account whose data is simulated) and the investor kind.
 */
export const ACCOUNT_KINDS = ['supplier', 'customer', 'demo', 'investor'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];

/** Themes every console offers; GREY is forced under /videos/ (core §1). */
export const BASE_THEMES = ['DEFAULT', 'DARK', 'GREY'] as const;
/** Customer (brand) themes (applications §6). */
export const CUSTOMER_THEMES = [
  'bp',
  'mosnix',
  'opg',
  'filtec',
  'intech',
  'securelogic',
  'pre',
  'reddyice',
  'corrigan',
  'wellstar',
  'realtech',
  'pfannenberg',
] as const;
export const THEME_NAMES = [...BASE_THEMES, ...CUSTOMER_THEMES] as const;
export type ThemeName = (typeof THEME_NAMES)[number];

/** Theme forced for paths under /videos/ (core §1). */
export const VIDEOS_THEME: ThemeName = 'GREY';

/**
 * Subdomains that name an app: the app's own name, or the brand that sells it. Any other subdomain
 * (a brand selling several apps, `localhost`, `app`) leaves the app to the account.
 */
export const SUBDOMAIN_APP_TYPES: Readonly<Record<string, AppType>> = {
  brew: 'brew',
  spray: 'spray',
  mosnix: 'spray',
  stock: 'stock',
  bp: 'stock',
  filtec: 'filtec',
  moe: 'filtec moe',
};

/** The account as far as the variant goes (the account of the user's first attachment point). */
export interface VariantAccount {
  appType: string;
  kind: string;
  /** The account's brand theme, if it has one. */
  theme?: string | null;
  userVariant: string | null;
}

const BY_LOWER_THEME: ReadonlyMap<string, ThemeName> = new Map(THEME_NAMES.map((name) => [name.toLowerCase(), name]));

/** The theme a text names, ignoring case (`dark` and `DARK` both name DARK), else null. */
export function themeNamed(text: string | null | undefined): ThemeName | null {
  if (!text) return null;
  return BY_LOWER_THEME.get(text.trim().toLowerCase()) ?? null;
}

/** The app type a text names, else null. */
export function appTypeNamed(text: string | null | undefined): AppType | null {
  return (APP_TYPES as readonly string[]).includes(text ?? '') ? (text as AppType) : null;
}

/**
 * The app the user gets (core §1): the one the page subdomain names; else the account's own app type,
 * whatever its kind (customer, supplier, the special `demo` kind, `investor`); else `default`.
 */
export function resolveAppType(subdomain: string, account: VariantAccount | null): AppType {
  return SUBDOMAIN_APP_TYPES[subdomain.toLowerCase()] ?? appTypeNamed(account?.appType) ?? 'default';
}

export interface ThemeInputs {
  pathname: string;
  subdomain: string;
  /** The user's own choice: the local key `theme`, kept in step with the user's stored theme. */
  userTheme: string | null;
  /** The account of the user's first attachment point, once it is read. */
  account: VariantAccount | null;
  /** The installation's configured default. */
  defaultTheme?: string | null;
}

/**
 * The video library's pages (core §1, §2): `/videos/*`, and `/videos` itself, which is the same
 * library without the trailing slash (issue 35 item 12): public and GREY like `/videos/`, so the
 * address a person types is not refused or rebranded.
 */
export const isVideosPath = (pathname: string): boolean => pathname === '/videos' || pathname.startsWith('/videos/');

/**
 * The theme to show (core §1): GREY under /videos/ (and /videos); else the brand the page subdomain names; else the
 * user's own choice (local key `theme`); else the account's brand, whatever its kind; else the
 * configured default; else DEFAULT. A white-labelled host wins over a personal choice so a customer's
 * own domain always shows the customer's brand.
 */
export function resolveTheme(inputs: ThemeInputs): ThemeName {
  if (isVideosPath(inputs.pathname)) return VIDEOS_THEME;
  return (
    themeNamed(inputs.subdomain) ??
    themeNamed(inputs.userTheme) ??
    themeNamed(inputs.account?.theme) ??
    themeNamed(inputs.defaultTheme) ??
    'DEFAULT'
  );
}

/**
 * The themes the user may pick (not every customer's brand): DEFAULT and DARK, the account's brand,
 * and the brand of the page subdomain. GREY belongs to the video library and is not offered.
 */
export function offeredThemes(subdomain: string, account: VariantAccount | null): ThemeName[] {
  const brands = [themeNamed(account?.theme), themeNamed(subdomain)];
  return THEME_NAMES.filter((name) => name === 'DEFAULT' || name === 'DARK' || brands.includes(name));
}

/** Sections of the console, each keeping its own sub-tab selection (§2). */
export const NAV_SECTIONS = ['dashboard', 'accounts', 'reports', 'alarms'] as const;
export type NavSection = (typeof NAV_SECTIONS)[number];

/** Every page the navigation can offer. */
export const NAV_TABS = [
  'devices',
  'brewing',
  'spray',
  'inventory',
  'scenes',
  'treeview',
  'deviceList',
  'auditLog',
  'webhooks',
  'reports',
  'schedules',
  'alarms',
  'alerts',
] as const;
export type NavTab = (typeof NAV_TABS)[number];

/** The section each tab sits in, in the order the sub navigation shows them. */
export const NAV_TAB_SECTIONS: Readonly<Record<NavTab, NavSection>> = {
  devices: 'dashboard',
  brewing: 'dashboard',
  spray: 'dashboard',
  inventory: 'dashboard',
  scenes: 'dashboard',
  treeview: 'accounts',
  deviceList: 'accounts',
  auditLog: 'accounts',
  webhooks: 'accounts',
  reports: 'reports',
  schedules: 'reports',
  alarms: 'alarms',
  alerts: 'alarms',
};

/** The signed-in user as far as navigation goes. */
export interface NavigationSubject extends PermissionSubject {
  appType: AppType;
}

/**
 * When each tab is offered: the page's own permission (the one its server calls check) and, for the
 * app pages, the variant. The device and scene dashboards need VIEW_DASH (live values and scenes are
 * refused without it); the inventory is the stock app's home and opens with dashboard access, which
 * variant "2" grants through VIEW_ACCOUNTS; the account tree needs VIEW_ACCOUNTS; reports need
 * READ_REPORTS and their schedules READ_REPORT_SCHEDULES; the device list shows device data, so it
 * needs the right to read it ({@link readsDevices}, the rule its server calls and its live feed
 * check); alarms and alerts are open to every signed-in user of their scope.
 */
export const NAV_TAB_RULES: Readonly<Record<NavTab, (subject: NavigationSubject) => boolean>> = {
  devices: (s) => can(s, 'viewDashboard'),
  brewing: (s) => s.appType === 'brew' && can(s, 'viewDashboard'),
  spray: (s) => s.appType === 'spray' && can(s, 'viewDashboard'),
  inventory: (s) => s.appType === 'stock' && can(s, 'accessDashboard'),
  scenes: (s) => can(s, 'viewDashboard'),
  treeview: (s) => can(s, 'viewAccounts'),
  deviceList: (s) => readsDevices(s),
  /** The audit trail (issue 38): administrators, as its server calls require. */
  auditLog: (s) => can(s, 'readAuditLog'),
  /** An account's webhooks (issue 39 item 3): administrators, as its server calls require. */
  webhooks: (s) => can(s, 'manageWebhooks'),
  reports: (s) => can(s, 'readReports'),
  schedules: (s) => can(s, 'readReportSchedules'),
  alarms: () => true,
  alerts: () => true,
};

/** The tabs offered to the subject, in {@link NAV_TABS} order; nothing without dashboard access. */
export function offeredTabs(subject: NavigationSubject): NavTab[] {
  if (!can(subject, 'accessDashboard')) return [];
  return NAV_TABS.filter((tab) => NAV_TAB_RULES[tab](subject));
}

/** The sections that offer at least one tab, in order. */
export function offeredSections(subject: NavigationSubject): NavSection[] {
  const tabs = offeredTabs(subject);
  return NAV_SECTIONS.filter((section) => tabs.some((tab) => NAV_TAB_SECTIONS[tab] === section));
}

/** Where a user lands after sign-in, as a page and what it needs from the account tree. */
export type Landing =
  | { page: 'dashAccessDeny' }
  | { page: 'brewSummary' }
  | { page: 'sprayOverview' }
  | { page: 'inventory' }
  /** The first device's dashboard: a water plant's generated dashboard, or the device dash. */
  | { page: 'deviceDash' }
  | { page: 'accountsTree' };

/**
 * The landing page after sign-in (core §4, applications §1): without dashboard access,
 * /dashAccessDeny; the brewing app on the brew summary, the spray app on its overview, the stock app
 * on the inventory, the water-plant and default apps on a device dashboard; without VIEW_DASH, the
 * account tree (VIEW_ACCOUNTS is then held, since dashboard access needs one of the two).
 */
export function landingFor(subject: NavigationSubject): Landing {
  const tabs = offeredTabs(subject);
  if (tabs.length === 0) return { page: 'dashAccessDeny' };
  if (tabs.includes('brewing')) return { page: 'brewSummary' };
  if (tabs.includes('spray')) return { page: 'sprayOverview' };
  if (tabs.includes('inventory')) return { page: 'inventory' };
  // Core §4: view-dashboard to a device dash, view-accounts only to the account tree.
  return landingAfterDeviceRead(subject) === 'dash' ? { page: 'deviceDash' } : { page: 'accountsTree' };
}

/**
 * Account kinds for which the placeholder groups (New Devices or New Stock, and Trash) are hidden:
 * an investor watches the plants and reads the reports; devices waiting to be placed and deleted
 * entities are the operator's business ("certain groups are hidden for one account kind", §6).
 */
export const PLACEHOLDER_GROUPS_HIDDEN_KINDS: readonly string[] = ['investor'];

/** True when a group of this kind (`root`, `group`, `new`, `trash`) is hidden for the account kind. */
export function isGroupHidden(accountKind: string, groupKind: string): boolean {
  return PLACEHOLDER_GROUPS_HIDDEN_KINDS.includes(accountKind) && (groupKind === 'new' || groupKind === 'trash');
}
