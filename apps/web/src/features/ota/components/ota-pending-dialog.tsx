import { isFailedItem, OTA_APPROVE_FAILED_MESSAGE } from '@fieldlink/api/ota';
import { otaStatusText } from '@fieldlink/domain/ota';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { PanelMessage } from '../../../components/ui/panel-message';
import { Spinner } from '../../../components/ui/spinner';
import { showToast } from '../../../lib/app-store/app-store';
import { formatDateTime } from '@fieldlink/domain/date-format';
import { useOtaPending } from '../api/get-ota-pending';
import { useOtaApprove } from '../api/post-ota-approve';
import { otaStateTone } from '../model/ota-tone';
import './ota.css';

/**
 * The administrators' list of devices with a pending OTA update (§6), with Approve per device and for
 * all. Approving releases an update held for approval, or signs off one sent with skipApproval.
 */
export function OtaPendingDialog({ onClose }: { onClose: () => void }) {
  const pending = useOtaPending(true);
  const approve = useOtaApprove();
  const devices = pending.data?.devices ?? [];

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
      description="Updates submitted for devices and not yet approved by an administrator."
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
                    <Badge tone={otaStateTone(device.update.state)}>{otaStatusText(device.update)}</Badge>
                  </td>
                  <td className="ota-pending__when">
                    <div>{formatDateTime(device.otaPendingSubmittedAt)}</div>
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
    </Dialog>
  );
}
