import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { FlashIcon, RefreshIcon } from '../../../components/ui/icons';
import { showToast } from '../../../lib/app-store/app-store';
import { realtimeRequest } from '../../../lib/realtime/realtime-connection';

/** Commands of the dash header: FLASH LED (find the device on site) and re-read its configuration. */
export function DeviceActions({ thingName }: { thingName: string }) {
  const [running, setRunning] = useState<'flash' | 'refresh' | null>(null);
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
      <Button size="sm" busy={running === 'refresh'} disabled={running !== null} onClick={() => void run('refresh')}>
        {running !== 'refresh' && <RefreshIcon size={14} />} Refresh
      </Button>
      <Button size="sm" busy={running === 'flash'} disabled={running !== null} onClick={() => void run('flash')}>
        {running !== 'flash' && <FlashIcon size={14} />} FLASH LED
      </Button>
    </div>
  );
}
