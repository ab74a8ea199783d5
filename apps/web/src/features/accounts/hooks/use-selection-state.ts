import { useEffect } from 'react';
import type { SessionActivity } from '@fieldlink/domain/session-state';
import { dispatchSession } from '../../../lib/app-store/app-store';
import type { TreeTarget } from '../model/tree-rows';

/**
 * §3 "selecting device" and "selecting group": from a click in the tree until the panel for the new
 * selection has been painted, then idle again (an unmounted page ends it too).
 */
export function useSelectionState(target: TreeTarget | null, key: string | null): void {
  const activity: SessionActivity | null =
    target?.type === 'device' ? 'SELECTING_DEVICE' : target?.type === 'group' ? 'SELECTING_GROUP' : null;
  useEffect(() => {
    if (!activity) return;
    dispatchSession({ type: 'BEGIN', activity });
    const frame = requestAnimationFrame(() => dispatchSession({ type: 'END', activity }));
    return () => {
      cancelAnimationFrame(frame);
      dispatchSession({ type: 'END', activity });
    };
  }, [activity, key]);
}
