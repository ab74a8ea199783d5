import { useCallback, useSyncExternalStore } from 'react';

/** Phones and narrow windows: tables turn into cards below this width. */
export const PHONE_QUERY = '(max-width: 700px)';

/** Touch screens: controls are 44 px targets there (ui.css's `pointer: coarse` rules). */
export const TOUCH_QUERY = '(pointer: coarse)';
/** The least a control measures there, in px (base.css's `--fl-touch-target`). */
export const TOUCH_TARGET_PX = 44;

/** True while the media query matches; follows the window as it is resized or turned. */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(query).matches,
    () => false,
  );
}
