import type { ReactNode } from 'react';
import type { DeviceHealth } from '@fieldlink/api/device-frames';
import { describeDiagnostic } from '@fieldlink/domain/diagnostics';
import { toMillis } from '@fieldlink/domain/timestamps';
import {
  AlertCircleIcon,
  BoltIcon,
  ClockIcon,
  CpuIcon,
  RefreshIcon,
  SignalIcon,
  ThermometerIcon,
} from '../../../components/ui/icons';
import { useNow } from '../../../lib/clock';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { formatAge } from '../../../lib/format-time';
import { useDeviceHealth } from '../../../lib/realtime/use-realtime';
import { usePageClock } from '../../../lib/page-time-zone';

function Stat({ icon, label, value, detail }: { icon: ReactNode; label: string; value: string; detail?: string }) {
  return (
    <div className="health-stat">
      <span className="health-stat__icon">{icon}</span>
      <span className="health-stat__body">
        <span className="health-stat__label">{label}</span>
        <span className="health-stat__value">{value}</span>
        {detail && <span className="health-stat__detail">{detail}</span>}
      </span>
    </div>
  );
}

const fixed = (value: number | undefined, digits: number, unit: string) =>
  value === undefined ? '—' : `${value.toFixed(digits)} ${unit}`;

/** Device health at a glance; the live health message wins over the one read with the device. */
export function HealthSummary({ thingName, initial }: { thingName: string; initial: DeviceHealth | null | undefined }) {
  const live = useDeviceHealth(thingName);
  const now = useNow();
  const clock = usePageClock();
  const health = live ?? initial ?? null;
  if (!health) {
    return <p className="health-empty">This device has not reported its health yet.</p>;
  }
  const errorStatus = health.errorStatus ?? 0;
  return (
    <section className="health" aria-label="Device health">
      {errorStatus !== 0 && (
        <div className="health__error" role="alert">
          <AlertCircleIcon size={17} />
          <strong>Device Error</strong>
          <span>{describeDiagnostic(errorStatus)}</span>
        </div>
      )}
      <div className="health__grid">
        <Stat
          icon={<SignalIcon size={18} />}
          label="Signal"
          value={health.signal === undefined ? '—' : `${health.signal} dBm`}
          detail={health.signalQuality === undefined ? health.networkInterface : `Quality ${health.signalQuality}`}
        />
        <Stat icon={<BoltIcon size={18} />} label="Supply" value={fixed(health.supplyVoltage, 1, 'V')} />
        <Stat icon={<ThermometerIcon size={18} />} label="CPU temperature" value={fixed(health.cpuTemp, 1, '°C')} />
        <Stat
          icon={<RefreshIcon size={18} />}
          label="Resets"
          value={health.resets === undefined ? '—' : String(health.resets)}
          detail={health.mqttConnects === undefined ? undefined : `${health.mqttConnects} MQTT connects`}
        />
        <Stat
          icon={<CpuIcon size={18} />}
          label="Network"
          value={health.networkInterface ?? '—'}
          detail={health.currentTimeZone}
        />
        <Stat
          icon={<ClockIcon size={18} />}
          label="Health updated"
          value={health.t === undefined ? '—' : formatAge(toMillis(health.t), now)}
          detail={health.t === undefined ? undefined : formatDateTime(toMillis(health.t), clock)}
        />
      </div>
    </section>
  );
}
