import { isFailedItem, OTA_APPROVE_FAILED_MESSAGE, type OtaPendingDevice } from '@fieldlink/api/ota';
import { otaStatusText } from '@fieldlink/domain/ota';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { PanelMessage } from '../../../components/ui/panel-message';
import { Spinner } from '../../../components/ui/spinner';
import { showToast } from '../../../lib/app-store/app-store';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { useOtaPending } from '../api/get-ota-pending';
import { useOtaRollouts } from '../api/get-ota-rollouts';
import { useOtaApprove } from '../api/post-ota-approve';
import { useLiveOtaStates, type LiveOtaState } from '../hooks/use-live-ota-states';
import { OtaRolloutList } from './ota-rollout-list';
import { otaStateTone } from '../model/ota-tone';
import './ota.css';
import { usePageClock } from '../../../lib/page-time-zone';

/** A pending device's update with the state the real-time channel pushed after the list was read. */
function liveUpdate(device: OtaPendingDevice, live: ReadonlyMap<string, LiveOtaState>, readAt: number) {
  const pushed = live.get(device.thingName);
  if (!pushed || pushed.at < readAt || pushed.state === null) return device.update;
  return { ...device.update, state: pushed.state, percent: pushed.percent };
}

/**
 * The administrators' review of OTA updates: the devices with a pending update (§6), with Approve per
 * device and for all (approving releases an update held for approval, or signs off one sent with
 * skipApproval), and the rollouts of the last day with their progress, each device's live.
 */
export function OtaPendingDialog({ onClose }: { onClose: () => void }) {
  const pending = useOtaPending(true);
  const rollouts = useOtaRollouts();
  const approve = useOtaApprove();
  const live = useLiveOtaStates(() => {
    void pending.refetch();
    void rollouts.refetch();
  });
  const devices = pending.data?.devices ?? [];
  const clock = usePageClock();

  const onApprove = (deviceIds: string[]) =>
    approve.mutate(
      { deviceIds },
      {
        onSuccess: (answer) => {
          const failed = answer.filter(isFailedItem);
          if (failed.length > 0) showToast('error', OTA_APPROVE_FAILED_MESSAGE);
          const approved = answer.length - failed.length;
          if (approved > 0) {
            showToast('success', approved === 1 ? 'OTA update approved.' : `${approved} OTA updates approved.`);
          }
        },
        onError: () => showToast('error', OTA_APPROVE_FAILED_MESSAGE),
      },
    );

  return (
    <Dialog
      title="Pending OTA updates"
      description="Updates not yet approved by an administrator, and the progress of the rollouts of the last day."
      size="lg"
      onClose={onClose}
      footer={
        <>
          <Button variant="ghost" onClick={onClose}>
            Close
          </Button>
          <Button
            variant="primary"
            disabled={devices.length === 0}
            busy={approve.isPending}
            onClick={() => onApprove(devices.map((device) => device.deviceId))}
          >
            Approve all
          </Button>
        </>
      }
    >
      {pending.isPending ? (
        <div className="ota-loading">
          <Spinner size={20} /> Loading pending updates…
        </div>
      ) : pending.isError ? (
        <PanelMessage title="The pending updates could not be read." />
      ) : devices.length === 0 ? (
        <PanelMessage title="No OTA update awaits approval." />
      ) : (
        <div className="ota-pending-frame">
          <table className="ota-pending">
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Update</th>
                <th scope="col">Submitted</th>
                <th scope="col">
                  <span className="ota-sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {devices.map((device) => (
                <tr key={device.deviceId}>
                  <td>
                    <div className="ota-pending__name">{device.name}</div>
                    <div className="ota-pending__meta">
                      {device.thingName}
                      {device.fw ? ` · fw ${device.fw}` : ''}
                      {device.isConnected ? '' : ' · offline'}
                    </div>
                  </td>
                  <td>
                    <div className="ota-pending__command">{device.update.updateCommand}</div>
                    <LiveUpdateState update={liveUpdate(device, live, pending.dataUpdatedAt)} />
                  </td>
                  <td className="ota-pending__when">
                    <div>{formatDateTime(device.otaPendingSubmittedAt, clock)}</div>
                    {device.submittedBy && <div className="ota-pending__meta">{device.submittedBy}</div>}
                  </td>
                  <td className="ota-pending__action">
                    <Button
                      size="sm"
                      variant="secondary"
                      disabled={approve.isPending}
                      aria-label={`Approve ${device.name}`}
                      onClick={() => onApprove([device.deviceId])}
                    >
                      Approve
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {rollouts.data && rollouts.data.rollouts.length > 0 && (
        <>
          <h3 className="ota-section-title">Rollouts of the last day</h3>
          <OtaRolloutList rollouts={rollouts.data.rollouts} live={live} readAt={rollouts.dataUpdatedAt} clock={clock} />
        </>
      )}
    </Dialog>
  );
}

/** An update's state as a badge, with the download's progress as a bar beneath. */
function LiveUpdateState({ update }: { update: OtaPendingDevice['update'] }) {
  return (
    <>
      <Badge tone={otaStateTone(update.state)}>{otaStatusText(update)}</Badge>
      {update.state === 'DOWNLOADING' && update.percent !== null && (
        <div
          className="ota-device__bar"
          role="progressbar"
          aria-label={otaStatusText(update)}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={update.percent}
        >
          <span style={{ width: `${update.percent}%` }} />
        </div>
      )}
    </>
  );
}
