import type { Section } from '../../lib/app-store/app-store';

export interface SubTab {
  label: string;
  /** Route the tab opens. */
  to: string;
  /** Paths (prefixes) that show this tab as selected. */
  matches: readonly string[];
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
    tabs: [{ label: 'Reports', to: '/reports', matches: ['/reports'] }],
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

/** The section and sub-tab index a path belongs to, or null for paths outside the four sections. */
export function locateTab(pathname: string): { section: Section; index: number } | null {
  for (const definition of SECTION_DEFINITIONS) {
    const index = definition.tabs.findIndex((tab) => tab.matches.some((prefix) => matchesPrefix(pathname, prefix)));
    if (index >= 0) return { section: definition.section, index };
  }
  return null;
}

/** Where a section's top-bar link leads: the sub-tab last chosen in that section. */
export function sectionTarget(definition: SectionDefinition, selectedIndex: number): string {
  return (definition.tabs[selectedIndex] ?? definition.tabs[0])?.to ?? '/';
}
