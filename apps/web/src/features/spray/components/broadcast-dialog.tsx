import type { Device } from '@fieldlink/api/device';
import { BROADCAST_SPRAY_COOLDOWN_SECONDS, broadcastSprayWaitMessage } from '@fieldlink/domain/spray';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { useNow } from '../../../lib/clock';
import { realtimeStore } from '../../../lib/realtime/realtime-store';
import { useStore } from '../../../lib/use-store';
import { broadcastReadiness, secondsLeft } from '../model/spray-view';

/**
 * The broadcast spray confirmation: how many sprayers will spray, and which will not and why
 * (offline, an alarm that stops sprays, broadcasts not accepted). Only "Spray now" sends it. Inside
 * the cool-down (`cooldownUntil`, from the server's `retryAfterSeconds` or this console's own last
 * broadcast) it counts down and cannot be confirmed; a refusal is said here, once.
 */
export function BroadcastDialog({
  groupName,
  sprayers,
  busy,
  cooldownUntil,
  refusal,
  onConfirm,
  onClose,
}: {
  groupName: string;
  sprayers: readonly Device[];
  busy: boolean;
  /** Unix ms until which the server refuses a broadcast, when known. */
  cooldownUntil: number | null;
  /** The server's refusal of the last attempt (other than the cool-down), with whether trying again can help. */
  refusal: { message: string; final: boolean } | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const live = useStore(realtimeStore, (s) => s);
  const waitSeconds = secondsLeft(cooldownUntil, useNow());
  const rows = sprayers.map((device) => ({
    device,
    ...broadcastReadiness(
      {
        isConnected: live.connection[device.thingName]?.isConnected ?? device.isConnected,
        alarmMask: live.alarms[device.thingName]?.sp ?? device.status.sp,
        acceptsBroadcast: live.latest[device.thingName]?.gpf11?.value,
      },
      waitSeconds,
    ),
  }));
  const count = rows.filter((row) => row.willSpray).length;
  const waiting = waitSeconds > 0;
  return (
    <Dialog
      title="Broadcast spray"
      description={
        <span data-testid="broadcast-count">
          {count === 0
            ? `No sprayer of ${groupName} can spray now.`
            : waiting
              ? `${count} ${count === 1 ? 'sprayer' : 'sprayers'} of ${groupName} can spray when the cool-down ends.`
              : `${count} ${count === 1 ? 'sprayer' : 'sprayers'} of ${groupName} will spray now.`}
        </span>
      }
      tone="danger"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            variant="danger"
            busy={busy}
            disabled={count === 0 || waiting || refusal?.final === true}
            onClick={onConfirm}
            data-autofocus
          >
            {waiting ? `Wait ${waitSeconds} s` : `Spray ${count} ${count === 1 ? 'sprayer' : 'sprayers'}`}
          </Button>
        </>
      }
    >
      {waiting ? (
        <div data-testid="broadcast-cooldown">
          <InlineAlert tone="warning">{broadcastSprayWaitMessage(waitSeconds)}</InlineAlert>
        </div>
      ) : (
        refusal && (
          <div data-testid="broadcast-refusal">
            <InlineAlert tone="error">{refusal.message}</InlineAlert>
          </div>
        )
      )}
      <ul className="spray-broadcast-list">
        {rows.map(({ device, willSpray, note }) => (
          <li key={device.id} className={!willSpray ? 'will-not-spray' : waiting ? 'is-waiting' : 'will-spray'}>
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
