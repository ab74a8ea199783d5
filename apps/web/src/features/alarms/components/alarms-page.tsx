import { useMemo, useState } from 'react';
import { DeviceName } from './device-name';
import type { AlarmListState, AlarmRecord } from '@fieldlink/api/alarms';
import { useCan } from '../../../lib/session/use-can';
import { Badge } from '../../../components/ui/badge';
import { ListState } from '../../../components/ui/list-state';
import { Button } from '../../../components/ui/button';
import { AlarmIcon, CheckCircleIcon } from '../../../components/ui/icons';
import { PageHeader } from '../../../components/ui/page-header';
import { RefreshButton } from '../../../components/ui/refresh-button';
import { formatChannelValue } from '@fieldlink/domain/channel-presentation';
import { channelDisplayName } from '@fieldlink/domain/channels';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { usePageClock } from '../../../lib/page-time-zone';
import { useAcknowledgeAlarms } from '../api/acknowledge-alarms';
import { useAlarms } from '../api/get-alarms';
import { crossingText, SEVERITY_LABELS, SEVERITY_TONES, STATUS_LABELS, STATUS_TONES } from '../model/alarm-text';
import './alarms.css';

const STATE_CHOICES: { state: AlarmListState; label: string }[] = [
  { state: 'open', label: 'Current' },
  { state: 'unacknowledged', label: 'Unacknowledged' },
  { state: 'all', label: 'History' },
];

/** /alarms: the alarms of the user's devices, current ones first, with their history and acknowledgement. */
export function AlarmsPage() {
  const [state, setState] = useState<AlarmListState>('open');
  const [deviceFilter, setDeviceFilter] = useState('');
  const alarms = useAlarms(state);
  const acknowledge = useAcknowledgeAlarms();
  // Acknowledging needs ALARM (Alarm Responder).
  const canRespond = useCan('respondToAlarms');

  const devices = useMemo(() => {
    const names = new Map<string, string>();
    for (const alarm of alarms.data?.alarms ?? []) names.set(alarm.deviceId, alarm.deviceName);
    return [...names].sort((a, b) => a[1].localeCompare(b[1]));
  }, [alarms.data]);
  const shown = useMemo(
    () => (alarms.data?.alarms ?? []).filter((alarm) => deviceFilter === '' || alarm.deviceId === deviceFilter),
    [alarms.data, deviceFilter],
  );
  const unacknowledged = shown.filter((alarm) => alarm.acknowledgedAt === null);
  const onAcknowledge = (ids: string[]) => {
    if (ids.length > 0) acknowledge.mutate({ ids });
  };

  return (
    <div className="fl-page">
      <PageHeader
        title="Alarms"
        summary={
          <>
            <span data-testid="alarm-count">
              {alarms.data ? `${shown.length} ${shown.length === 1 ? 'alarm' : 'alarms'}` : ' '}
            </span>
            <RefreshButton query={alarms} />
          </>
        }
      >
        <div className="alarms-toolbar">
          <div className="fl-segments" role="group" aria-label="Which alarms">
            {STATE_CHOICES.map((choice) => (
              <button
                key={choice.state}
                type="button"
                className={`fl-segment${state === choice.state ? ' is-active' : ''}`}
                aria-pressed={state === choice.state}
                onClick={() => setState(choice.state)}
              >
                {choice.label}
              </button>
            ))}
          </div>
          <select
            className="fl-select alarms-device-select"
            aria-label="Device"
            value={deviceFilter}
            onChange={(event) => setDeviceFilter(event.target.value)}
          >
            <option value="">All devices</option>
            {devices.map(([id, name]) => (
              <option key={id} value={id}>
                {name}
              </option>
            ))}
          </select>
          {canRespond && (
            <Button
              size="sm"
              variant="primary"
              disabled={unacknowledged.length === 0}
              busy={acknowledge.isPending}
              onClick={() => onAcknowledge(unacknowledged.map((alarm) => alarm.id))}
            >
              <CheckCircleIcon size={15} /> Acknowledge all shown
            </Button>
          )}
        </div>
      </PageHeader>

      <ListState
        query={alarms}
        noun="alarms"
        empty={
          shown.length > 0
            ? null
            : state === 'all'
              ? {
                  icon: <AlarmIcon size={22} />,
                  title: 'No alarms yet',
                  text: 'Alarms appear here once a channel with an alarm crosses its threshold. Set alarms on a device’s channels from its dashboard.',
                }
              : {
                  icon: <AlarmIcon size={22} />,
                  title: 'All clear',
                  text: 'No alarm is active or waiting to be acknowledged.',
                }
        }
      >
        <div className="alarms-table-wrap fl-card fl-table-frame">
          <table className="fl-table alarms-table">
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Severity</th>
                <th scope="col">Device</th>
                <th scope="col">Channel</th>
                <th scope="col">Condition</th>
                <th scope="col">Raised</th>
                <th scope="col">Cleared</th>
                <th scope="col">Acknowledged</th>
                {canRespond && <th scope="col" aria-label="Actions" />}
              </tr>
            </thead>
            <tbody>
              {shown.map((alarm) => (
                <AlarmRow
                  key={alarm.id}
                  alarm={alarm}
                  canRespond={canRespond}
                  busy={acknowledge.isPending && acknowledge.variables?.ids.includes(alarm.id) === true}
                  onAcknowledge={() => onAcknowledge([alarm.id])}
                />
              ))}
            </tbody>
          </table>
        </div>
      </ListState>
    </div>
  );
}

