import { useMemo, useState } from 'react';
import { DeviceName } from './device-name';
import type { AlertRecord } from '@fieldlink/api/alarms';
import { Badge } from '../../../components/ui/badge';
import { ListState } from '../../../components/ui/list-state';
import { Button } from '../../../components/ui/button';
import { BellOffIcon, CloudOffIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { RefreshButton } from '../../../components/ui/refresh-button';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
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
    <div className="fl-page">
      <PageHeader
        title="Alerts"
        summary={
          <>
            <span data-testid="alert-count">
              {alerts.data ? `${shown.length} ${shown.length === 1 ? 'alert' : 'alerts'}` : ' '}
              {mutedCount > 0 && !showMuted && ` · ${mutedCount} from muted devices hidden`}
            </span>
            <RefreshButton query={alerts} />
          </>
        }
      >
        <label className="alarms-check">
          <input type="checkbox" checked={showMuted} onChange={(event) => setShowMuted(event.target.checked)} />
          Show muted devices
        </label>
      </PageHeader>

      <ListState
        query={alerts}
        noun="alerts"
        empty={
          shown.length > 0
            ? null
            : {
                icon: <CloudOffIcon size={22} />,
                title: 'No alerts',
                text: 'A device that stays disconnected for a few minutes is listed here.',
              }
        }
      >
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
      </ListState>
    </div>
  );
}

function AlertItem({ alert, busy, onMute }: { alert: AlertRecord; busy: boolean; onMute: (muted: boolean) => void }) {
  const clock = usePageClock();
  const ongoing = alert.resolvedAt === null;
  return (
    <li className={`alerts-item${ongoing ? ' is-active' : ''}`} data-testid={`alert-${alert.id}`}>
      <span className={`alerts-item__icon${ongoing ? ' is-active' : ''}`} aria-hidden="true">
        <CloudOffIcon size={18} />
      </span>
      <div className="alerts-item__body">
        <div className="alerts-item__title">
          <DeviceName thingName={alert.thingName} name={alert.deviceName} />
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
          {alert.thingName} · disconnected {formatDateTime(alert.t, clock)}
          {alert.resolvedAt !== null && ` · back ${formatDateTime(alert.resolvedAt, clock)}`}
        </span>
      </div>
      <Button size="sm" variant="ghost" busy={busy} onClick={() => onMute(!alert.muted)}>
        {alert.muted ? 'Unmute' : 'Mute'}
      </Button>
    </li>
  );
}
