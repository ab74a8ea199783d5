import type { Device } from '@fieldlink/api/device';
import { BROADCAST_SPRAY_COOLDOWN_SECONDS } from '@fieldlink/domain/spray';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useStore } from '../../../lib/use-store';
import { broadcastReadiness } from '../model/spray-view';

/**
 * The broadcast spray confirmation: how many sprayers will spray, and which will not and why
 * (offline, an alarm that stops sprays, broadcasts not accepted). Only "Spray now" sends it.
 */
export function BroadcastDialog({
  groupName,
  sprayers,
  busy,
  onConfirm,
  onClose,
}: {
  groupName: string;
  sprayers: readonly Device[];
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const live = useStore(realtimeStore, (s) => s);
  const rows = sprayers.map((device) => ({
    device,
    ...broadcastReadiness({
      isConnected: live.connection[device.thingName]?.isConnected ?? device.isConnected,
      alarmMask: live.alarms[device.thingName]?.sp ?? device.status.sp,
      acceptsBroadcast: live.latest[device.thingName]?.gpf11?.value,
    }),
  }));
  const count = rows.filter((row) => row.willSpray).length;
  return (
    <Dialog
      title="Broadcast spray"
      description={
        <span data-testid="broadcast-count">
          {count === 0
            ? `No sprayer of ${groupName} can spray now.`
            : `${count} ${count === 1 ? 'sprayer' : 'sprayers'} of ${groupName} will spray now.`}
        </span>
      }
      tone="danger"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" busy={busy} disabled={count === 0} onClick={onConfirm} data-autofocus>
            Spray {count} {count === 1 ? 'sprayer' : 'sprayers'}
          </Button>
        </>
      }
    >
      <ul className="spray-broadcast-list">
        {rows.map(({ device, willSpray, note }) => (
          <li key={device.id} className={willSpray ? 'will-spray' : 'will-not-spray'}>
            <span className="spray-broadcast-list__name">{device.name}</span>
            <span className="spray-broadcast-list__note">{note}</span>
          </li>
        ))}
      </ul>
      <p className="fl-muted spray-broadcast-hint">
        Each sprayer runs zone 1, then zone 2. Another broadcast on this group is possible{' '}
        {BROADCAST_SPRAY_COOLDOWN_SECONDS} seconds later.
      </p>
    </Dialog>
  );
}
