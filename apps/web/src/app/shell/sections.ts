import {
  NAV_SECTIONS,
  NAV_TAB_SECTIONS,
  NAV_TABS,
  offeredSections,
  offeredTabs,
  type NavigationSubject,
  type NavSection,
  type NavTab,
} from '@fieldlink/domain/app-variant';

/** Routes of the account tree that some tabs need (null until the tree is read). */
export interface NavRoutes {
  /** The scene dashboards' route (the first group with scenes). */
  scenes: string | null;
  /** The group whose devices an app page (brew summary) opens on. */
  homeGroupId: string | null;
  /** The first account's root group: the spray overview shows every sprayer under it. */
  rootGroupId: string | null;
}

const NO_ROUTES: NavRoutes = { scenes: null, homeGroupId: null, rootGroupId: null };

export interface SubTab {
  tab: NavTab;
  label: string;
  /** Route the tab opens, from the account tree's routes where it needs them. */
  to: (routes: NavRoutes) => string;
  /** Paths (prefixes) that show this tab as selected. */
  matches: readonly string[];
  /** Route patterns (`:param` segments, whole path) that select this tab ahead of any prefix. */
  patterns?: readonly string[];
}

export interface SectionDefinition {
  section: NavSection;
  label: string;
  tabs: readonly SubTab[];
}

/** How each section is named in the top bar. */
const SECTION_LABELS: Readonly<Record<NavSection, string>> = {
  dashboard: 'Dashboard',
  accounts: 'Accounts',
  reports: 'Reports',
  alarms: 'Alarms',
};

/** How each tab is shown and where it leads; which section it sits in is the domain's rule. */
const TAB_PRESENTATION: Readonly<Record<NavTab, Omit<SubTab, 'tab'>>> = {
  devices: { label: 'Devices', to: () => '/dash', matches: ['/dash'] },
  brewing: {
    label: 'Brewing',
    to: ({ homeGroupId }) => (homeGroupId ? `/brew/summary/${encodeURIComponent(homeGroupId)}` : '/dash'),
    matches: ['/brew'],
  },
  spray: {
    label: 'Spray',
    to: ({ rootGroupId }) => (rootGroupId ? `/spray/${encodeURIComponent(rootGroupId)}` : '/dash'),
    matches: ['/spray'],
  },
  inventory: { label: 'Inventory', to: () => '/inv/cig', matches: ['/inv', '/bp-no-data'] },
  scenes: {
    label: 'Scenes',
    to: ({ scenes }) => scenes ?? '/dash',
    matches: [],
    patterns: ['/dash/:accountId/:groupId', '/dash/:accountId/:groupId/:sceneId'],
  },
  treeview: { label: 'Tree view', to: () => '/accounts/treeview', matches: ['/accounts/treeview'] },
  deviceList: { label: 'Device list', to: () => '/accounts/list', matches: ['/accounts/list'] },
  auditLog: { label: 'Audit log', to: () => '/accounts/audit-log', matches: ['/accounts/audit-log'] },
  webhooks: { label: 'Webhooks', to: () => '/accounts/webhooks', matches: ['/accounts/webhooks'] },
  reports: { label: 'Reports', to: () => '/reports', matches: ['/reports'] },
  schedules: { label: 'Schedules', to: () => '/reports/schedules', matches: [], patterns: ['/reports/schedules'] },
  alarms: { label: 'Alarms', to: () => '/alarms', matches: ['/alarms'] },
  alerts: { label: 'Alerts', to: () => '/alerts', matches: ['/alerts'] },
};

/**
 * Navigation of the shell: four sections, each with its sub-tabs (specification §2). Which section a
 * tab sits in and the order of both are the domain's ({@link NAV_TAB_SECTIONS}, {@link NAV_TABS});
 * which of them a user is offered is the domain's rule too ({@link offeredTabs}).
 */
export const SECTION_DEFINITIONS: readonly SectionDefinition[] = NAV_SECTIONS.map((section) => ({
  section,
  label: SECTION_LABELS[section],
  tabs: NAV_TABS.filter((tab) => NAV_TAB_SECTIONS[tab] === section).map((tab) => ({ tab, ...TAB_PRESENTATION[tab] })),
}));

/**
 * The sections and tabs the subject is offered, in order: the domain's {@link offeredSections} (a
 * section without an offered tab is left out) and {@link offeredTabs}.
 */
export function offeredDefinitions(subject: NavigationSubject): SectionDefinition[] {
  const sections = offeredSections(subject);
  const tabs = offeredTabs(subject);
  return SECTION_DEFINITIONS.filter((definition) => sections.includes(definition.section)).map((definition) => ({
    ...definition,
    tabs: definition.tabs.filter((tab) => tabs.includes(tab.tab)),
  }));
}

const matchesPrefix = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** True when the path has the pattern's segments, a `:param` standing for any one non-empty segment. */
function matchesPattern(pathname: string, pattern: string): boolean {
  const path = pathname.replace(/\/+$/, '').split('/');
  const parts = pattern.split('/');
  return (
    path.length === parts.length && parts.every((part, i) => (part.startsWith(':') ? path[i] !== '' : part === path[i]))
  );
}

/** The section and tab a path belongs to, or null for paths outside the four sections. */
export function locateTab(pathname: string): { section: NavSection; tab: NavTab } | null {
  for (const definition of SECTION_DEFINITIONS) {
    const found = definition.tabs.find((tab) => tab.patterns?.some((pattern) => matchesPattern(pathname, pattern)));
    if (found) return { section: definition.section, tab: found.tab };
  }
  for (const definition of SECTION_DEFINITIONS) {
    const found = definition.tabs.find((tab) => tab.matches.some((prefix) => matchesPrefix(pathname, prefix)));
    if (found) return { section: definition.section, tab: found.tab };
  }
  return null;
}

/** Where a tab leads, given the account tree's routes (before the tree is read, a safe default). */
export function tabTarget(tab: SubTab, routes: NavRoutes = NO_ROUTES): string {
  return tab.to(routes);
}

/** Where a section's top-bar link leads: the sub-tab last chosen in that section, else its first. */
export function sectionTarget(definition: SectionDefinition, selected: NavTab | null, routes = NO_ROUTES): string {
  const tab = definition.tabs.find((t) => t.tab === selected) ?? definition.tabs[0];
  return tab ? tabTarget(tab, routes) : '/';
}
