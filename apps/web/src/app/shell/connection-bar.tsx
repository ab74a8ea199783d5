import { timeZoneLabel } from '@fieldlink/domain/date-format';
import { localTimeZone } from '@fieldlink/domain/time-zone';
import { useAccount } from '../../lib/api/get-account';
import { useConnectionCount, useConnectionStatus, useReconnectAttempt } from '../../lib/realtime/use-realtime';
import type { ConnectionStatus } from '../../lib/realtime/realtime-store';

const TEXT: Record<ConnectionStatus, string> = {
  CONNECTED: 'Connected',
  CONNECTING: 'Connecting…',
  RECONNECTING: 'Reconnecting',
  DISCONNECTED: 'Disconnected',
};

/** The real-time status line (specification §2, 40 px). */
export function ConnectionBar() {
  const status = useConnectionStatus();
  const attempt = useReconnectAttempt();
  const count = useConnectionCount();
  const { data } = useAccount();
  const accountName = data?.accounts[0]?.name;

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
      {/* Every date and time of the console is in this zone: said once, here, on every page. */}
      <span className="shell-connection__zone" data-testid="time-zone">
        Times in {timeZoneLabel(localTimeZone(), Date.now())}
      </span>
      {accountName && <span className="shell-connection__account">{accountName}</span>}
    </div>
  );
}
