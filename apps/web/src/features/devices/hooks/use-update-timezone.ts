import { useState } from 'react';
import type { Device } from '@fieldlink/api/device';
import { posixTimeZoneRule } from '@fieldlink/domain/time-zone';
import { serverErrorMessage } from '../../../lib/api-client';
import { showToast } from '../../../lib/app-store/app-store';
import { realtimeRequest } from '../../../lib/realtime/realtime-connection';
import { postDeviceConfig } from '../api/post-device-config';

/**
 * Update Timezone (core §2, §7): the time/date command with the zone's IANA name and POSIX rule over
 * the real-time channel. A device that is offline gets it queued through `POST /device-config`
 * settings instead, delivered when it reconnects.
 */
export function useUpdateTimezone(device: Device | undefined, isConnected: boolean) {
  const [running, setRunning] = useState(false);

  const update = async (tzName: string) => {
    if (!device || running) return;
    setRunning(true);
    try {
      const tzRule = posixTimeZoneRule(tzName);
      if (isConnected) {
        await realtimeRequest({ type: 'server/timeDate', thingName: device.thingName, tzName, tzRule });
        showToast('success', `Time zone set to ${tzName}.`);
      } else {
        const answer = await postDeviceConfig({ id: device.id, props: { settings: { timeDate: { tzName, tzRule } } } });
        showToast(
          'info',
          answer.unsentMessages?.length
            ? `The device is offline: ${tzName} will be sent when it reconnects.`
            : `Time zone set to ${tzName}.`,
        );
      }
    } catch (error) {
      showToast('error', error instanceof Error && !('status' in error) ? error.message : serverErrorMessage(error));
    } finally {
      setRunning(false);
    }
  };

  return { running, update };
}
