import { useEffect, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FlashIcon, RefreshIcon } from '../../../components/ui/icons';
import { OperateStatus } from '../../../components/operate/operate-status';
import { useConfirmedCommand } from '../../../components/operate/use-confirmed-command';
import { showToast } from '../../../lib/app-store/app-store';
import { realtimeRequest } from '../../../lib/realtime/realtime-connection';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';

/** How long FLASH LED says "Done" once the device has answered. */
const FLASH_DONE_SHOWN_MS = 5_000;

/**
 * Commands of the dash header: FLASH LED (find the device on site), confirmed first as every command
 * to a device (issue 36 item 1), and re-reading its configuration (a read: not confirmed).
 */
export function DeviceActions({ thingName, deviceName }: { thingName: string; deviceName: string }) {
  const [running, setRunning] = useState<'flash' | 'refresh' | null>(null);
  const [flashDone, setFlashDone] = useState(false);
  const refusals = { refresh: useDeviceActionRefusal('refreshMetadata'), flash: useDeviceActionRefusal('system') };
  const { ask, dialog } = useConfirmedCommand();
  useEffect(() => {
    if (!flashDone) return;
    const timer = setTimeout(() => setFlashDone(false), FLASH_DONE_SHOWN_MS);
    return () => clearTimeout(timer);
  }, [flashDone]);
  const run = async (which: 'flash' | 'refresh') => {
    setRunning(which);
    setFlashDone(false);
    try {
      await realtimeRequest(
        which === 'flash'
          ? { type: 'server/systemCommand', thingName, command: 'FLASH LED' }
          : { type: 'server/refreshMetadata', thingName },
      );
      if (which === 'flash') setFlashDone(true);
      showToast(
        'success',
        which === 'flash' ? 'The device is flashing its LED.' : 'The device sent its configuration.',
      );
    } catch (error) {
      showToast('error', error instanceof Error ? error.message : String(error));
    } finally {
      setRunning(null);
    }
  };
  return (
    <div className="device-actions">
      <OperateStatus progress={running === 'flash' ? 'sending' : flashDone ? 'done' : null} />
      <span title={refusals.refresh ?? undefined}>
        <Button
          size="sm"
          busy={running === 'refresh'}
          disabled={running !== null || refusals.refresh !== null}
          onClick={() => void run('refresh')}
        >
          {running !== 'refresh' && <RefreshIcon size={14} />} Refresh
        </Button>
      </span>
      <span title={refusals.flash ?? undefined}>
        <Button
          size="sm"
          busy={running === 'flash'}
          disabled={running !== null || refusals.flash !== null}
          onClick={() =>
            ask({
              action: 'Flash LED',
              device: deviceName,
              output: 'Status LED',
              now: 'Normal',
              after: 'Flashing',
              send: () => void run('flash'),
            })
          }
        >
          {running !== 'flash' && <FlashIcon size={14} />} FLASH LED
        </Button>
      </span>
      {dialog}
    </div>
  );
}
