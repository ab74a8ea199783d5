import type { Section } from '../../lib/app-store/app-store';

export interface SubTab {
  label: string;
  /** Route the tab opens. */
  to: string;
  /** Paths (prefixes) that show this tab as selected. */
  matches: readonly string[];
  /** Route patterns (`:param` segments, whole path) that select this tab ahead of any prefix. */
  patterns?: readonly string[];
  /** The tab opens the scene dashboards: its route comes from the account tree (`to` until it is read). */
  scenes?: boolean;
}

export interface SectionDefinition {
  section: Section;
  label: string;
  tabs: readonly SubTab[];
}

/** Navigation of the shell: four sections, each with its sub-tabs (specification §2). */
export const SECTION_DEFINITIONS: readonly SectionDefinition[] = [
  {
    section: 'dashboard',
    label: 'Dashboard',
    tabs: [
      { label: 'Devices', to: '/dash', matches: ['/dash'] },
      { label: 'Brewing', to: '/coming-soon', matches: ['/brew', '/coming-soon'] },
      { label: 'Inventory', to: '/inv/cig/overview', matches: ['/inv', '/bp-no-data'] },
      {
        label: 'Scenes',
        to: '/dash',
        matches: [],
        patterns: ['/dash/:accountId/:groupId', '/dash/:accountId/:groupId/:sceneId'],
        scenes: true,
      },
    ],
  },
  {
    section: 'accounts',
    label: 'Accounts',
    tabs: [
      { label: 'Tree view', to: '/accounts/treeview', matches: ['/accounts/treeview'] },
      { label: 'Device list', to: '/accounts/list', matches: ['/accounts/list'] },
    ],
  },
  {
    section: 'reports',
    label: 'Reports',
    tabs: [
      { label: 'Reports', to: '/reports', matches: ['/reports'] },
      { label: 'Schedules', to: '/reports/schedules', matches: [], patterns: ['/reports/schedules'] },
    ],
  },
  {
    section: 'alarms',
    label: 'Alarms',
    tabs: [
      { label: 'Alarms', to: '/alarms', matches: ['/alarms'] },
      { label: 'Alerts', to: '/alerts', matches: ['/alerts'] },
    ],
  },
];

const matchesPrefix = (pathname: string, prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);

/** True when the path has the pattern's segments, a `:param` standing for any one non-empty segment. */
function matchesPattern(pathname: string, pattern: string): boolean {
  const path = pathname.replace(/\/+$/, '').split('/');
  const parts = pattern.split('/');
  return (
    path.length === parts.length && parts.every((part, i) => (part.startsWith(':') ? path[i] !== '' : part === path[i]))
  );
}

/** The section and sub-tab index a path belongs to, or null for paths outside the four sections. */
export function locateTab(pathname: string): { section: Section; index: number } | null {
  for (const definition of SECTION_DEFINITIONS) {
    const index = definition.tabs.findIndex((tab) =>
      tab.patterns?.some((pattern) => matchesPattern(pathname, pattern)),
    );
    if (index >= 0) return { section: definition.section, index };
  }
  for (const definition of SECTION_DEFINITIONS) {
    const index = definition.tabs.findIndex((tab) => tab.matches.some((prefix) => matchesPrefix(pathname, prefix)));
    if (index >= 0) return { section: definition.section, index };
  }
  return null;
}

/** Where a tab leads: its route, or for the scenes tab the scene dashboards' route when known. */
export function tabTarget(tab: SubTab, scenesRoute: string | null = null): string {
  return (tab.scenes && scenesRoute) || tab.to;
}

/** Where a section's top-bar link leads: the sub-tab last chosen in that section. */
export function sectionTarget(
  definition: SectionDefinition,
  selectedIndex: number,
  scenesRoute: string | null = null,
): string {
  const tab = definition.tabs[selectedIndex] ?? definition.tabs[0];
  return tab ? tabTarget(tab, scenesRoute) : '/';
}
