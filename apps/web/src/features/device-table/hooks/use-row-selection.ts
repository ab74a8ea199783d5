import { useCallback, useState } from 'react';
import type { TableView } from '../model/table-view';
import type { DeviceTableData } from '../model/table-data';

/** The devices chosen for bulk actions, by id, kept across filters and sorts. */
export function useRowSelection(view: TableView | null, data: DeviceTableData | undefined) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const onToggleRow = useCallback(
    (id: string) =>
      setSelected((current) => {
        const next = new Set(current);
        if (!next.delete(id)) next.add(id);
        return next;
      }),
    [],
  );
  // The header's box chooses every shown row, or clears them when all are chosen already.
  const onToggleAll = useCallback(() => {
    if (!view || !data) return;
    setSelected((current) => {
      const shownIds = Array.from(view.rows, (row) => data.text.id[row] ?? '');
      const allShown = shownIds.length > 0 && shownIds.every((id) => current.has(id));
      const next = new Set(current);
      for (const id of shownIds) {
        if (allShown) next.delete(id);
        else next.add(id);
      }
      return next;
    });
  }, [view, data]);
  const clear = useCallback(() => setSelected(new Set()), []);
  return { selected, onToggleRow, onToggleAll, clear };
}
