import { formatInstant, timeZoneLabel } from '@fieldlink/domain/date-format';
import { useAccount } from '../../lib/api/get-account';
import { useOfflineSince } from '../../lib/offline/use-offline-since';
import { usePageClock, usePageTimeZone } from '../../lib/page-time-zone';
import { useConnectionCount, useConnectionStatus, useReconnectAttempt } from '../../lib/realtime/use-realtime';
import type { ConnectionStatus } from '../../lib/realtime/realtime-store';

const TEXT: Record<ConnectionStatus, string> = {
  CONNECTED: 'Connected',
  CONNECTING: 'Connecting…',
  RECONNECTING: 'Reconnecting',
  DISCONNECTED: 'Disconnected',
};

/**
 * The real-time status line (specification §2, 40 px). While the browser has no network it says
 * "You are offline" and since when (issue 39 item 1): the values on screen are the last received.
 */
export function ConnectionBar() {
  const status = useConnectionStatus();
  const attempt = useReconnectAttempt();
  const count = useConnectionCount();
  const { data } = useAccount();
  const accountName = data?.accounts[0]?.name;
  const { timeZone, isDevice } = usePageTimeZone();
  const clock = usePageClock();
  const offlineSince = useOfflineSince();

  if (offlineSince !== null)
    return (
      <div className="shell-connection is-offline" role="status" aria-live="polite">
        <span className="shell-connection__dot" aria-hidden="true" />
        <span className="shell-connection__text" data-testid="connection-status">
          You are offline
          <span className="shell-connection__attempt">
            {' '}
            · since {formatInstant(offlineSince, clock, 'time')}; reconnecting by itself, values shown are the last
            received
          </span>
        </span>
      </div>
    );

  return (
    <div className={`shell-connection is-${status.toLowerCase()}`} role="status" aria-live="polite">
      <span className="shell-connection__dot" aria-hidden="true" />
      <span className="shell-connection__text" data-testid="connection-status">
        {TEXT[status]}
        {status === 'RECONNECTING' && attempt > 0 && (
          <span className="shell-connection__attempt"> · attempt {attempt}</span>
        )}
      </span>
      {count > 1 && (
        <span className="shell-connection__meta" title="Real-time connections opened in this session">
          {count - 1} reconnect{count === 2 ? '' : 's'}
        </span>
      )}
      {/* Every date and time of the page is in this zone: said once, here, on every page. */}
      <span
        className="shell-connection__zone"
        data-testid="time-zone"
        title={isDevice ? 'The device’s time zone: its clock reads these times' : 'Your time zone (this browser’s)'}
      >
        Times in {timeZoneLabel(timeZone, Date.now())}
        {isDevice ? ', the device’s zone' : ''}
      </span>
      {accountName && <span className="shell-connection__account">{accountName}</span>}
    </div>
  );
}
