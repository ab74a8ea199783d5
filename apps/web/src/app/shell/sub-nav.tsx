import { useEffect, useLayoutEffect, useRef } from 'react';
import { Link, useLocation } from 'react-router';
import { appStore, setSubTab } from '../../lib/app-store/app-store';
import { useStore } from '../../lib/use-store';
import { locateTab, SECTION_DEFINITIONS, tabTarget } from './sections';
import { useScenesHome } from './use-scenes-home';

/**
 * Sub-tabs of the current section. The selection is kept per section (specification §2), so going
 * to Accounts and back to Dashboard returns to the dashboard tab last open.
 */
export function SubNav() {
  const { pathname } = useLocation();
  const located = locateTab(pathname);
  const subTabs = useStore(appStore, (s) => s.subTabs);
  const scenesHome = useScenesHome();
  const tabsRef = useRef<HTMLElement>(null);

  useEffect(() => {
    if (located) setSubTab(located.section, located.index);
  }, [located?.section, located?.index]); // eslint-disable-line react-hooks/exhaustive-deps -- primitives of `located`

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

  const definition = SECTION_DEFINITIONS.find((d) => d.section === located?.section) ?? SECTION_DEFINITIONS[0];
  if (!definition) return null;
  const selected = located ? located.index : subTabs[definition.section];

  return (
    <div className="shell-subnav">
      <div className="shell-subnav__title">{definition.label}</div>
      <nav ref={tabsRef} className="shell-subnav__tabs" aria-label={`${definition.label} views`}>
        {definition.tabs.map((tab, index) => (
          <Link
            key={tab.label}
            to={tabTarget(tab, scenesHome)}
            className={`shell-subnav__tab${index === selected && located ? ' is-active' : ''}`}
            aria-current={index === selected && located ? 'page' : undefined}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
