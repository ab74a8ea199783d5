import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { setSubTab } from '../../lib/app-store/app-store';
import { locateTab, tabTarget } from './sections';
import { useNavigation } from './use-navigation';

/** The edges of a scrolling row of tabs past which more tabs lie. */
type TabsBeyond = 'start' | 'end' | 'both' | null;

function tabsBeyond({ scrollLeft, clientWidth, scrollWidth }: HTMLElement): TabsBeyond {
  const start = scrollLeft > 1;
  const end = scrollLeft + clientWidth < scrollWidth - 1;
  return start && end ? 'both' : start ? 'start' : end ? 'end' : null;
}

/**
 * Sub-tabs of the current section, only those the user is offered. The selection is kept per section
 * (specification §2), so going to Accounts and back to Dashboard returns to the dashboard tab last
 * open. A page outside the four sections (the account's security page, an unknown path) shows none:
 * another section's tabs there would claim a place the page does not have.
 */
export function SubNav() {
  const { pathname } = useLocation();
  const located = locateTab(pathname);
  const { definitions, routes } = useNavigation();
  const tabsRef = useRef<HTMLElement>(null);
  const [more, setMore] = useState<TabsBeyond>(null);
  // Which edge hides more tabs: a fade there says the row scrolls (its scrollbar is hidden).
  const measure = useCallback(() => {
    const tabs = tabsRef.current;
    if (tabs) setMore(tabsBeyond(tabs));
  }, []);

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

  useLayoutEffect(() => {
    const tabs = tabsRef.current;
    if (!tabs) return;
    measure();
    const resized = new ResizeObserver(measure);
    resized.observe(tabs);
    return () => resized.disconnect();
  }, [measure, pathname]);

  const definition = located ? definitions.find((d) => d.section === located.section) : undefined;
  if (!located || !definition) return null;

  return (
    <div className="shell-subnav">
      <div className="shell-subnav__title">{definition.label}</div>
      <nav
        ref={tabsRef}
        className="shell-subnav__tabs"
        aria-label={`${definition.label} views`}
        data-more={more ?? undefined}
        onScroll={measure}
      >
        {definition.tabs.map((tab) => {
          const open = tab.tab === located.tab;
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
