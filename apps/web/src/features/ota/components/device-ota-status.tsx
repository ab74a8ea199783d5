import { isOtaFinal, otaStatusText } from '@fieldlink/domain/ota';
import { Badge } from '../../../components/ui/badge';
import { useDevice } from '../../../lib/api/get-device';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { useOtaProgress } from '../../../lib/realtime/use-realtime';
import { UpdateIcon } from './ota-icons';
import { otaStateTone } from '../model/ota-tone';
import './ota.css';
import { usePageClock } from '../../../lib/page-time-zone';

/**
 * The device's latest OTA update on its dash, live: the state (with the download's progress), the
 * command, and why it failed. Hidden for a device that never had an update.
 */
export function DeviceOtaStatus({ deviceId, thingName }: { deviceId: string; thingName: string }) {
  const stored = useDevice(deviceId).data;
  const live = useOtaProgress(thingName);
  const clock = usePageClock();
  const update = live?.update ?? stored?.update ?? null;
  if (!update) return null;
  const pendingAt = live ? live.otaPendingSubmittedAt : (stored?.otaPendingSubmittedAt ?? null);
  const downloading = update.state === 'DOWNLOADING' && update.percent !== null;
  return (
    <section className="fl-card ota-device" aria-label="Firmware update" data-testid="device-ota-status">
      <UpdateIcon size={18} />
      <div className="ota-device__body">
        <div className="ota-device__line">
          <strong>Firmware update</strong>
          <Badge tone={otaStateTone(update.state)}>{otaStatusText(update)}</Badge>
          {pendingAt !== null && update.state !== 'AWAITING_APPROVAL' && (
            <span className="ota-device__note">awaiting an administrator’s sign-off</span>
          )}
        </div>
        <div className="ota-device__meta">
          <code>{update.updateCommand}</code> · submitted {formatDateTime(update.submittedAt, clock)}
          {isOtaFinal(update.state) &&
            update.finishedAt !== null &&
            ` · ended ${formatDateTime(update.finishedAt, clock)}`}
          {update.fw && ` · now running ${update.fw}`}
        </div>
        {update.error && <div className="ota-device__error">{update.error}</div>}
        {downloading && (
          <div
            className="ota-device__bar"
            role="progressbar"
            aria-label="Download"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={update.percent ?? 0}
          >
            <span style={{ width: `${update.percent ?? 0}%` }} />
          </div>
        )}
      </div>
    </section>
  );
}
