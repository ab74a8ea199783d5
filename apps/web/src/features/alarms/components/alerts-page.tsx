import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { AlertRecord } from '@fieldlink/api/alarms';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { BellOffIcon, CloudOffIcon } from '../../../components/ui/icons';
import { RefreshButton } from './refresh-button';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { Spinner } from '../../../components/ui/spinner';
import { formatDateTime } from '../../../lib/format-time';
import { serverErrorMessage } from '../../../lib/api-client';
import { useAlerts } from '../api/get-alerts';
import { useMuteDevice } from '../api/mute-device';
import './alarms.css';

/**
 * /alerts: disconnections of the user's devices, newest first. Alerts of devices the user muted are
 * hidden unless asked for; each device can be muted or unmuted here (the user's own mute list).
 */
export function AlertsPage() {
  const alerts = useAlerts();
  const mute = useMuteDevice();
  const [showMuted, setShowMuted] = useState(false);
  const all = useMemo(() => alerts.data?.alerts ?? [], [alerts.data]);
  const mutedCount = all.filter((alert) => alert.muted).length;
  const shown = useMemo(() => all.filter((alert) => showMuted || !alert.muted), [all, showMuted]);

  return (
    <div className="alarms-page">
      <header className="alarms-header">
        <div>
          <h1>Alerts</h1>
          <p className="fl-muted">
            <span data-testid="alert-count">
              {alerts.data ? `${shown.length} ${shown.length === 1 ? 'alert' : 'alerts'}` : ' '}
              {mutedCount > 0 && !showMuted && ` · ${mutedCount} from muted devices hidden`}
            </span>
            <RefreshButton query={alerts} />
          </p>
        </div>
        <label className="alarms-check">
          <input type="checkbox" checked={showMuted} onChange={(event) => setShowMuted(event.target.checked)} />
          Show muted devices
        </label>
      </header>

      {alerts.isError && (
        <InlineAlert tone="error">The alerts could not be loaded: {serverErrorMessage(alerts.error)}</InlineAlert>
      )}
      {alerts.isPending ? (
        <div className="alarms-empty fl-card" role="status">
          <Spinner size={20} /> Loading alerts…
        </div>
      ) : shown.length === 0 ? (
        <div className="alarms-empty fl-card">
          <CloudOffIcon size={22} />
          <div>
            <strong>No alerts</strong>
            <p className="fl-muted">A device that stays disconnected for a few minutes is listed here.</p>
          </div>
        </div>
      ) : (
        <ul className="alerts-list fl-card" aria-label="Alerts">
          {shown.map((alert) => (
            <AlertItem
              key={alert.id}
              alert={alert}
              busy={mute.isPending && mute.variables?.deviceId === alert.deviceId}
              onMute={(muted) => mute.mutate({ deviceId: alert.deviceId, muted })}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function AlertItem({ alert, busy, onMute }: { alert: AlertRecord; busy: boolean; onMute: (muted: boolean) => void }) {
  const ongoing = alert.resolvedAt === null;
  return (
    <li className={`alerts-item${ongoing ? ' is-active' : ''}`} data-testid={`alert-${alert.id}`}>
      <span className={`alerts-item__icon${ongoing ? ' is-active' : ''}`} aria-hidden="true">
        <CloudOffIcon size={18} />
      </span>
      <div className="alerts-item__body">
        <div className="alerts-item__title">
          <Link to={`/dash/${encodeURIComponent(alert.thingName)}`} className="alarms-device">
            {alert.deviceName}
          </Link>
          <Badge tone={ongoing ? 'danger' : 'neutral'} dot>
            {ongoing ? 'Disconnected' : 'Reconnected'}
          </Badge>
          {alert.muted && (
            <Badge tone="neutral">
              <BellOffIcon size={12} /> Muted
            </Badge>
          )}
        </div>
        <span className="fl-muted alerts-item__when">
          {alert.thingName} · disconnected {formatDateTime(alert.t)}
          {alert.resolvedAt !== null && ` · back ${formatDateTime(alert.resolvedAt)}`}
        </span>
      </div>
      <Button size="sm" variant="ghost" busy={busy} onClick={() => onMute(!alert.muted)}>
        {alert.muted ? 'Unmute' : 'Mute'}
      </Button>
    </li>
  );
}
