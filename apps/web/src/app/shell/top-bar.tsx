import { NavLink, useLocation } from 'react-router';
import { BrandMark } from '../../components/ui/brand-mark';
import { AccountsIcon, AlarmIcon, DashboardIcon, ReportsIcon } from '../../components/ui/icons';
import { useClientConfig } from '../../lib/api/get-client-config';
import type { NavSection } from '@fieldlink/domain/app-variant';
import { appStore } from '../../lib/app-store/app-store';
import { useStore } from '../../lib/use-store';
import { locateTab, sectionTarget } from './sections';
import { useNavigation } from './use-navigation';
import { UserMenu } from './user-menu';
import { AlarmNavCount } from '../../features/alarms/components/alarm-nav-count';

const SECTION_ICONS: Record<NavSection, typeof DashboardIcon> = {
  dashboard: DashboardIcon,
  accounts: AccountsIcon,
  reports: ReportsIcon,
  alarms: AlarmIcon,
};

/** The brand band: product, the sections the user is offered, the user menu. */
export function TopBar() {
  const { productName } = useClientConfig();
  const subTabs = useStore(appStore, (s) => s.subTabs);
  const { definitions, routes, home } = useNavigation();
  const { pathname } = useLocation();
  const current = locateTab(pathname)?.section ?? null;

  return (
    <header className="shell-topbar">
      <NavLink to={home} className="shell-topbar__brand" aria-label={`${productName} home`}>
        <BrandMark size={30} />
        <span className="shell-topbar__product">{productName}</span>
      </NavLink>
      <nav className="shell-topbar__nav" aria-label="Main">
        {definitions.map((definition) => {
          const Icon = SECTION_ICONS[definition.section];
          const active = current === definition.section;
          return (
            <NavLink
              key={definition.section}
              to={sectionTarget(definition, subTabs[definition.section], routes)}
              className={`shell-topbar__link${active ? ' is-active' : ''}`}
              aria-current={active ? 'page' : undefined}
              title={definition.label}
            >
              <Icon size={18} />
              <span className="shell-topbar__label">{definition.label}</span>
              {definition.section === 'alarms' && <AlarmNavCount />}
            </NavLink>
          );
        })}
      </nav>
      <UserMenu />
    </header>
  );
}
