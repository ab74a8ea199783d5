import { useEffect, useLayoutEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { appStore, setSubTab } from '../../lib/app-store/app-store';
import { useStore } from '../../lib/use-store';
import { locateTab, tabTarget } from './sections';
import { useNavigation } from './use-navigation';

/**
 * Sub-tabs of the current section, only those the user is offered. The selection is kept per section
 * (specification §2), so going to Accounts and back to Dashboard returns to the dashboard tab last
 * open.
 */
export function SubNav() {
  const { pathname } = useLocation();
  const located = locateTab(pathname);
  const subTabs = useStore(appStore, (s) => s.subTabs);
  const { definitions, routes } = useNavigation();
  const tabsRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (located) setSubTab(located.section, located.tab);
  }, [located?.section, located?.tab]); // eslint-disable-line react-hooks/exhaustive-deps -- primitives of `located`

  // On a phone the tabs scroll sideways; the open one is scrolled into sight (the page is not moved).
  useLayoutEffect(() => {
    const tabs = tabsRef.current;
    const open = tabs?.querySelector('[aria-current="page"]');
    if (!tabs || !open) return;
    const frame = tabs.getBoundingClientRect();
    const box = open.getBoundingClientRect();
    if (box.right > frame.right) tabs.scrollLeft += box.right - frame.right;
    else if (box.left < frame.left) tabs.scrollLeft -= frame.left - box.left;
  }, [pathname]);

  const definition = definitions.find((d) => d.section === located?.section) ?? definitions[0];
  if (!definition) return null;
  const selected = located ? located.tab : subTabs[definition.section];

  return (
    <div className="shell-subnav">
      <div className="shell-subnav__title">{definition.label}</div>
      <nav ref={tabsRef} className="shell-subnav__tabs" aria-label={`${definition.label} views`}>
        {definition.tabs.map((tab) => {
          const open = tab.tab === selected && located !== null;
          return (
            <Link
              key={tab.tab}
              to={tabTarget(tab, routes)}
              className={`shell-subnav__tab${open ? ' is-active' : ''}`}
              aria-current={open ? 'page' : undefined}
            >
              {tab.label}
            </Link>
          );
        })}
      </nav>
    </div>
  );
}
