import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ClockIcon } from '../../../components/ui/icons';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { useDeviceConnection } from '../../../lib/realtime/use-realtime';
import { deviceConnectionsQuery, useDeviceConnections } from '../api/get-device-connections';
import { usePageClock } from '../../../lib/page-time-zone';

/**
 * The device's connection log, newest first; read again whenever its live connection state changes,
 * and when that state is dropped after a real-time reconnect (the device may have come and gone
 * while the socket was down: the live state is then the one read with the record).
 */
export function ConnectionHistory({ deviceId, thingName }: { deviceId: string; thingName: string }) {
  const connections = useDeviceConnections(deviceId);
  const live = useDeviceConnection(thingName);
  const clock = usePageClock();
  const queryClient = useQueryClient();
  const liveBefore = useRef(live);
  useEffect(() => {
    const changed = live !== undefined || liveBefore.current !== undefined;
    liveBefore.current = live;
    if (changed) void queryClient.invalidateQueries({ queryKey: deviceConnectionsQuery(deviceId).queryKey });
  }, [live, deviceId, queryClient]);

  const rows = connections.data?.connections ?? [];
  return (
    <section className="dash-card fl-card" aria-labelledby="connections-heading">
      <h2 id="connections-heading" className="dash-card__title">
        <ClockIcon size={16} /> Connection history
      </h2>
      {rows.length === 0 ? (
        <p className="dash-card__empty">{connections.isPending ? 'Loading…' : 'No connections recorded yet.'}</p>
      ) : (
        <ol className="connection-history">
          {rows.slice(0, 12).map((row) => (
            <li key={`${row.t}-${row.connected}`} className={row.connected ? 'is-up' : 'is-down'}>
              <span className="connection-history__dot" aria-hidden="true" />
              <span className="connection-history__state">{row.connected ? 'Connected' : 'Disconnected'}</span>
              <time dateTime={new Date(row.t).toISOString()}>{formatDateTime(row.t, clock)}</time>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
