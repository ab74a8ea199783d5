import { useEffect, useRef, useState } from 'react';
import { watchDeviceTable } from '../../../lib/realtime/realtime-connection';
import { useConnectionStatus } from '../../../lib/realtime/use-realtime';
import { LiveChangeLog, applyTableChanges, prepareRowIndex } from '../model/live-changes';
import type { DeviceTableData } from '../model/table-data';
import type { TableIndex } from '../model/table-view';
import { cancelIdle, whenIdle } from '../../../lib/idle';

/** How the table stands against the live feed. */
export interface LiveTable {
  /** True while the server feeds the table over an open socket: the table is current. */
  live: boolean;
  /** When the table last changed: its read, or the last batch of the feed (unix ms). */
  changedAt: number;
  /** Moves with every batch applied, so the drawn rows are looked at again. */
  revision: number;
}

/**
 * Keeps the decoded table current from the real-time channel: connection state, firmware and OTA
 * progress of every device in scope arrive in batches (at most one a second) and are written into the
 * table in place; only the rows they touch are drawn again, and the rows keep their place (sort and
 * filters apply the new values at the next change of either). A break in the socket reads the table
 * again; so does a batch too large to send piece by piece.
 */
export function useLiveTable(
  data: DeviceTableData | undefined,
  index: TableIndex | null,
  refetch: () => unknown,
): LiveTable {
  const status = useConnectionStatus();
  const [feed, setFeed] = useState({ watching: false, changedAt: 0, revision: 0 });
  const log = useRef(new LiveChangeLog());

  useEffect(() => {
    if (!data || !index) return;
    // A table built before batches this page already applied gets them again (LiveChangeLog).
    const missed = log.current.since(data.generatedAt);
    if (missed.length > 0) index.forget(applyTableChanges(data, missed).columns);
    // The row of each thing name, built in idle time before the first batch needs it.
    let idle = 0;
    const prepare = (deadline: IdleDeadline) => {
      if (!prepareRowIndex(data, () => deadline.timeRemaining() > 1)) {
        idle = whenIdle(prepare, { timeout: 10_000 });
      }
    };
    idle = whenIdle(prepare, { timeout: 10_000 });
    const stop = watchDeviceTable({
      onChanges: (batch) => {
        if (batch.reload) {
          void refetch();
          return;
        }
        const started = performance.now();
        log.current.record(batch.at, batch.changes);
        const applied = applyTableChanges(data, batch.changes);
        index.forget(applied.columns);
        performance.measure(LIVE_TABLE_TIMING, { start: started });
        if (applied.rows > 0) {
          setFeed((current) => ({ watching: true, changedAt: batch.at, revision: current.revision + 1 }));
        }
      },
      onWatching: () => setFeed((current) => ({ ...current, watching: true })),
      onResync: () => void refetch(),
    });
    return () => {
      cancelIdle(idle);
      stop();
      setFeed((current) => ({ ...current, watching: false }));
    };
    // `refetch` is the query's own, stable for the life of the page.
  }, [data, index]); // eslint-disable-line react-hooks/exhaustive-deps

  return {
    live: feed.watching && status === 'CONNECTED',
    changedAt: Math.max(data?.generatedAt ?? 0, feed.changedAt),
    revision: feed.revision,
  };
}

/** Name of the timing each applied batch leaves in the performance timeline (read by the benchmark). */
export const LIVE_TABLE_TIMING = 'device-table:live-batch';
