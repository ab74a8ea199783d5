import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FlashIcon, RefreshIcon } from '../../../components/ui/icons';
import { showToast } from '../../../lib/app-store/app-store';
import { realtimeRequest } from '../../../lib/realtime/realtime-connection';
import { useDeviceActionRefusal } from '../../../lib/session/use-can';

/** Commands of the dash header: FLASH LED (find the device on site) and re-read its configuration. */
export function DeviceActions({ thingName }: { thingName: string }) {
  const [running, setRunning] = useState<'flash' | 'refresh' | null>(null);
  const refusals = { refresh: useDeviceActionRefusal('refreshMetadata'), flash: useDeviceActionRefusal('system') };
  const run = async (which: 'flash' | 'refresh') => {
    setRunning(which);
    try {
      await realtimeRequest(
        which === 'flash'
          ? { type: 'server/systemCommand', thingName, command: 'FLASH LED' }
          : { type: 'server/refreshMetadata', thingName },
      );
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
          onClick={() => void run('flash')}
        >
          {running !== 'flash' && <FlashIcon size={14} />} FLASH LED
        </Button>
      </span>
    </div>
  );
}