function AlarmRow({
  alarm,
  canRespond,
  busy,
  onAcknowledge,
}: {
  alarm: AlarmRecord;
  canRespond: boolean;
  busy: boolean;
  onAcknowledge: () => void;
}) {
  const clock = usePageClock();
  const displayName = channelDisplayName(alarm.code) ?? alarm.code;
  return (
    <tr data-testid={`alarm-${alarm.id}`} className={alarm.clearedAt === null ? 'is-active' : undefined}>
      <td className="alarms-cell--status">
        <Badge tone={STATUS_TONES[alarm.status]} dot>
          {STATUS_LABELS[alarm.status]}
        </Badge>
      </td>
      <td className="alarms-cell--severity">
        <Badge tone={SEVERITY_TONES[alarm.severity]}>{SEVERITY_LABELS[alarm.severity]}</Badge>
      </td>
      <td data-label="Device" className="alarms-cell--device">
        <DeviceName thingName={alarm.thingName} name={alarm.deviceName} />
        <span className="fl-sub">{alarm.thingName}</span>
      </td>
      <td data-label="Channel">
        {alarm.channelName}
        {alarm.channelName !== displayName && <span className="fl-sub">{displayName}</span>}
      </td>
      <td data-label="Condition" className="alarms-num">
        {crossingText(alarm)}
      </td>
      <td data-label="Raised" className="alarms-time">
        {formatDateTime(alarm.raisedAt, clock)}
      </td>
      <td data-label="Cleared" className="alarms-time">
        {alarm.clearedAt === null ? '—' : formatDateTime(alarm.clearedAt, clock)}
        {alarm.clearedValue !== null && (
          <span className="fl-sub">at {formatChannelValue(alarm, alarm.clearedValue)}</span>
        )}
      </td>
      <td data-label="Acknowledged" className="alarms-time">
        {alarm.acknowledgedAt === null ? (
          '—'
        ) : (
          <>
            {formatDateTime(alarm.acknowledgedAt, clock)}
            <span className="fl-sub">{alarm.acknowledgedBy ?? ''}</span>
          </>
        )}
      </td>
      {canRespond && (
        <td className="alarms-actions">
          {alarm.acknowledgedAt === null && (
            <Button size="sm" variant="secondary" busy={busy} onClick={onAcknowledge}>
              Acknowledge
            </Button>
          )}
        </td>
      )}
    </tr>
  );
}
