import { useEffect, useRef } from 'react';
import { showToast } from '../../../lib/app-store/app-store';
import { useAlarms } from '../api/get-alarms';
import { crossingText } from '../model/alarm-text';
import './alarms.css';

/**
 * Console notice of alarms: the count of unacknowledged alarms beside "Alarms" in the top bar, and a
 * toast for each alarm raised while the console is open. Read every 15 s for every device in scope,
 * subscribed or not, from the open list: the alarms page's first view reads the same query, so that
 * page adds no second poll.
 */
export function AlarmNavCount() {
  const alarms = useAlarms('open');
  const seen = useRef<Set<string> | null>(null);
  const list = alarms.data?.alarms;
  const count = list?.filter((alarm) => alarm.acknowledgedAt === null).length ?? 0;

  useEffect(() => {
    if (!list) return;
    const ids = new Set(list.map((alarm) => alarm.id));
    if (seen.current) {
      for (const alarm of list) {
        if (!seen.current.has(alarm.id) && alarm.clearedAt === null) {
          showToast('warning', `Alarm: ${alarm.deviceName} ${alarm.channelName} ${crossingText(alarm)}`);
        }
      }
    }
    seen.current = ids;
  }, [list]);

  if (count === 0) return null;
  return (
    <span className="alarm-nav-count" data-testid="alarm-nav-count" aria-label={`${count} unacknowledged alarms`}>
      {count > 99 ? '99+' : count}
    </span>
  );
}
