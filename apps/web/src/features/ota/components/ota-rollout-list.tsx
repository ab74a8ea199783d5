import type { OtaRollout, OtaRolloutDevice } from '@fieldlink/api/ota';
import { formatDateTime, type Clock } from '@fieldlink/domain/date-format';
import { otaStatusText, rolloutProgress } from '@fieldlink/domain/ota';
import { Badge } from '../../../components/ui/badge';
import type { LiveOtaState } from '../hooks/use-live-ota-states';
import { otaStateTone } from '../model/ota-tone';

const ROLLOUT_STATE: Record<OtaRollout['state'], { text: string; tone: 'info' | 'success' | 'danger' }> = {
  RUNNING: { text: 'Running', tone: 'info' },
  COMPLETED: { text: 'Completed', tone: 'success' },
  STOPPED: { text: 'Stopped', tone: 'danger' },
};

/** A device of a rollout with its live state when the real-time channel told one after the list was read. */
function current(device: OtaRolloutDevice, live: ReadonlyMap<string, LiveOtaState>, readAt: number): OtaRolloutDevice {
  const pushed = live.get(device.thingName);
  if (!pushed || pushed.at < readAt || pushed.state === null) return device;
  return { ...device, state: pushed.state, percent: pushed.percent };
}

/**
 * The rollouts of the last day in the administrators' review: each with a bar of the whole (succeeded,
 * failed, in flight), its counts, and a line per device with its state and its download's progress,
 * live from the device table's feed.
 */
export function OtaRolloutList({
  rollouts,
  live,
  readAt,
  clock,
}: {
  rollouts: readonly OtaRollout[];
  live: ReadonlyMap<string, LiveOtaState>;
  /** When the list was read (unix ms): pushes older than it are already in it. */
  readAt: number;
  clock: Clock;
}) {
  return (
    <ul className="ota-rollouts" aria-label="Rollouts">
      {rollouts.map((rollout) => {
        const devices = rollout.devices.map((device) => current(device, live, readAt));
        const progress = rolloutProgress(devices);
        const state = ROLLOUT_STATE[rollout.state];
        const share = (count: number) => `${(100 * count) / Math.max(1, progress.total)}%`;
        // In flight, as the part of the bar that is not a finished outcome.
        const runningShare = Math.max(
          0,
          progress.percent - (100 * (progress.succeeded + progress.failed + progress.cancelled)) / progress.total,
        );
        return (
          <li key={rollout.id} className="ota-rollout" aria-label={`Rollout ${rollout.updateCommand}`}>
            <div className="ota-rollout__head">
              <span className="ota-rollout__command">{rollout.updateCommand}</span>
              <Badge tone={state.tone}>{state.text}</Badge>
              <span className="ota-rollout__meta">
                submitted {formatDateTime(rollout.createdAt, clock)} · {rollout.devicesPerMinute} devices a minute
                {rollout.skipApproval ? ' · approval skipped' : ''}
              </span>
            </div>
            <div
              className="ota-rollout__bar"
              role="progressbar"
              aria-label={`Rollout progress: ${progress.percent}%`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress.percent}
            >
              <span className="is-succeeded" style={{ width: share(progress.succeeded) }} />
              <span className="is-failed" style={{ width: share(progress.failed + progress.cancelled) }} />
              <span className="is-running" style={{ width: `${runningShare}%` }} />
            </div>
            <ul className="ota-rollout__counts" data-testid="rollout-counts">
              <li>
                <strong>{progress.percent}%</strong> done
              </li>
              <li>
                <strong>{progress.succeeded}</strong> succeeded
              </li>
              <li>
                <strong>{progress.failed}</strong> failed
              </li>
              <li>
                <strong>{progress.running}</strong> in progress
              </li>
              <li>
                <strong>{progress.waiting}</strong> waiting
              </li>
              {progress.cancelled > 0 && (
                <li>
                  <strong>{progress.cancelled}</strong> cancelled
                </li>
              )}
            </ul>
            {rollout.stopReason && <div className="ota-rollout__device-error">{rollout.stopReason}</div>}
            <ul className="ota-rollout__devices" aria-label="Devices">
              {devices.map((device) => (
                <li key={device.deviceId} className="ota-rollout__device">
                  <span>
                    <strong>{device.name}</strong> <span className="ota-rollout__meta">{device.thingName}</span>
                  </span>
                  <Badge tone={otaStateTone(device.state)}>{otaStatusText(device)}</Badge>
                  {device.state === 'DOWNLOADING' && device.percent !== null && (
                    <div
                      className="ota-device__bar"
                      role="progressbar"
                      aria-label={`${device.name}: ${otaStatusText(device)}`}
                      aria-valuemin={0}
                      aria-valuemax={100}
                      aria-valuenow={device.percent}
                    >
                      <span style={{ width: `${device.percent}%` }} />
                    </div>
                  )}
                  {device.error && <span className="ota-rollout__device-error">{device.error}</span>}
                </li>
              ))}
            </ul>
          </li>
        );
      })}
    </ul>
  );
}
