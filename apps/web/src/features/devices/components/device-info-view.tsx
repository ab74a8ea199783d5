import { useMemo, useState, type ReactNode } from 'react';
import type { Device } from '@fieldlink/api/device';
import type { DeviceHealth } from '@fieldlink/api/device-frames';
import { connectionAttribute, planLabel, type DeviceConnectionFacts } from '@fieldlink/domain/device-panel';
import { describeDiagnostic } from '@fieldlink/domain/diagnostics';
import { parseHardwareFamily } from '@fieldlink/domain/hardware';
import { hasNoCustomMacro } from '@fieldlink/domain/macro';
import { localTimeZone } from '@fieldlink/domain/time-zone';
import { Button } from '../../../components/ui/button';
import { AlertCircleIcon, ClockIcon } from '../../../components/ui/icons';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';
import { useUpdateTimezone } from '../hooks/use-update-timezone';
import { timeZones } from '../model/time-zones';
import { usePageClock } from '../../../lib/page-time-zone';

export interface DeviceInfoViewProps {
  device: Device;
  connection: DeviceConnectionFacts;
  health: DeviceHealth | null | undefined;
  isAdmin: boolean;
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="device-info__row" data-testid={testId}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** View mode of the device panel (core §2). Device text is rendered as text, never as HTML. */
export function DeviceInfoView({ device, connection, health, isAdmin }: DeviceInfoViewProps) {
  const errorStatus = health?.errorStatus ?? 0;
  const lastSeen = connectionAttribute(connection);
  const reportedZone = device.timeDate?.tzName ?? health?.currentTimeZone ?? null;
  const [zone, setZone] = useState(reportedZone ?? localTimeZone());
  const zones = useMemo(() => timeZones(zone), [zone]);
  const timezone = useUpdateTimezone(device, connection.isConnected);
  const timezoneRefusal = useDeviceActionRefusal('timeDate');
  const clock = usePageClock();
  const family = parseHardwareFamily(device.hw);

  return (
    <div className="device-info__body">
      {errorStatus !== 0 && (
        <div className="device-info__error" role="alert" data-testid="device-error">
          <AlertCircleIcon size={16} />
          <strong>Device Error</strong>
          <span>{describeDiagnostic(errorStatus)}</span>
        </div>
      )}
      <dl className="device-info__list">
        <Row label="Name" testId="attr-name">
          {device.name}
        </Row>
        <Row label="Serial Number">{device.sn ?? '—'}</Row>
        <Row label="Thing name">
          <span className="device-info__mono">{device.thingName}</span>
        </Row>
        <Row label="Site" testId="attr-site">
          {device.site ?? '—'}
        </Row>
        {isAdmin && (
          <Row label="Device Plan" testId="attr-plan">
            {planLabel(device.plan)}
          </Row>
        )}
        <Row label="Location" testId="attr-location">
          {device.location ? (
            <span className="device-info__location">
              {device.location.address && <span>{device.location.address}</span>}
              <span className="device-info__coords">
                {device.location.lat.toFixed(6)}, {device.location.lng.toFixed(6)}
              </span>
            </span>
          ) : (
            '—'
          )}
        </Row>
        <Row label="Model">{[device.model, family ?? device.hw].filter(Boolean).join(' · ') || '—'}</Row>
        <Row label="Firmware">
          {[device.fw, device.espFw && `ESP ${device.espFw}`].filter(Boolean).join(' · ') || '—'}
        </Row>
        <Row label="Macros">
          {[device.base, hasNoCustomMacro(device.custom) ? null : device.custom].filter(Boolean).join(' · ') || '—'}
        </Row>
        {lastSeen && (
          <Row label={lastSeen.label} testId="attr-last-seen">
            {formatDateTime(lastSeen.t, clock)}
          </Row>
        )}
        <Row label="Created">{formatDateTime(device.createdAt, clock)}</Row>
        <Row label="Time zone">
          <span className="device-info__timezone" title={timezoneRefusal ?? undefined} data-testid="timezone-control">
            <select
              className="fl-select"
              aria-label="Time zone"
              disabled={timezoneRefusal !== null}
              value={zone}
              onChange={(event) => setZone(event.target.value)}
            >
              {zones.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
            <Button
              size="sm"
              busy={timezone.running}
              disabled={timezoneRefusal !== null}
              onClick={() => void timezone.update(zone)}
            >
              {!timezone.running && <ClockIcon size={14} />} Update Timezone
            </Button>
          </span>
        </Row>
      </dl>
    </div>
  );
}
